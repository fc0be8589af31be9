package footprint

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"

	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/internal/testtool"
)

func TestFootprintDefaultsAndValidation(t *testing.T) {
	tests := []struct {
		name       string
		cfg        runner.Config
		opt        Options
		wantErr    string
		wantStarts int
		wantD      time.Duration
	}{
		{name: "full", wantStarts: DefaultFootprintStarts, wantD: DefaultFootprintDuration},
		{name: "quick", cfg: runner.Config{Quick: true}, wantStarts: quickFootprintStarts, wantD: quickFootprintDuration},
		{name: "explicit", cfg: runner.Config{Quick: true, Duration: 3 * time.Second}, opt: Options{Starts: 12},
			wantStarts: 12, wantD: 3 * time.Second},
		{name: "request count", cfg: runner.Config{Requests: 10}, wantErr: "timed"},
		{name: "constrained", cfg: runner.Config{Profile: runner.ProfileConstrained}, wantErr: "default profile"},
		{name: "negative starts", opt: Options{Starts: -1}, wantErr: "negative"},
		{name: "negative rate", opt: Options{FixedRate: -5}, wantErr: "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validate(&tt.cfg, &tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defaults(&tt.cfg, &tt.opt)
			if tt.opt.Starts != tt.wantStarts || tt.cfg.Duration != tt.wantD || tt.opt.PollInterval != DefaultPollInterval {
				t.Errorf("starts %d, duration %v, poll %v; want %d, %v, %v", tt.opt.Starts, tt.cfg.Duration, tt.opt.PollInterval,
					tt.wantStarts, tt.wantD, DefaultPollInterval)
			}
		})
	}
}

// TestPoll plays an app that answers wrongly before it is ready: only the
// expected status and body end the polling.
func TestPoll(t *testing.T) {
	ep := benchtest.Endpoint{Method: http.MethodGet, Path: "/api/values/5", Status: 200, Body: []byte("value")}
	tests := []struct {
		name      string
		wrong     int64 // answers before the right one
		never     bool  // never the right answer
		wantCalls int64
	}{
		{name: "at once", wrong: 0, wantCalls: 1},
		{name: "503 first", wrong: 3, wantCalls: 4},
		{name: "never", never: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := calls.Add(1)
				if tt.never || n <= tt.wrong {
					http.Error(w, "starting", http.StatusServiceUnavailable)
					return
				}
				w.Write([]byte("value"))
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			t0 := time.Now()
			r := poll(ctx, srv.URL+ep.Path, ep, time.Millisecond, t0)
			if tt.never {
				if r.err == nil || !strings.Contains(r.err.Error(), "status 503") {
					t.Fatalf("err = %v, want a timeout naming the last answer", r.err)
				}
				return
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("%d requests, want %d", got, tt.wantCalls)
			}
			if r.at <= 0 || r.at > time.Since(t0) {
				t.Errorf("first response at %v, outside (0, %v]", r.at, time.Since(t0))
			}
		})
	}
}

type nopCloser struct{ strings.Builder }

func (*nopCloser) Close() error { return nil }

func TestLineClock(t *testing.T) {
	want := benchtest.ReadinessLines(5000)
	tests := []struct {
		name      string
		lines     []string
		wantReady bool
	}{
		{"both", []string{"starting", want[0], want[1]}, true},
		{"with CR and a line after", []string{want[0] + "\r", want[1], "Runtime: x"}, true},
		{"out of order", []string{want[1], want[0]}, false},
		{"only the first", []string{want[0]}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &nopCloser{}
			c := &lineClock{w: log, want: want}
			before := time.Now()
			for _, l := range tt.lines {
				if _, err := c.Write([]byte(l + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			at, ok := c.readyAt()
			if ok != tt.wantReady {
				t.Fatalf("ready %v, want %v", ok, tt.wantReady)
			}
			if ok && (at.Before(before) || at.After(time.Now())) {
				t.Errorf("stamped %v, outside the writes", at)
			}
			if got := log.String(); got != strings.Join(tt.lines, "\n")+"\n" {
				t.Errorf("log %q, want every line", got)
			}
		})
	}
}

// TestQuickFootprint runs `bench footprint -quick` on the plain net/http
// app, Express (one process and the cluster) where node exists, netcore-aot
// (measured, or skipped with the reason) and the Vireo sessions app: every
// app that ran has its cold starts, sizes, memory and both latency runs, and
// the report is well formed.
func TestQuickFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	root, _ := benchtest.MustContract(t)
	apps := []string{"nethttp", "netcore-aot", "vireo-sessions"}
	_, npmErr := testtool.Want(t, "npm")
	_, nodeErr := testtool.Want(t, "node", "nodejs")
	withNode := npmErr == nil && nodeErr == nil
	if withNode {
		apps = append(apps, "expressjs")
	}
	out := t.TempDir()
	cfg := runner.Config{Root: root, OutDir: out, Comparisons: []string{"simple", "sessions"}, Apps: apps, Quick: true,
		Log: &benchtest.TestLog{T: t}, Command: "go test (quick footprint)"}
	res, files, err := Run(context.Background(), cfg, Options{Starts: 2})
	if err != nil {
		t.Fatalf("Footprint: %v", err)
	}
	if _, err := report.CheckDir(out); err != nil {
		t.Fatalf("report not well formed: %v", err)
	}
	if !res.Measures(report.MeasureFootprint) || res.Settings.Footprint == nil || res.Settings.Footprint.Starts != 2 {
		t.Fatalf("settings %+v", res.Settings)
	}
	if len(res.Comparisons) != 2 || res.Comparisons[1].Variant != "" {
		t.Fatalf("comparisons %+v, want simple and sessions (cookie-less, once)", res.Comparisons)
	}
	measured := map[string]bool{}
	for _, c := range res.Comparisons {
		for _, a := range c.Apps {
			if a.Skipped != "" {
				if a.Name != "netcore-aot" {
					t.Errorf("%s skipped: %s", a.Name, a.Skipped)
				}
				continue
			}
			f := a.Footprint
			if !a.FootprintMeasured() || len(f.ColdStart.FirstResponseMillis) != 2 || len(f.ColdStart.ReadyMillis) != 2 ||
				len(f.RSSAfterStartBytes) != 2 || f.Deploy.Bytes <= 0 || f.RSSAfterWarmupBytes <= 0 ||
				f.LowConcurrency == nil || f.FixedRate == nil || f.FixedRate.Rate <= 0 {
				t.Errorf("%s: incomplete footprint %+v", a.Name, f)
				continue
			}
			if f.ColdStart.FirstResponse.Median <= 0 || f.LowConcurrency.Connections != res.Settings.Footprint.LowConnections {
				t.Errorf("%s: cold start %+v, low-concurrency run %+v", a.Name, f.ColdStart, f.LowConcurrency)
			}
			if strings.HasPrefix(a.Name, "expressjs") && f.Deploy.Runtime == "" {
				t.Errorf("%s: no runtime stated apart", a.Name)
			}
			measured[a.Name] = true
		}
	}
	want := []string{"nethttp", "vireo-sessions"}
	if withNode {
		want = append(want, "expressjs", clusterName("expressjs"))
	}
	for _, a := range want {
		if !measured[a] {
			t.Errorf("%s not measured", a)
		}
	}
	md, err := os.ReadFile(files.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"quick smoke test: not to be cited", "Start-up and footprint", "Latency when not saturated", "simple-cold-start.png"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("RESULTS.md lacks %q", s)
		}
	}
}
