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
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/techempower"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
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

// parse runs the command line args through run without running it; a
// tfb command's configuration (of a req/s run or, with -instructions, of
// a count) is checked by techempower.Config.Check, and a -rederive's
// directory must hold a results.json; the error is returned in stderr
// with exit code 2.
func parse(t *testing.T, args []string) (string, runner.Config, int, string) {
	t.Helper()
	var sub string
	var cfg runner.Config
	var tfbErr error
	parsed = func(s string, c runner.Config) { sub, cfg = s, c }
	tfbParsed = func(c techempower.Config) { sub, tfbErr = "tfb", c.Check() }
	tfbCountParsed = func(c techempower.CountConfig) { sub, tfbErr = "tfb", c.Check() }
	tfbRederiveParsed = func(dir string) {
		sub = "tfb"
		_, tfbErr = os.Stat(filepath.Join(dir, "results.json"))
	}
	defer func() { parsed, tfbParsed, tfbCountParsed, tfbRederiveParsed = nil, nil, nil, nil }()
	if len(args) > 0 && args[0] == "tfb" {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		if code == 0 && tfbErr != nil {
			return sub, cfg, 2, tfbErr.Error()
		}
		if code == 0 && sub != "tfb" {
			t.Fatalf("%q ran instead of being parsed", args)
		}
		return sub, cfg, code, errOut.String()
	}
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
			if sub == "tfb" {
				return // checked by techempower.Config.Check in parse
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

// TestTFBCommand parses bench tfb's flags and test types without running
// it: the quick defaults, the apps, the types; an unknown type or app is
// refused, and so are -rederive with test types or without a run.
func TestTFBCommand(t *testing.T) {
	var got techempower.Config
	tfbParsed = func(c techempower.Config) { got = c }
	defer func() { tfbParsed = nil }()
	var out, errOut bytes.Buffer
	if code := run([]string{"tfb", "-quick", "-apps", "tfb-vireo,tfb-nethttp", "fortunes", "updates"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got.Rounds != 1 || got.Duration != time.Second || !reflect.DeepEqual(got.Apps, []string{"tfb-vireo", "tfb-nethttp"}) ||
		!reflect.DeepEqual(got.Types, []tfb.Type{tfb.Fortunes, tfb.Updates}) || !strings.HasSuffix(got.OutDir, "-tfb-quick") {
		t.Errorf("parsed %+v", got)
	}
	if err := got.Check(); err != nil {
		t.Error(err)
	}
	if code := run([]string{"tfb", "cached-queries"}, &out, &errOut); code != 2 {
		t.Errorf("an unknown test type: exit %d", code)
	}
	got.Apps = []string{"tfb-iris"}
	if err := got.Check(); err == nil {
		t.Error("an unknown app passed Check")
	}
	if code := run([]string{"tfb", "-rederive", t.TempDir(), "json"}, &out, &errOut); code != 2 {
		t.Errorf("-rederive with a test type: exit %d", code)
	}
	if code := run([]string{"tfb", "-rederive", t.TempDir()}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "results.json") {
		t.Errorf("-rederive of a directory without results.json: exit %d: %s", code, errOut.String())
	}
	// With -instructions, -rederive reads an instructions run: a requests/s
	// run's results.json is refused by its schema.
	reqs := t.TempDir()
	if err := os.WriteFile(filepath.Join(reqs, "results.json"), []byte(`{"schema":"`+techempower.Schema+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"tfb", "-instructions", "-rederive", reqs}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), techempower.InstructionsSchema) {
		t.Errorf("-instructions -rederive of a requests/s run: exit %d: %s", code, errOut.String())
	}

	var count techempower.CountConfig
	tfbCountParsed = func(c techempower.CountConfig) { count = c }
	defer func() { tfbCountParsed = nil }()
	if code := run([]string{"tfb", "-instructions", "-n", "3000", "-c", "4", "json", "db"}, &out, &errOut); code != 0 {
		t.Fatalf("-instructions: exit %d: %s", code, errOut.String())
	}
	if count.Requests != 3000 || count.Connections != 4 || count.WarmupRequests != 0 ||
		!reflect.DeepEqual(count.Types, []tfb.Type{tfb.JSON, tfb.DB}) || !strings.HasSuffix(count.OutDir, "-tfb-instructions") {
		t.Errorf("-instructions parsed %+v", count)
	}
}
