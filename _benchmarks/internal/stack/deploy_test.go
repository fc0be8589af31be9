package stack

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirSize(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"app": 1000, "app.dbg": 5000, "lib/a.dll": 300, "lib/a.pdb": 70} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		skip      []string
		want      int64
		wantFiles int
	}{
		{nil, 6370, 4},
		{[]string{".pdb", ".dbg"}, 1300, 2},
	}
	for _, tt := range tests {
		n, files, err := dirSize(dir, tt.skip...)
		if err != nil || n != tt.want || files != tt.wantFiles {
			t.Errorf("dirSize(skip %q) = %d, %d, %v; want %d, %d", tt.skip, n, files, err, tt.want, tt.wantFiles)
		}
	}
	if _, _, err := dirSize(filepath.Join(dir, "missing")); err == nil {
		t.Error("dirSize of a missing directory succeeded")
	}
}

func TestVersionLess(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"10.0.9", "10.0.12", true},
		{"10.0.12", "10.0.9", false},
		{"9.0.23", "10.0.0", true},
		{"10.0", "10.0.1", true},
		{"10.0.1", "10.0.1", false},
	}
	for _, tt := range tests {
		if got := versionLess(tt.a, tt.b); got != tt.want {
			t.Errorf("versionLess(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
