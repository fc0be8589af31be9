package techempower

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
	"github.com/vireo-go/vireo/_benchmarks/internal/wrk"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestDefaultLevels checks the sweeps against TechEmpower's: 16..512
// connections, plaintext 256..4096 pipelined 16 deep, queries and updates
// 1..20 queries at 512 connections.
func TestDefaultLevels(t *testing.T) {
	if l := DefaultLevels(tfb.JSON); l.N() != 6 || l.Max() != 512 || l.Pipeline != 0 {
		t.Errorf("json levels %+v", l)
	}
	if l := DefaultLevels(tfb.Plaintext); l.N() != 3 || l.Max() != 4096 || l.Pipeline != 16 {
		t.Errorf("plaintext levels %+v", l)
	}
	l := DefaultLevels(tfb.Updates)
	if c, q := l.Level(4); l.N() != 5 || c != 512 || q != 20 {
		t.Errorf("updates levels %+v: level 4 = %d connections, %d queries", l, c, q)
	}
}

// TestFinish checks the derivations on made-up samples: medians and
// ranges over rounds, the best level, the ratio to the floor with its
// per-round range, Vireo's quotient with its rounds ahead, and a type
// with an error left unranked.
func TestFinish(t *testing.T) {
	r := &Report{Types: []tfb.Type{tfb.JSON}}
	floor, v := r.addApp(App{Name: Floor}), r.addApp(App{Name: "tfb-vireo"})
	add := func(a *AppResult, level, conns int, rps ...float64) {
		for _, x := range rps {
			res := &wrk.Result{Requests: int64(x), DurationUS: 1e6}
			a.record(tfb.JSON, level, conns, 0, 0, (&report.Load{Wrk: res}).Figures())
		}
	}
	add(floor, 0, 16, 100, 110, 90)
	add(floor, 1, 32, 200, 220, 180)
	add(v, 0, 16, 150, 150, 150)
	add(v, 1, 32, 190, 200, 210)
	r.finish()
	fl := floor.Tests[tfb.JSON]
	if fl.Best != 1 || fl.Levels[1].RequestsPerSec != (Spread{200, 180, 220}) {
		t.Errorf("floor best %d %+v", fl.Best, fl.Levels[1].RequestsPerSec)
	}
	got := r.Ratios[tfb.JSON]["tfb-vireo"]
	if got.Median != 1 || got.Min != 200.0/220 || got.Max != 210.0/180 {
		t.Errorf("ratio %+v", got)
	}
	over := r.VireoOver[tfb.JSON][Floor]
	if over.Spread != got || over.Ahead != 1 || over.Rounds != 3 {
		t.Errorf("Vireo ÷ floor %+v, want %+v faster in 1 of 3 rounds", over, got)
	}
	if _, ok := r.VireoOver[tfb.JSON]["tfb-vireo"]; ok {
		t.Error("Vireo divided by itself")
	}
	// Every level paired by round: 150/100, 150/110, 150/90, 190/200,
	// 200/220, 210/180; sorted 0.909 0.95 1.167 1.364 1.5 1.667.
	p := over.Paired
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if p.Pairs != 6 || p.Ahead != 4 || !near(p.Median, (210.0/180+150.0/110)/2) ||
		!near(p.Q1, 0.95+0.25*(210.0/180-0.95)) || !near(p.Q3, 150.0/110+0.75*(1.5-150.0/110)) {
		t.Errorf("paired %+v", p)
	}
	if md := r.markdown(nil); !strings.Contains(md, "| 1.00 (0.91–1.17) | 1 of 3 rounds | 1.27 (1.00–1.47) | 4 of 6 pairs |") {
		t.Errorf("the report has no Vireo ÷ floor row:\n%s", md)
	}
	v.Tests[tfb.JSON].Levels[0].Samples[0].Non2xx = 1
	r.finish()
	if v.ranked(tfb.JSON) || !strings.Contains(v.Tests[tfb.JSON].Failed, "16 connections") {
		t.Errorf("a non-2xx left the type ranked: %+v", v.Tests[tfb.JSON])
	}
	if _, ok := r.Ratios[tfb.JSON]["tfb-vireo"]; ok {
		t.Error("a failed type still has a ratio")
	}
	if _, ok := r.VireoOver[tfb.JSON][Floor]; ok {
		t.Error("a failed type still has Vireo's quotients")
	}
}

