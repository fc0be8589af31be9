// Tests of the command lines the documentation gives: every `go run
// ./cmd/bench ...` line of _benchmarks/README.md (and of the command's own
// doc comment) must parse, with flags before or after the comparison names,
// into a configuration the runner accepts.
package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/techempower"
)

// documentedCommands returns the argument lists of the `go run ./cmd/bench`
// commands in the file at path, without the shell comments after them.
func documentedCommands(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		_, after, ok := strings.Cut(sc.Text(), "go run ./cmd/bench")
		if !ok {
			continue
		}
		after, _, _ = strings.Cut(after, "#")
		after, _, _ = strings.Cut(after, "`")
		fields := strings.Fields(after)
		// Placeholders such as <timestamp> and [flags] are not commands.
		if strings.ContainsAny(after, "<[]") || strings.Contains(after, "...") {
			continue
		}
		cmds = append(cmds, fields)
	}
	return cmds
}

// parse runs the command line args through run without running it.
func parse(t *testing.T, args []string) (string, runner.Config, int, string) {
	t.Helper()
	var sub string
	var cfg runner.Config
	parsed = func(s string, c runner.Config) { sub, cfg = s, c }
	// A `bench tfb` line is parsed by its own flag set; it has no
	// runner.Config, and its defaults are checked by package techempower.
	tfbParsed = func(techempower.Config) { sub, cfg = "tfb", runner.Config{Root: "x"} }
	defer func() { parsed, tfbParsed = nil, nil }()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return sub, cfg, code, errOut.String()
}

func TestDocumentedCommands(t *testing.T) {
	cmds := documentedCommands(t, filepath.Join("..", "..", "README.md"))
	if len(cmds) < 8 {
		t.Fatalf("found %d commands in README.md, expected the usage block's", len(cmds))
	}
	for _, args := range cmds {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if len(args) > 0 && args[0] == "check" {
				return // check takes a results directory, tested on its own
			}
			sub, cfg, code, stderr := parse(t, args)
			if code != 0 {
				t.Fatalf("exit code %d: %s", code, stderr)
			}
			cfg.Defaults()
			if err := cfg.Validate(); err != nil {
				t.Errorf("%s: %v", sub, err)
			}
		})
	}
}

func TestFlagsAfterComparisons(t *testing.T) {
	tests := []struct {
		args        []string
		sub         string
		comparisons []string
		requests    int64
		quick       bool
	}{
		{[]string{"instructions", "simple", "-n", "5000"}, "instructions", []string{"simple"}, 5000, false},
		{[]string{"instructions", "-n", "5000", "simple"}, "instructions", []string{"simple"}, 5000, false},
		{[]string{"simple", "-quick", "mvc"}, "run", []string{"simple", "mvc"}, 0, true},
		{[]string{"-quick", "sessions-redis"}, "run", []string{"sessions-redis"}, 0, true},
		{[]string{"verify", "templates", "-apps", "vireo-mvc-templates"}, "verify", []string{"templates"}, 0, false},
	}
	for _, tt := range tests {
		sub, cfg, code, stderr := parse(t, tt.args)
		if code != 0 || sub != tt.sub || !reflect.DeepEqual(cfg.Comparisons, tt.comparisons) || cfg.Requests != tt.requests || cfg.Quick != tt.quick {
			t.Errorf("%q: code %d (%s), sub %q, comparisons %q, -n %d, quick %v", tt.args, code, stderr, sub, cfg.Comparisons, cfg.Requests, cfg.Quick)
		}
	}
}
