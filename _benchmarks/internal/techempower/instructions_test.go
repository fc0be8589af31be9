package techempower

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestCountInstructionsShort counts two apps on two types with few
// requests, under a real callgrind against a real PostgreSQL: every count
// is a plausible figure, the floor's ratio is 1 by definition and the
// other's is set, the Node app in the list is left out, and the report
// names every count.
func TestCountInstructionsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	testtool.Require(t, "valgrind")
	testtool.Require(t, "postgres", "postgresql")
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cfg := CountConfig{
		Config: Config{Root: root, OutDir: out, Apps: []string{"tfb-nethttp", "tfb-vireo", "tfb-nodehttp"},
			Types: []tfb.Type{tfb.JSON, tfb.Fortunes}, Pool: 4, Command: "test"},
		Requests: 200, WarmupRequests: 50, Connections: 4,
	}
	rep, err := CountInstructions(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Apps) != 2 {
		t.Fatalf("%d apps counted, want the 2 Go apps", len(rep.Apps))
	}
	for _, a := range rep.Apps {
		for _, typ := range cfg.Types {
			tc := a.Types[typ]
			if tc == nil || tc.Failed != "" || tc.Requests != 200 || tc.PerRequest < 5000 || tc.PerRequest > 5e6 {
				t.Errorf("%s %s: implausible count %+v", a.Name, typ, tc)
				continue
			}
			if tc.Runtime <= 0 || tc.Runtime >= tc.Total {
				t.Errorf("%s %s: runtime's part %d of %d", a.Name, typ, tc.Runtime, tc.Total)
			}
			if (a.Name == Floor) != (tc.RatioToFloor == nil) {
				t.Errorf("%s %s: ratio %v", a.Name, typ, tc.RatioToFloor)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| stack | json | fortunes |", "| Vireo | ", "| net/http (floor) | ", "collector's cycles in each window", "| Vireo | 200, ", "outside the Go runtime"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "callgrind", "tfb-vireo-fortunes.callgrind.out")); err != nil {
		t.Errorf("the window's dump was not kept: %v", err)
	}
}

// TestCountRequests checks the windows' sizes: -n wins for every type;
// without it each type counts enough requests for a window of about two
// billion instructions at the per-request counts of the committed runs.
func TestCountRequests(t *testing.T) {
	perRequest := map[tfb.Type]float64{ // Vireo, results/2026-12-04T21-31-30Z-tfb-instructions
		tfb.Plaintext: 51596, tfb.JSON: 51233, tfb.DB: 72906, tfb.Queries: 384576, tfb.Fortunes: 350260, tfb.Updates: 421990,
	}
	for typ, per := range perRequest {
		if n := (&CountConfig{Requests: 300}).requests(typ); n != 300 {
			t.Errorf("%s: -n 300 counts %d", typ, n)
		}
		n := (&CountConfig{}).requests(typ)
		if window := per * float64(n); window < 1.5e9 || window > 2.5e9 {
			t.Errorf("%s: %d requests make a window of %.2g instructions, want about 2e9", typ, n, window)
		}
	}
}

// TestInstructionsMarkdownCycles checks that the report gives each
// window's requests and collector cycles, and leaves a failed type blank.
func TestInstructionsMarkdownCycles(t *testing.T) {
	r := &InstructionsReport{Types: []tfb.Type{tfb.Plaintext, tfb.DB}, Apps: []*AppCount{{
		Name: "tfb-vireo", Label: "Vireo", Types: map[tfb.Type]*TypeCount{
			tfb.Plaintext: {Requests: 40000, Total: 2e9, PerRequest: 50000, GCCycles: 23},
			tfb.DB:        {Failed: "3 of 5 requests answered 2xx"},
		},
	}}}
	md := r.markdown()
	for _, want := range []string{"the counted requests of the second table", "| Vireo | 40,000, 23 |  |"} {
		if !strings.Contains(md, want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
}

// TestGoRuntime checks which function names of a dump count as the Go
// runtime's.
func TestGoRuntime(t *testing.T) {
	for fn, want := range map[string]bool{
		"runtime.mallocgc":                                       true,
		"runtime.mallocgcSmallScanNoHeader'2":                    true,
		"internal/runtime/maps.(*Map).getWithoutKeySmallFastStr": true,
		"gcWriteBarrier":                                         true,
		"aeshashbody":                                            true,
		"gogo":                                                   true,
		"indexbytebody":                                          false, // internal/bytealg, for strings and bytes
		"net/http.(*conn).serve":                                 false,
		"github.com/jackc/pgx/v5.(*Conn).sendBatch'2":            false,
		"main.worlds":                                            false,
		"runtimes.example":                                       false,
		"malloc":                                                 false,
	} {
		if got := goRuntime(fn); got != want {
			t.Errorf("goRuntime(%q) = %v, want %v", fn, got, want)
		}
	}
}

// TestInstructionsMarkdownOutsideRuntime checks the third table: each
// window's instructions per request outside the runtime and its ratio to
// the floor's, blank where the window was not split (a run made before the
// split was counted has no such table at all).
func TestInstructionsMarkdownOutsideRuntime(t *testing.T) {
	r := &InstructionsReport{Types: []tfb.Type{tfb.Queries, tfb.Updates}, Apps: []*AppCount{
		{Name: "tfb-vireo", Label: "Vireo", Types: map[tfb.Type]*TypeCount{
			tfb.Queries: {Requests: 100, Total: 37_000_000, PerRequest: 370000, Runtime: 24_100_000},
			tfb.Updates: {Requests: 100, Total: 41_000_000, PerRequest: 410000},
		}},
		{Name: Floor, Label: "net/http (floor)", Types: map[tfb.Type]*TypeCount{
			tfb.Queries: {Requests: 100, Total: 38_000_000, PerRequest: 380000, Runtime: 25_000_000},
			tfb.Updates: {Requests: 100, Total: 42_000_000, PerRequest: 420000, Runtime: 26_000_000},
		}},
	}}
	md := r.markdown()
	for _, want := range []string{"outside the Go runtime", "| Vireo | 129,000 (0.992) |  |", "| net/http (floor) | 130,000 (1) | 160,000 (1) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
	for _, a := range r.Apps {
		for _, tc := range a.Types {
			tc.Runtime = 0
		}
	}
	if md := r.markdown(); strings.Contains(md, "outside the Go runtime") {
		t.Errorf("a run without split windows has the table:\n%s", md)
	}
}

// TestRederiveInstructions rederives a run from its kept window dumps: a
// window whose dump is there gets its cycles and runtime's part, one
// without a dump stays as it was, and a dump that is not the window's
// (its total differs) is an error.
func TestRederiveInstructions(t *testing.T) {
	dir := t.TempDir()
	dump := func(name string, total int) {
		t.Helper()
		s := fmt.Sprintf("# callgrind format\nversion: 1\npid: 7\nevents: Ir\npart: 1\ndesc: Timerange: Basic block 5 - 9\n"+
			"fn=(1) runtime.gcMarkTermination\n1 %d\nfn=(2) main.handler\n1 700\ncfn=(1)\ncalls=3 1\n1 %d\ntotals: %d\n", total-700, total-700, total)
		if err := os.WriteFile(filepath.Join(dir, "callgrind", name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "callgrind"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &InstructionsReport{runHead: runHead{Schema: InstructionsSchema}, Types: []tfb.Type{tfb.Queries, tfb.Updates}, Apps: []*AppCount{
		{Name: "tfb-vireo", Label: "Vireo", Types: map[tfb.Type]*TypeCount{
			tfb.Queries: {Requests: 10, Total: 3000, PerRequest: 300},
			tfb.Updates: {Requests: 10, Total: 4000, PerRequest: 400, GCCycles: 2},
		}},
	}}
	if err := r.write(dir); err != nil {
		t.Fatal(err)
	}
	dump("tfb-vireo-queries.callgrind.out", 3000)
	got, err := RederiveInstructions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if q := got.Apps[0].Types[tfb.Queries]; q.Runtime != 2300 || q.GCCycles != 3 {
		t.Errorf("queries rederived as %+v, want runtime 2300 and 3 cycles", q)
	}
	if u := got.Apps[0].Types[tfb.Updates]; u.Runtime != 0 || u.GCCycles != 2 {
		t.Errorf("updates without a dump became %+v", u)
	}
	md, err := os.ReadFile(filepath.Join(dir, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| Vireo | 70 |  |") {
		t.Errorf("RESULTS.md lacks the rederived split:\n%s", md)
	}
	dump("tfb-vireo-updates.callgrind.out", 3999)
	if _, err := RederiveInstructions(dir); err == nil || !strings.Contains(err.Error(), "not the window's 4000") {
		t.Errorf("a dump of another window: %v", err)
	}
}
