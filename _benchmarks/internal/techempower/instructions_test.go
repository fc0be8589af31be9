package techempower

import (
	"context"
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
			if (a.Name == Floor) != (tc.RatioToFloor == nil) {
				t.Errorf("%s %s: ratio %v", a.Name, typ, tc.RatioToFloor)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| stack | json | fortunes |", "| Vireo | ", "| net/http (floor) | ", "collector's cycles in each window", "| Vireo | 200, "} {
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
