// Tests of `bench instructions`: its defaults and refusals, the report of a
// machine without valgrind (every app not measured, with the reason, JIT
// apps with theirs), and an end-to-end count of two Go apps of the simple
// comparison under real callgrind with a small number of requests, skipped
// with the reason where valgrind is missing.
package instructions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/callgrind"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"

	"github.com/vireo-go/vireo/internal/testtool"
)

func TestInstructionDefaults(t *testing.T) {
	tests := []struct {
		name             string
		in               runner.Config
		requests, warmup int64
		conns            int
		timeout          time.Duration
	}{
		{"full", runner.Config{}, DefaultInstructionRequests, DefaultInstructionWarmup, DefaultInstructionConnections, instructionTimeout},
		{"quick", runner.Config{Quick: true}, quickInstructionRequests, quickInstructionWarmup, DefaultInstructionConnections, instructionTimeout},
		{"flags win", runner.Config{Quick: true, Requests: 300, WarmupRequests: 50, Connections: 2, Timeout: time.Second}, 300, 50, 2, time.Second},
	}
	for _, tt := range tests {
		c := tt.in
		defaults(&c)
		if c.Requests != tt.requests || c.WarmupRequests != tt.warmup || c.Connections != tt.conns || c.Timeout != tt.timeout {
			t.Errorf("%s: -n %d, warm-up %d, -c %d, timeout %v", tt.name, c.Requests, c.WarmupRequests, c.Connections, c.Timeout)
		}
		// The throughput defaults that follow must not turn the count
		// into a timed run.
		c.Defaults()
		if c.Duration != 0 {
			t.Errorf("%s: duration %v after Defaults", tt.name, c.Duration)
		}
	}
}

func TestValidateInstructions(t *testing.T) {
	for name, c := range map[string]runner.Config{
		"duration":    {Duration: 10 * time.Second},
		"constrained": {Profile: runner.ProfileConstrained},
		"negative":    {WarmupRequests: -1},
	} {
		if err := validate(&c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := runner.Config{Requests: 300, Quick: true}
	if err := validate(&ok); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
	_, _, err := Run(context.Background(), runner.Config{Root: t.TempDir(), Duration: time.Second})
	if err == nil || !strings.Contains(err.Error(), "-d") {
		t.Errorf("Instructions with -d = %v", err)
	}
}

// TestInstructionsWithoutValgrind plays a machine without valgrind: the
// report is written, every Go app is "not measured" with the reason, the
// JIT apps with theirs, and nothing runs under load.
func TestInstructionsWithoutValgrind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bombardier")
	}
	root, _ := benchtest.MustContract(t)
	saved := lookValgrind
	lookValgrind = func() (string, string, error) {
		return "", "", errors.New("valgrind not found (Debian: apt-get install -y valgrind)")
	}
	defer func() { lookValgrind = saved }()
	cfg := runner.Config{Root: root, OutDir: t.TempDir(), Comparisons: []string{"simple"}, Apps: []string{"vireo", "nethttp", "expressjs", "netcore"},
		Requests: 300, WarmupRequests: 50, BasePort: 0, Log: &benchtest.TestLog{T: t}}
	res, _, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Instructions: %v", err)
	}
	if _, err := report.CheckDir(cfg.OutDir); err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Comparisons[0].Apps {
		want := "valgrind not found (Debian: apt-get install -y valgrind)"
		if a.Stack != stack.GoName {
			want = stack.For(a.Stack).NotCounted()
		}
		if a.Skipped != want || a.Instructions != nil || a.BuildSeconds != 0 {
			t.Errorf("%s: skipped %q (want %q), instructions %v, built in %vs", a.Name, a.Skipped, want, a.Instructions, a.BuildSeconds)
		}
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "RESULTS.md"))
	if !strings.Contains(string(md), "| expressjs | not measured: JIT runtimes under valgrind are not comparable") {
		t.Errorf("RESULTS.md lacks the JIT reason:\n%s", md)
	}
}

