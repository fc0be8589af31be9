package benchtest

import (
	"fmt"
	"maps"
	"testing"
)

func TestParseRuntimeInfo(t *testing.T) {
	tests := []struct {
		line string
		want map[string]string
		ok   bool
	}{
		{"Runtime: .NET 10.0.12; GC: server, concurrent; processors: 2; environment: Production",
			map[string]string{"runtime": ".NET 10.0.12", "GC": "server, concurrent", "processors": "2", "environment": "Production"}, true},
		{"Runtime: GC: workstation, concurrent\r", map[string]string{"GC": "workstation, concurrent"}, true},
		{"Runtime: ", map[string]string{}, true},
		{"Now listening on: http://127.0.0.1:5000", nil, false},
		{"runtime: lower case is not the line", nil, false},
	}
	for _, tt := range tests {
		got, ok := ParseRuntimeInfo(tt.line)
		if ok != tt.ok || !maps.Equal(got, tt.want) {
			t.Errorf("ParseRuntimeInfo(%q) = %v, %v; want %v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func ExampleParseRuntimeInfo() {
	info, _ := ParseRuntimeInfo("Runtime: .NET 10.0.12; GC: workstation, concurrent; processors: 1")
	fmt.Println(info["runtime"], "|", info["GC"], "|", info["processors"])
	// Output: .NET 10.0.12 | workstation, concurrent | 1
}
