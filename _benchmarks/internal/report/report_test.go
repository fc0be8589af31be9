// Tests of the statistics (median, spreads, per-round ratios), of the summary
// of raw runs, and of the written report: results.json round-trips with its
// schema, RESULTS.md is well formed with skipped rows, the charts decode.
package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1000}, 10},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.in...)
		if got := Median(tt.in); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		if !reflect.DeepEqual(in, tt.in) {
			t.Errorf("Median modified its input: %v", tt.in)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

func TestSpreadOf(t *testing.T) {
	got := SpreadOf([]float64{5, 9, 1, 7})
	want := Spread{Median: 6, Min: 1, Max: 9}
	if got != want {
		t.Errorf("SpreadOf = %+v, want %+v", got, want)
	}
}

func run(round int, rps float64) Run {
	return Run{Round: round, Load: Load{Bombardier: &bombardier.Result{RPS: bombardier.RPS{Mean: rps}, TimeTakenSeconds: 1}}}
}

func TestRoundRatios(t *testing.T) {
	tests := []struct {
		name      string
		app, base []Run
		want      *Ratio
	}{
		{
			name: "per round, not ratio of medians",
			// The machine drifts: round 2 is twice as fast for both.
			app:  []Run{run(1, 50), run(2, 100), run(3, 60)},
			base: []Run{run(1, 100), run(2, 200), run(3, 100)},
			want: &Ratio{PerRound: []float64{0.5, 0.5, 0.6}, Median: 0.5, Min: 0.5, Max: 0.6},
		},
		{
			name: "unpaired rounds are left out",
			app:  []Run{run(1, 30), run(2, 40)},
			base: []Run{run(2, 20), run(3, 10)},
			want: &Ratio{PerRound: []float64{2}, Median: 2, Min: 2, Max: 2},
		},
		{
			name: "zero baseline is left out",
			app:  []Run{run(1, 30)},
			base: []Run{run(1, 0)},
			want: nil,
		},
		{name: "no baseline", app: []Run{run(1, 30)}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoundRatios(tt.app, tt.base)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("RoundRatios = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// captured returns the real bombardier result in the bombardier package's
// testdata with its mean requests per second replaced by rps.
func captured(t *testing.T, rps float64) *bombardier.Result {
	t.Helper()
	data, err := os.ReadFile("../bombardier/testdata/bombardier-ok.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bombardier.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Result
	r.RPS.Mean = rps
	return &r
}

func sampleResults(t *testing.T) *Results {
	t.Helper()
	mk := func(round int, rps float64, rss int64) Run {
		return Run{Round: round, StartedAt: time.Unix(1700000000, 0).UTC(), Load: Load{Bombardier: captured(t, rps)},
			ServerCPUSeconds: 0.5, ServerPeakRSSBytes: rss}
	}
	return &Results{
		StartedAt:  time.Unix(1700000000, 0).UTC(),
		FinishedAt: time.Unix(1700000100, 0).UTC(),
		Command:    "go run ./cmd/bench simple",
		Settings:   Settings{Mode: "interleaved", Repeats: 3, Connections: 125, Warmup: "5s", Timeout: "2s", ServerCPUs: "0", LoadCPUs: "1", Pinned: true, NodeWorkers: 1, Baseline: "vireo", Profile: "default"},
		Machine:    Machine{CPUModel: "Test CPU", Cores: 2, OS: "Debian", Kernel: "6.1", Arch: "amd64", MemTotalBytes: 4 << 30},
		Versions:   Versions{Go: "go1.23.0", Node: "v20.0.0", Express: "5.1.0", Bombardier: "v1.2.6"},
		Comparisons: []Comparison{{
			Name: "simple", Method: "GET", Path: "/api/values/5", Connections: 125, Requests: 1000000, Baseline: "vireo",
			Apps: []App{
				{Name: "vireo", Stack: "go", LinesOfCode: 12, Runs: []Run{mk(1, 100, 10<<20), mk(2, 120, 11<<20), mk(3, 90, 9<<20)}},
				{Name: "netcore", Stack: "dotnet", Skipped: "dotnet not found"},
				{Name: "expressjs", Stack: "node", LinesOfCode: 15, Runs: []Run{mk(1, 50, 40<<20), mk(2, 40, 41<<20), mk(3, 45, 42<<20)}},
				{Name: "gin", Stack: "go", Failed: "verify: body differs | see log"},
			},
		}, {
			Name: "sessions", Variant: "cookie-keeping", Method: "GET", Path: "/setget", Connections: 125, Duration: "2s", Baseline: "vireo-sessions",
			CookieMethod: "bombardier -H 'Cookie: ...'",
			Apps:         []App{{Name: "vireo-sessions", Stack: "go", Skipped: "app not found: apps/vireo-sessions"}},
		}},
	}
}

func TestSummarize(t *testing.T) {
	res := sampleResults(t)
	c := &res.Comparisons[0]
	Summarize(c)
	v, e := c.Apps[0].Summary, c.Apps[2].Summary
	if v == nil || e == nil {
		t.Fatal("measured apps have no summary")
	}
	if c.Apps[1].Summary != nil || c.Apps[3].Summary != nil {
		t.Error("skipped or failed app has a summary")
	}
	if v.RequestsPerSec != (Spread{Median: 100, Min: 90, Max: 120}) {
		t.Errorf("vireo req/s = %+v", v.RequestsPerSec)
	}
	if v.PeakRSSBytes != 11<<20 {
		t.Errorf("peak RSS = %d, want the largest run's", v.PeakRSSBytes)
	}
	if e.RatioToBaseline == nil || e.BaselineRatioToThisApp == nil {
		t.Fatal("no ratios")
	}
	// Per round: 50/100, 40/120, 45/90 -> median 0.5.
	if got := e.RatioToBaseline.Median; got != 0.5 {
		t.Errorf("ratio median = %v, want 0.5", got)
	}
	if got := e.BaselineRatioToThisApp; got.Median != 2 || got.Min != 2 || got.Max != 3 {
		t.Errorf("baseline ratio = %+v, want median 2, range 2-3", got)
	}
	if v.LatencyP99Micros != 1384 || v.TotalRequests != 2000 {
		t.Errorf("p99 %v total %v", v.LatencyP99Micros, v.TotalRequests)
	}
	if v.CPUSecondsPerRun != 0.5 || math.Abs(v.CPUMicrosPerRequest-250) > 1e-9 {
		t.Errorf("cpu %v per req %v", v.CPUSecondsPerRun, v.CPUMicrosPerRequest)
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	res := sampleResults(t)
	files, err := WriteDir(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(files.Charts) != 1 || filepath.Base(files.Charts[0]) != "simple.png" {
		t.Errorf("charts = %v, want only simple.png (sessions has no measured app)", files.Charts)
	}
	got, err := CheckDir(dir)
	if err != nil {
		t.Fatalf("CheckDir: %v", err)
	}
	if got.Schema != SchemaVersion || len(got.Comparisons) != 2 || len(got.Comparisons[0].Apps[0].Runs) != 3 {
		t.Errorf("results.json did not round-trip: %+v", got)
	}
	if got.Comparisons[0].Apps[0].Runs[1].Bombardier.Latency.Percentiles["99"] != 1384 {
		t.Error("raw bombardier figures are missing from results.json")
	}
	md, err := os.ReadFile(files.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| netcore | skipped: dotnet not found |",
		"| gin | failed: verify: body differs \\| see log |",
		"| vireo | ",
		"1 (baseline)",
		"| 0.50 (0.33–0.50) |",
		"Row ÷ vireo (req/s)",
		"| Latency (ms) |",
		"![simple: requests per second](simple.png)",
		"## sessions (cookie-keeping): GET /setget",
		"Cookies: bombardier -H 'Cookie: ...'.",
		"Express 5.1.0",
		"; .NET not found;",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
}

func TestCheckMarkdownRejects(t *testing.T) {
	res := sampleResults(t)
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
		"missing cell":  strings.Replace(good.String(), "| netcore | skipped: dotnet not found |", "| netcore |", 1),
		"skipped shown": strings.Replace(good.String(), "skipped: dotnet not found", "12 MiB/s", 1),
		"missing row":   strings.Replace(good.String(), "| expressjs |", "", 1),
		"no title":      strings.TrimPrefix(good.String(), "# "),
	}
	for name, md := range bad {
		if err := CheckMarkdown(md, res); err == nil {
			t.Errorf("%s: CheckMarkdown accepted it", name)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{formatBytes(512), "512 B"},
		{formatBytes(17962000), "17.13 MiB"},
		{formatMicros(1010), "1.01ms"},
		{formatMicros(850), "850.00µs"},
		{formatMicros(2.5e6), "2.50s"},
		{latencyMillis(1010), "1.01"},
		{latencyMillis(850), "0.850"},
		{latencyMillis(2.5e6), "2500.00"},
		{latencyMillis(0), "–"},
		{formatSeconds(8.123), "8.12s"},
		{formatSeconds(0.0465), "46ms"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestRatioCell checks the ratio cell: median and range, and the ratio of
// medians with every round's ratio where the two disagree about which app
// was faster.
func TestRatioCell(t *testing.T) {
	tests := []struct {
		name            string
		r               Ratio
		row, base, want string
	}{
		{"agree", Ratio{PerRound: []float64{1.1, 1.2, 1.3}, Median: 1.2, Min: 1.1, Max: 1.3}, "120", "100", "1.20 (1.10–1.30)"},
		{"disagree", Ratio{PerRound: []float64{0.9, 1.05, 1.1}, Median: 1.05, Min: 0.9, Max: 1.1}, "98", "100",
			"1.05 (0.90–1.10); ratio of medians 0.98; per round 0.90, 1.05, 1.10"},
		{"no baseline median", Ratio{PerRound: []float64{0.9}, Median: 0.9, Min: 0.9, Max: 0.9}, "90", "0", "0.90 (0.90–0.90)"},
	}
	for _, tt := range tests {
		var row, base float64
		fmt.Sscan(tt.row, &row)
		fmt.Sscan(tt.base, &base)
		if got := ratioCell(&tt.r, row, base); got != tt.want {
			t.Errorf("%s: ratioCell = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestQuickBanner checks that a -quick report says in its first line that
// it is a smoke test, and that a full report does not.
func TestQuickBanner(t *testing.T) {
	for _, quick := range []bool{true, false} {
		res := &Results{Settings: Settings{Quick: quick}}
		var b strings.Builder
		if err := WriteMarkdown(&b, res, nil); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(b.String(), "\n")
		if got := first == QuickBanner; got != quick {
			t.Errorf("quick=%v: first line %q", quick, first)
		}
	}
}

// TestWholeTicks checks the value axis of the charts: whole numbers, no
// exponent, no fractional labels.
func TestWholeTicks(t *testing.T) {
	for _, max := range []float64{150000, 1234567, 37} {
		labelled := 0
		for _, tick := range (wholeTicks{}).Ticks(0, max) {
			if tick.Label == "" {
				continue
			}
			labelled++
			if tick.Value != math.Trunc(tick.Value) || strings.ContainsAny(tick.Label, "e.") {
				t.Errorf("max %v: tick %v labelled %q", max, tick.Value, tick.Label)
			}
		}
		if labelled < 2 {
			t.Errorf("max %v: %d labelled ticks", max, labelled)
		}
	}
}

// TestChartMarksSkipped draws a chart with a measured, a skipped and a
// failed app: it is written (the unmeasured apps do not make it fail), and a
// comparison without any measured app gives ErrNoData.
func TestChartMarksSkipped(t *testing.T) {
	run := Run{Round: 1}
	c := &Comparison{Name: "simple", Method: "GET", Path: "/", Baseline: "vireo", Apps: []App{
		{Name: "vireo", Runs: []Run{run}, Summary: &Summary{RequestsPerSec: Spread{Median: 100, Min: 90, Max: 110}}},
		{Name: "netcore", Skipped: "dotnet not found"},
		{Name: "gin", Failed: "verify"},
	}}
	path := filepath.Join(t.TempDir(), "simple.png")
	if err := WriteChart(c, path); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("chart not written: %v", err)
	}
	c.Apps = c.Apps[1:]
	if err := WriteChart(c, path); err != ErrNoData {
		t.Errorf("no measured app: err = %v, want ErrNoData", err)
	}
}
