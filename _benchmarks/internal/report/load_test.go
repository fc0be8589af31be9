package report

import (
	"os"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/h2load"
)

// TestLoadFigures reads the figures of an h2load run (real output and its
// per-request log) the way the summaries do.
func TestLoadFigures(t *testing.T) {
	out, err := os.ReadFile("../h2load/testdata/h2-m4.txt")
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile("../h2load/testdata/h2-m4.log")
	if err != nil {
		t.Fatal(err)
	}
	h, err := h2load.Parse(out, log)
	if err != nil {
		t.Fatal(err)
	}
	l := Load{H2load: h}
	f := l.Figures()
	if l.Generator() != "h2load" || f.Requests != 2000 || f.OK != 2000 || f.Errors != 0 || f.RequestsPerSec != h.RequestsPerSec {
		t.Errorf("figures %+v", f)
	}
	if p99, ok := f.Percentile(99); !ok || p99 != h.Percentiles["99"] {
		t.Errorf("p99 %v %v", p99, ok)
	}
	s := summarizeApp([]Run{{Round: 1, Load: l}})
	if s.RequestsPerSec.Median != h.RequestsPerSec || s.LatencyP99Micros != h.Percentiles["99"] || s.TotalRequests != 2000 {
		t.Errorf("summary %+v", s)
	}
	if (&Load{}).Generator() != "" {
		t.Error("an empty Load names a generator")
	}
}