// TestRunShort runs the whole pipeline on two Go stacks for real, with
// one short level per type: PostgreSQL started and stopped, the verifier,
// wrk (pipelined for plaintext), the report with its tables and charts.
// It proves the pipeline works; its figures mean nothing.
// TestPairedSkipsUnlikeLevels: levels pair by index only where they are
// the same level (connections and queries), and a failed sample (0 req/s)
// pairs with nothing.
func TestPairedSkipsUnlikeLevels(t *testing.T) {
	lv := func(conns, queries int, rps ...float64) *LevelResult {
		l := &LevelResult{Connections: conns, Queries: queries}
		for _, x := range rps {
			l.Samples = append(l.Samples, Sample{RequestsPerSec: x})
		}
		return l
	}
	a := &TypeResult{Levels: []*LevelResult{lv(512, 1, 30, 10), lv(512, 5, 20, 0), lv(512, 10, 10)}}
	b := &TypeResult{Levels: []*LevelResult{lv(512, 1, 10, 20), lv(512, 5, 10, 10), lv(256, 10, 10)}}
	if got, want := paired(a, b), (Paired{Median: 2, Q1: 1.25, Q3: 2.5, Ahead: 2, Pairs: 3}); got != want {
		t.Errorf("paired %+v, want %+v", got, want)
	}
	if got := paired(a, &TypeResult{}); got != (Paired{}) {
		t.Errorf("no pairs: %+v", got)
	}
}