// TestInstructionsSimple counts two Go apps of the simple comparison under
// callgrind with 300 requests each.
func TestInstructionsSimple(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	testtool.Require(t, "valgrind") // callgrind_control comes with it
	if _, _, err := lookValgrind(); err != nil {
		t.Fatalf("%v: valgrind is installed but instructions cannot be counted", err)
	}
	root, apps, _ := benchtest.SimpleGoApps(t)
	if len(apps) > 2 {
		apps = apps[:2]
	}
	baseline := apps[0]
	for _, a := range apps {
		if a == "vireo" {
			baseline = a
		}
	}
	const n = 300
	cfg := runner.Config{Root: root, OutDir: t.TempDir(), Comparisons: []string{"simple"}, Apps: apps, Baselines: []string{baseline},
		Requests: n, WarmupRequests: 100, Log: &benchtest.TestLog{T: t}, Command: "go test (instructions end-to-end)"}
	res, files, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Instructions: %v", err)
	}
	if _, err := report.CheckDir(cfg.OutDir); err != nil {
		t.Fatalf("report not well formed: %v", err)
	}
	if res.Versions.Valgrind == "" || !res.Measures(report.MeasureInstructions) {
		t.Errorf("valgrind version %q, measure %q", res.Versions.Valgrind, res.Settings.Measure)
	}
	c := res.Comparisons[0]
	var base float64
	for _, a := range c.Apps {
		if a.Name == baseline && a.Instructions != nil {
			base = a.Instructions.PerRequest
		}
	}
	for _, a := range c.Apps {
		in := a.Instructions
		if !a.InstructionsMeasured() {
			t.Errorf("%s not counted: skipped %q, failed %q", a.Name, a.Skipped, a.Failed)
			continue
		}
		// A Go HTTP request costs tens of thousands of instructions; far
		// less means the window missed the requests, far more that it
		// held the start-up.
		if in.Requests != n || in.PerRequest < 5e3 || in.PerRequest > 2e6 {
			t.Errorf("%s: %+v", a.Name, in)
		}
		if in.RatioToBaseline == nil || *in.RatioToBaseline != in.PerRequest/base {
			t.Errorf("%s: ratio %v, want %v", a.Name, in.RatioToBaseline, in.PerRequest/base)
		}
		f, err := callgrind.ParseFile(filepath.Join(cfg.OutDir, in.DumpFile))
		if err != nil {
			t.Errorf("%s: kept dump: %v", a.Name, err)
		} else if got, _ := f.Instructions(); got != in.Total {
			t.Errorf("%s: kept dump holds %d instructions, the report %d", a.Name, got, in.Total)
		}
	}
	// Only the window dumps are kept, and no app outlives the run.
	kept, _ := filepath.Glob(filepath.Join(cfg.OutDir, "callgrind", "*"))
	if len(kept) != len(apps) {
		t.Errorf("callgrind/ holds %v, want one dump per app", kept)
	}
	// The run's apps are those whose callgrind output goes to its OutDir
	// (not any process of bin/: other tests build and run there too).
	if left := commandsMentioning(cfg.OutDir); len(left) > 0 {
		t.Errorf("processes still running: %v", left)
	}
	if len(files.Charts) != 1 {
		t.Errorf("charts %v", files.Charts)
	}
}

// commandsMentioning lists live processes whose command line contains s:
// under valgrind the executable is valgrind's tool, the app only an
// argument.
func commandsMentioning(s string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), s) {
			continue
		}
		if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); !strings.Contains(string(st), ") Z") {
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

// TestInstructionsCancelled cancels a count while its app is under load:
// the app under valgrind must not outlive the run.
func TestInstructionsCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	testtool.Require(t, "valgrind") // callgrind_control comes with it
	if _, _, err := lookValgrind(); err != nil {
		t.Fatalf("%v: valgrind is installed but instructions cannot be counted", err)
	}
	root, apps, _ := benchtest.SimpleGoApps(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &benchtest.TestLog{T: t, OnLine: func(line string) {
		if strings.Contains(line, "verify ") && strings.HasSuffix(line, " ok") {
			time.AfterFunc(300*time.Millisecond, cancel)
		}
	}}
	cfg := runner.Config{Root: root, OutDir: t.TempDir(), Comparisons: []string{"simple"}, Apps: apps[:1],
		Requests: 100000, WarmupRequests: 100000, Log: log}
	if _, _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("Instructions = %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := commandsMentioning(cfg.OutDir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still running after the cancelled count: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
