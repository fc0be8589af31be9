package load

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestWrkGenerator runs wrk through the Generator interface for a second,
// pipelined, and reads its figures back generator-neutrally: responses,
// 2xx, non-2xx, the percentiles, the generator's name.
func TestWrkGenerator(t *testing.T) {
	testtool.Require(t, "wrk")
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "Hello, World!")
	}))
	defer s.Close()
	g, err := New(WrkName, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := g.Prepare(context.Background(), root); err != nil || v == "" {
		t.Fatalf("Prepare = %q, %v", v, err)
	}
	if _, err := g.Run(context.Background(), Target{URL: s.URL}, Options{Connections: 2, Requests: 100}); err == nil {
		t.Error("a request count was accepted; wrk runs for a duration")
	}
	l, err := g.Run(context.Background(), Target{URL: s.URL + "/plaintext", Headers: []string{"Accept: text/plain"}}, Options{Connections: 4, Duration: time.Second, Pipeline: 4})
	if err != nil {
		t.Fatal(err)
	}
	f := l.Figures()
	if l.Generator() != WrkName || f.Requests == 0 || f.OK != f.Requests || f.NonSuccess != 0 || f.RequestsPerSec <= 0 {
		t.Errorf("figures %+v from %s", f, l.Generator())
	}
	if p99, ok := f.Percentile(99); !ok || p99 <= 0 {
		t.Errorf("p99 = %v, %v", p99, ok)
	}
}
