package report

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
)

// footprintResults is a footprint report with a measured Go app, a measured
// Node cluster row, a skipped and a failed app.
func footprintResults() *Results {
	lat := func(c, rate int, p50, p90, p99 int64) *LatencyRun {
		return NewLatencyRun(c, rate, time.Second, bombardier.Result{Req2xx: 1000, TimeTakenSeconds: 1,
			RPS:     bombardier.RPS{Mean: 1000},
			Latency: bombardier.Latency{Max: 9000, Percentiles: map[string]int64{"50": p50, "90": p90, "99": p99}}})
	}
	return &Results{
		StartedAt: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), FinishedAt: time.Date(2026, 11, 30, 12, 5, 0, 0, time.UTC),
		Command: "go run ./cmd/bench footprint simple",
		Settings: Settings{Measure: MeasureFootprint, ServerCPUs: "0", LoadCPUs: "1", Pinned: true,
			Footprint: &FootprintSettings{Starts: 3, PollInterval: "1ms", Warmup: "5s", Duration: "10s", LowConnections: 1,
				RateConnections: 125, RateNote: "half the slowest app's request rate during its warm-up", NodeClusterWorkers: 2}},
		Comparisons: []Comparison{{Name: "simple", Method: "GET", Path: "/api/values/5", Baseline: "nethttp", Apps: []App{
			{Name: "nethttp", Stack: "go", Footprint: &Footprint{
				Deploy:              Deploy{What: "Go binary", Bytes: 8 << 20, Files: 1},
				ColdStart:           ColdStart{FirstResponseMillis: []float64{4.4, 6.3, 4.2}, ReadyMillis: []float64{3.9, 5.9, 2.9}},
				RSSAfterStartBytes:  []int64{7 << 20, 7 << 20, 8 << 20},
				RSSAfterWarmupBytes: 13 << 20, WarmupRequestsPerSec: 39000,
				LowConcurrency: lat(1, 0, 52, 76, 123), FixedRate: lat(125, 2322, 2150, 4230, 7920)}},
			{Name: "expressjs (cluster)", Stack: "node", Footprint: &Footprint{
				Deploy:             Deploy{What: "app with node_modules", Bytes: 2 << 20, Files: 400, Runtime: "node v20 executable", RuntimeBytes: 94 << 20},
				ColdStart:          ColdStart{FirstResponseMillis: []float64{788, 423, 1958}, ReadyMillis: []float64{784, 420, 1957}},
				RSSAfterStartBytes: []int64{169 << 20, 169 << 20, 168 << 20},
				LowConcurrency:     lat(1, 0, 64, 111, 3730)}},
			{Name: "netcore-aot", Stack: "dotnet", Skipped: "Native AOT needs clang, which is not installed"},
			{Name: "gin", Stack: "go", Failed: "start 1"},
		}}},
	}
}

