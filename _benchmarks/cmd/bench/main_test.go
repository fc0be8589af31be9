// Tests of the command line: usage errors, sizes, the check subcommand on a
// written report, and `verify` on a real app.
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-no-such-flag"},
		{"-memory-max", "lots"},
		{"check"},
		{"check", "a", "b"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("run(%q) = %d, want 2 (stderr %q)", args, code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-mode", "parallel", "simple"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "mode") {
		t.Errorf("bad mode: code %d, stderr %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"instructions", "-d", "10s", "simple"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not a duration") {
		t.Errorf("instructions -d: code %d, stderr %q", code, errOut.String())
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"268435456", 256 << 20, true},
		{"256M", 256 << 20, true},
		{"256m", 256 << 20, true},
		{"1G", 1 << 30, true},
		{"512K", 512 << 10, true},
		{"", 0, false},
		{"-1M", 0, false},
		{"M", 0, false},
	}
	for _, tt := range tests {
		got, err := parseBytes(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseBytes(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	res := &report.Results{
		StartedAt: time.Now(), FinishedAt: time.Now(), Command: "test",
		Settings: report.Settings{Mode: "interleaved", Repeats: 1, Profile: "default"},
		Comparisons: []report.Comparison{{Name: "simple", Method: "GET", Path: "/api/values/5", Baseline: "vireo",
			Apps: []report.App{{Name: "vireo", Stack: "go", Skipped: "app not found: apps/vireo"}}}},
	}
	if _, err := report.WriteDir(dir, res); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"check", dir}, &out, &errOut); code != 0 {
		t.Fatalf("check = %d: %s", code, errOut.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "RESULTS.md"), []byte("# broken\n| a |\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"check", dir}, &out, &errOut); code != 1 {
		t.Errorf("check of a broken report = %d, want 1", code)
	}
}

func TestVerifyCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts an app")
	}
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "apps", "nethttp")); err != nil {
		t.Skip("apps/nethttp does not exist yet")
	}
	var out, errOut bytes.Buffer
	code := run([]string{"verify", "-port", "0", "-apps", "nethttp,netcore", "simple"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("verify = %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "nethttp                  ok") {
		t.Errorf("no ok line for nethttp:\n%s", out.String())
	}
}
