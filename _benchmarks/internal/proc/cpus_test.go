// Tests of CPU list parsing, formatting and the server/load split checks.
package proc

import (
	"reflect"
	"runtime"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"0", []int{0}, false},
		{"0-3", []int{0, 1, 2, 3}, false},
		{"3,0-1,1", []int{0, 1, 3}, false},
		{" 2 , 4-5 ", []int{2, 4, 5}, false},
		{"", nil, true},
		{"a", nil, true},
		{"3-1", nil, true},
		{"-1", nil, true},
		{"0,,1", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseCPUList(tt.in)
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 5, 7, 8}, "0-2,5,7-8"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := FormatCPUList(tt.in); got != tt.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDefaultCPUSplit(t *testing.T) {
	allowed := allowedCPUs(runtime.NumCPU())
	server, load := DefaultCPUSplit(runtime.NumCPU())
	if len(allowed) < 2 {
		if server != "" || load != "" {
			t.Errorf("single CPU: split %q/%q, want none", server, load)
		}
		return
	}
	s, l, err := CheckCPUSplit(server, load, runtime.NumCPU())
	if err != nil {
		t.Fatalf("default split %q/%q rejected: %v", server, load, err)
	}
	if len(s)+len(l) != len(allowed) || len(s) != len(allowed)/2 {
		t.Errorf("split %v/%v of %v is not the two halves", s, l, allowed)
	}
	if len(allowed) == 2 && (server != FormatCPUList(allowed[:1]) || load != FormatCPUList(allowed[1:])) {
		t.Errorf("on 2 cores: server %q load %q", server, load)
	}
}

func TestCheckCPUSplitRejects(t *testing.T) {
	allowed := allowedCPUs(runtime.NumCPU())
	first := FormatCPUList(allowed[:1])
	for _, tt := range []struct{ server, load string }{
		{first, first},    // overlap
		{"100000", first}, // not available
		{first, "100000"}, // not available
		{"", first},       // empty
		{first, "x"},      // malformed
	} {
		if _, _, err := CheckCPUSplit(tt.server, tt.load, runtime.NumCPU()); err == nil {
			t.Errorf("CheckCPUSplit(%q, %q) accepted", tt.server, tt.load)
		}
	}
}