func TestWriteFootprintReport(t *testing.T) {
	dir := t.TempDir()
	files, err := WriteDir(dir, footprintResults())
	if err != nil {
		t.Fatal(err)
	}
	if len(files.Charts) != 1 || filepath.Base(files.Charts[0]) != "simple-cold-start.png" {
		t.Errorf("charts %q, want simple-cold-start.png", files.Charts)
	}
	res, err := CheckDir(dir)
	if err != nil {
		t.Fatalf("CheckDir: %v", err)
	}
	fp := res.Comparisons[0].Apps[0].Footprint
	if fp.ColdStart.FirstResponse != (Spread{Median: 4.4, Min: 4.2, Max: 6.3}) || fp.ColdStart.Ready.Median != 3.9 {
		t.Errorf("cold start summary %+v", fp.ColdStart)
	}
	md, err := os.ReadFile(files.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Vireo benchmark results: start-up and footprint\n",
		"Start-up and footprint; fixed rate 2322 req/s.",
		"| net/http (floor) | 4.4ms (4.2ms–6.3ms) | 3.9ms | 8.00 MiB (Go binary) | none | 7.00 MiB | 13.00 MiB | 52.00µs / 123.00µs | 2.15ms / 7.92ms |",
		"| expressjs (cluster) | 788ms (423ms–1.96s) | 784ms | 2.00 MiB (app with node_modules) | node v20 executable, 94.00 MiB |",
		"| net/http (floor) | -c 125 -r 2322, 1s | 2.15ms | 4.23ms | 7.92ms | 9.00ms | 1000 |",
		"| netcore-aot | skipped: Native AOT needs clang, which is not installed |",
		"| gin | failed: start 1 |",
		"![simple: cold start](simple-cold-start.png)",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
}

func TestQuickFootprintTitle(t *testing.T) {
	res := footprintResults()
	res.Settings.Quick = true
	var b strings.Builder
	if err := WriteMarkdown(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	if first != QuickBanner {
		t.Errorf("first line %q is not the smoke-test banner", first)
	}
	if err := CheckMarkdown(b.String(), res); err != nil {
		t.Errorf("quick report rejected: %v", err)
	}
	if err := CheckMarkdown(strings.TrimPrefix(b.String(), QuickBanner+"\n\n"), res); err == nil {
		t.Error("quick report without the banner accepted")
	}
}

// TestCheckFootprintMarkdown breaks a good report in the ways the check
// must catch.
func TestCheckFootprintMarkdown(t *testing.T) {
	res := footprintResults()
	for i := range res.Comparisons[0].Apps {
		if fp := res.Comparisons[0].Apps[i].Footprint; fp != nil {
			fp.Summarize()
		}
	}
	var good strings.Builder
	if err := WriteMarkdown(&good, res, nil); err != nil {
		t.Fatal(err)
	}
	if err := CheckMarkdown(good.String(), res); err != nil {
		t.Fatalf("good report rejected: %v", err)
	}
	tests := map[string]string{
		"missing row":      strings.Replace(good.String(), "| gin | failed: start 1 |", "", 1),
		"skip reason lost": strings.Replace(good.String(), "| netcore-aot | skipped: Native", "| netcore-aot | Native", 1),
		"missing cell":     strings.Replace(good.String(), "| gin | failed: start 1 | – |", "| gin | failed: start 1 |", 1),
		"no figures":       strings.Replace(good.String(), "| net/http (floor) | 4.4ms (4.2ms–6.3ms) |", "| net/http (floor) | – |", 1),
		"table dropped":    good.String()[:strings.Index(good.String(), "| Name | Latency when not saturated")],
	}
	for name, md := range tests {
		t.Run(name, func(t *testing.T) {
			if md == good.String() {
				t.Fatal("the test did not change the report")
			}
			if err := CheckMarkdown(md, res); err == nil {
				t.Error("broken report accepted")
			}
		})
	}
}

func TestFormatMillis(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{4.44, "4.4ms"},
		{99.94, "99.9ms"},
		{107.2, "107ms"},
		{1957.8, "1.96s"},
	}
	for _, tt := range tests {
		if got := formatMillis(tt.ms); got != tt.want {
			t.Errorf("formatMillis(%v) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestWriteColdStartChart(t *testing.T) {
	measured := footprintResults().Comparisons[0]
	skippedOnly := Comparison{Name: "simple", Apps: []App{{Name: "netcore-aot", Skipped: "no clang"}}}
	zero := footprintResults().Comparisons[0]
	zero.Apps = zero.Apps[:1]
	zero.Apps[0].Footprint.ColdStart.FirstResponseMillis = []float64{0}
	tests := []struct {
		name    string
		c       Comparison
		wantErr bool
		noData  bool
	}{
		{name: "measured, skipped and failed apps", c: measured},
		{name: "nothing measured", c: skippedOnly, wantErr: true, noData: true},
		{name: "a zero time has no place on a log axis", c: zero, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.c.Apps {
				if fp := tt.c.Apps[i].Footprint; fp != nil {
					fp.Summarize()
				}
			}
			path := filepath.Join(t.TempDir(), "cold-start.png")
			err := WriteColdStartChart(&tt.c, path)
			if (err != nil) != tt.wantErr || errors.Is(err, ErrNoData) != tt.noData {
				t.Fatalf("err = %v, want error %v (no data %v)", err, tt.wantErr, tt.noData)
			}
			if err == nil {
				if err := checkPNG(path); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
