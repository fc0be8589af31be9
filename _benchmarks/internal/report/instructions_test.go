// Tests of instructions reports: the ratios to the baseline, results.json
// round-tripping with schema 2, RESULTS.md's "Instructions/request
// (callgrind)" tables with rows for apps not counted, the chart, the checks
// rejecting broken tables, and version 1 reports still passing the check.
package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sampleInstructions() *Results {
	count := func(total, startup int64) *Instructions {
		return &Instructions{Requests: 20000, Total: total, PerRequest: float64(total) / 20000, StartupAndWarmup: startup}
	}
	return &Results{
		StartedAt:  time.Unix(1700000000, 0).UTC(),
		FinishedAt: time.Unix(1700000100, 0).UTC(),
		Command:    "go run ./cmd/bench instructions simple sessions",
		Settings: Settings{Measure: MeasureInstructions, Mode: "sequential", Repeats: 1, Connections: 8, Requests: 20000,
			ServerCPUs: "0", LoadCPUs: "1", Pinned: true, Profile: "default",
			Instructions: &InstructionSettings{Command: "taskset -c 0 valgrind --tool=callgrind", Env: "GODEBUG=asyncpreemptoff=1",
				Requests: 20000, Connections: 8, WarmupRequests: 500, Counted: "user-space instructions"}},
		Machine:  Machine{CPUModel: "Test CPU", Cores: 2, OS: "Debian", Kernel: "6.1", Arch: "amd64", MemTotalBytes: 4 << 30},
		Versions: Versions{Go: "go1.25.0", Bombardier: "v1.2.6", Valgrind: "3.19.0"},
		Comparisons: []Comparison{{
			Name: "simple", Method: "GET", Path: "/api/values/5", Connections: 8, Requests: 20000, Baseline: "vireo",
			Apps: []App{
				{Name: "vireo", Stack: "go", LinesOfCode: 12, Instructions: count(765_000_000, 20_000_000)},
				{Name: "netcore", Stack: "dotnet", Skipped: "JIT runtimes under valgrind are not comparable (.NET)"},
				{Name: "iris", Stack: "go", Instructions: count(1_020_000_000, 90_000_000)},
				{Name: "gin", Stack: "go", Failed: "callgrind dump after the warm-up failed"},
				{Name: "nethttp", Stack: "go", Instructions: count(760_000_000, 20_000_000)},
			},
		}, {
			Name: "sessions", Variant: "cookie-keeping", Method: "GET", Path: "/setget", Connections: 8, Requests: 20000,
			Baseline: "vireo-sessions", CookieMethod: "bombardier -H 'Cookie: ...'",
			Apps: []App{
				{Name: "vireo-sessions", Stack: "go", Failed: "did not start under callgrind"},
				{Name: "iris-sessions", Stack: "go", Instructions: count(900_000_000, 1)},
			},
		}},
	}
}

func TestSummarizeInstructions(t *testing.T) {
	res := sampleInstructions()
	for i := range res.Comparisons {
		Summarize(&res.Comparisons[i])
	}
	simple := res.Comparisons[0].Apps
	if r := simple[0].Instructions.RatioToBaseline; r == nil || *r != 1 {
		t.Errorf("baseline ratio = %v, want 1", r)
	}
	if r := simple[2].Instructions.RatioToBaseline; r == nil || math.Abs(*r-1020.0/765) > 1e-12 {
		t.Errorf("iris ratio = %v, want %v", r, 1020.0/765)
	}
	if simple[0].Summary != nil || simple[2].Summary != nil {
		t.Error("an instructions report got throughput summaries")
	}
	// The baseline failed: no ratio rather than a ratio to nothing.
	if r := res.Comparisons[1].Apps[1].Instructions.RatioToBaseline; r != nil {
		t.Errorf("ratio without a counted baseline = %v", *r)
	}
}