func TestRunShort(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	testtool.Require(t, "wrk")
	testtool.Require(t, "postgres", "postgresql")
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var log strings.Builder
	cfg := Config{
		Root: root, OutDir: out, Apps: []string{"tfb-nethttp", "tfb-vireo"},
		Rounds: 1, Duration: 2 * time.Second, Primer: time.Second, VerifyConcurrency: 16, Pool: 8,
		Levels: map[tfb.Type]Levels{
			tfb.Plaintext: {Connections: []int{32}, Pipeline: 16},
			tfb.JSON:      {Connections: []int{16}},
			tfb.DB:        {Connections: []int{16}},
			tfb.Fortunes:  {Connections: []int{16}},
			tfb.Queries:   {Connections: []int{16}, Queries: []int{1, 5}},
			tfb.Updates:   {Connections: []int{16}, Queries: []int{5}},
		},
		Command: "test",
		Log:     &log,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rep.Apps {
		if a.Status != "" {
			t.Fatalf("%s: %s", a.Name, a.Status)
		}
		for _, typ := range tfb.Types {
			if !a.ranked(typ) || a.Tests[typ].Levels[a.Tests[typ].Best].RequestsPerSec.Median <= 0 {
				t.Errorf("%s %s: no figure: %+v", a.Name, typ, a.Tests[typ])
			}
		}
		if a.LinesOfCode == 0 {
			t.Errorf("%s: no lines of code", a.Name)
		}
	}
	if l := rep.app("tfb-vireo").Tests[tfb.Plaintext].Levels[0]; l.Pipeline != 16 {
		t.Errorf("plaintext ran with pipeline %d", l.Pipeline)
	}
	if _, ok := rep.Ratios[tfb.Fortunes]["tfb-vireo"]; !ok {
		t.Error("no ratio for fortunes")
	}
	if q := rep.VireoOver[tfb.Fortunes][Floor]; q.Rounds != 1 {
		t.Errorf("Vireo ÷ floor on fortunes: %+v", q)
	}
	if !rep.Finished.After(rep.Started) {
		t.Errorf("finished %v, started %v", rep.Finished, rep.Started)
	}
	// The apps take turns at each level: both at 1 query, then both at 5.
	var turns []string
	for _, line := range strings.Split(log.String(), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[1] == "queries" {
			turns = append(turns, f[0]+" "+f[3])
		}
	}
	if got, want := strings.Join(turns, ", "), "tfb-nethttp q=1, tfb-vireo q=1, tfb-nethttp q=5, tfb-vireo q=5"; got != want {
		t.Errorf("queries levels ran in the order %q, want %q\n%s", got, want, log.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## fortunes: `GET /fortunes`", "| Vireo | 16 connections |", "![updates](tfb-updates.png)", "PostgreSQL 1", "### fortunes (÷ node:http, best level)", "| Vireo | not measured |", "Vireo ÷ each stack", " of 1 rounds |", "the apps taking turns at each level"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
	for _, typ := range tfb.Types {
		if _, err := os.Stat(filepath.Join(out, "tfb-"+string(typ)+".png")); err != nil {
			t.Error(err)
		}
	}
}

// TestRound23 checks the embedded Round 23 figures: every entry names a
// known type, framework and source, every type has its divisor, and a
// ratio comes out as the quotient of the two figures.
func TestRound23(t *testing.T) {
	r23, err := LoadRound23()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, a := range Apps {
		known[a.R23] = true
	}
	for _, e := range r23.Entries {
		if !containsType(e.Type) || !known[e.Framework] || r23.Sources[e.Source] == "" || e.RPS <= 0 {
			t.Errorf("bad entry %+v", e)
		}
	}
	for _, typ := range tfb.Types {
		if _, ok := r23.entry(typ, Round23Divisor(typ)); !ok {
			t.Errorf("%s: no figure for the divisor %s", typ, Round23Divisor(typ))
		}
	}
	if x, ok := r23.Ratio(tfb.Fortunes, "aspnetcore"); !ok || x != 741878.0/283446 {
		t.Errorf("fortunes aspnetcore ÷ nodejs = %v, %v", x, ok)
	}
	if _, ok := r23.Ratio(tfb.Fortunes, "gin"); ok {
		t.Error("a ratio without a Round 23 figure")
	}
}

func containsType(t tfb.Type) bool {
	for _, u := range tfb.Types {
		if u == t {
			return true
		}
	}
	return false
}

// TestRederive writes a run's report, rewrites it from its results.json
// alone and checks that the figures, the finish time and the tables come
// back; a results.json of another schema is refused.
func TestRederive(t *testing.T) {
	dir := t.TempDir()
	r := &Report{runHead: runHead{Schema: Schema, Finished: time.Date(2026, 12, 3, 23, 0, 0, 0, time.UTC)}, Types: []tfb.Type{tfb.JSON}, Rounds: 2}
	floor, v := r.addApp(App{Name: Floor, Label: "net/http (floor)"}), r.addApp(App{Name: "tfb-vireo", Label: "Vireo"})
	for i, x := range []float64{100, 120} {
		for _, a := range []*AppResult{floor, v} {
			res := &wrk.Result{Requests: int64(x), DurationUS: 1e6}
			if a == v {
				res.Requests += int64(10 * (1 - 2*i)) // 110 and 110: faster in round 1 only
			}
			a.record(tfb.JSON, 0, 16, 0, 0, (&report.Load{Wrk: res}).Figures())
		}
	}
	if err := r.write(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "RESULTS.md")); err != nil {
		t.Fatal(err)
	}
	got, err := Rederive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Finished.Equal(r.Finished) {
		t.Errorf("finished %v, want %v", got.Finished, r.Finished)
	}
	if q := got.VireoOver[tfb.JSON][Floor]; q.Ahead != 1 || q.Rounds != 2 || q.Median != 1 {
		t.Errorf("Vireo ÷ floor %+v", q)
	}
	md, err := os.ReadFile(filepath.Join(dir, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| net/http (floor) | 1.00 (0.92–1.10) | 1 of 2 rounds |") {
		t.Errorf("RESULTS.md:\n%s", md)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"schema":"vireo-bench-tfb/0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Rederive(dir); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("another schema: %v", err)
	}
}