func TestWriteDirInstructions(t *testing.T) {
	dir := t.TempDir()
	files, err := WriteDir(dir, sampleInstructions())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "simple-instructions.png"), filepath.Join(dir, "sessions-cookie-keeping-instructions.png")}
	if strings.Join(files.Charts, ",") != strings.Join(want, ",") {
		t.Errorf("charts = %v, want %v", files.Charts, want)
	}
	got, err := CheckDir(dir)
	if err != nil {
		t.Fatalf("CheckDir: %v", err)
	}
	if got.Schema != SchemaVersion || !got.Measures(MeasureInstructions) || got.Measures(MeasureThroughput) {
		t.Errorf("schema %q, measure %q", got.Schema, got.Settings.Measure)
	}
	in := got.Comparisons[0].Apps[2].Instructions
	if in == nil || in.PerRequest != 51000 || in.Total != 1_020_000_000 || in.Requests != 20000 || in.RatioToBaseline == nil {
		t.Errorf("iris instructions did not round-trip: %+v", in)
	}
	md, err := os.ReadFile(files.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"# Vireo benchmark results: instructions per request (callgrind)",
		"| Name | Instructions/request (callgrind) | Row ÷ vireo | Requests | Instructions in window | Start-up + warm-up | Lines of code |",
		"| vireo | 38250 | 1 (baseline) | 20000 | 765M | 20.0M | 12 |",
		"| iris | 51000 | 1.33 | 20000 | 1.02G | 90.0M | – |",
		"| netcore | not measured: JIT runtimes under valgrind are not comparable (.NET) |",
		"| gin | failed: callgrind dump after the warm-up failed |",
		"| net/http (floor) | 38000 | 0.99 | 20000 | 760M | 20.0M | – |",
		"| iris-sessions | 45000 | n/a: vireo-sessions not measured |",
		"![simple: instructions per request](simple-instructions.png)",
		"## sessions (cookie-keeping): GET /setget",
		"valgrind 3.19.0",
		"not the kernel's",
	} {
		if !strings.Contains(string(md), s) {
			t.Errorf("RESULTS.md lacks %q:\n%s", s, md)
		}
	}
}

func TestCheckInstructionsRejects(t *testing.T) {
	res := sampleInstructions()
	for i := range res.Comparisons {
		Summarize(&res.Comparisons[i])
	}
	var good strings.Builder
	if err := WriteMarkdown(&good, res, nil); err != nil {
		t.Fatal(err)
	}
	if err := CheckMarkdown(good.String(), res); err != nil {
		t.Fatalf("good markdown rejected: %v", err)
	}
	bad := map[string]string{
		"count missing":   strings.Replace(good.String(), "| iris | 51000 |", "| iris | – |", 1),
		"reason missing":  strings.Replace(good.String(), "not measured: JIT", "JIT", 1),
		"row missing":     strings.Replace(good.String(), "| gin |", "", 1),
		"throughput kind": strings.Replace(good.String(), "Instructions/request (callgrind) |", "Reqs/sec |", 1),
	}
	for name, md := range bad {
		if err := CheckMarkdown(md, res); err == nil {
			t.Errorf("%s: CheckMarkdown accepted it", name)
		}
	}
	// A throughput check of an instructions report fails: the kind comes
	// from results.json.
	res.Settings.Measure = MeasureThroughput
	if err := CheckMarkdown(good.String(), res); err == nil {
		t.Error("an instructions RESULTS.md passed as a throughput report")
	}
}

// TestReadResultsVersion1 checks that reports written before the
// instruction counts existed still read and check.
func TestReadResultsVersion1(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteDir(dir, sampleResults(t)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "results.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["schema"] = "vireo-bench/1"
	delete(raw["settings"].(map[string]any), "measure")
	data, _ = json.Marshal(raw)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := CheckDir(dir)
	if err != nil {
		t.Fatalf("version 1 report rejected: %v", err)
	}
	if !res.Measures(MeasureThroughput) || res.Measures(MeasureInstructions) {
		t.Errorf("version 1 report measures %q", res.Settings.Measure)
	}
	raw["schema"] = "vireo-bench/0"
	data, _ = json.Marshal(raw)
	os.WriteFile(path, data, 0o644)
	if _, err := ReadResults(path); err == nil {
		t.Error("unknown schema accepted")
	}
}

func TestFormatCount(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{999, "999"},
		{38251, "38.3k"},
		{765_502_977, "766M"},
		{1_042_805_743, "1.04G"},
		{2_451_231, "2.45M"},
	}
	for _, tt := range tests {
		if got := formatCount(tt.in); got != tt.want {
			t.Errorf("formatCount(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
