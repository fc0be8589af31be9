package wrk

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestArgs checks the arguments against TechEmpower's scripts: the
// headers, keep-alive, --latency, an 8s timeout, threads bounded by
// the connections and the CPUs.
func TestArgs(t *testing.T) {
	got := Args("http://127.0.0.1:1/json", "s.lua", Options{Connections: 4, CPUs: 8, Duration: 15 * time.Second, Headers: []string{"Accept: application/json"}})
	want := []string{"-H", "Accept: application/json", "-H", "Connection: keep-alive", "--latency", "-d", "15s", "-c", "4", "--timeout", "8s", "-t", "4", "-s", "s.lua", "http://127.0.0.1:1/json"}
	if !slices.Equal(got, want) {
		t.Errorf("Args = %q\nwant  %q", got, want)
	}
	if got := Args("u", "s", Options{Connections: 512, CPUs: 1, Duration: time.Second}); got[slices.Index(got, "-t")+1] != "1" {
		t.Errorf("threads not bounded by the CPUs: %q", got)
	}
}

// TestRunPipelined runs the real wrk for a second against a server that
// counts requests and answers one in ten with a 500: with pipelining depth
// 16 the responses come back in batches, the count of responses matches
// the server's, and the 500s are counted as status errors.
func TestRunPipelined(t *testing.T) {
	path := testtool.Require(t, "wrk")
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	var served atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := served.Add(1)
		if r.Header.Get("Accept") != "text/plain" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		if n%10 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
		io.WriteString(w, "Hello, World!")
	}))
	defer s.Close()
	r, err := Run(context.Background(), nil, path, root, s.URL+"/plaintext", Options{Connections: 4, Duration: time.Second, Pipeline: 16, Headers: []string{"Accept: text/plain"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Pipeline != 16 {
		t.Errorf("the script ran with depth %d, want 16", r.Pipeline)
	}
	if r.Requests == 0 || r.RequestsPerSecond() == 0 {
		t.Fatalf("no requests counted: %+v", r)
	}
	// wrk stops mid-batch; what it counted it received.
	if srv := served.Load(); r.Requests > srv {
		t.Errorf("wrk counted %d responses, the server answered %d", r.Requests, srv)
	}
	if want := r.Requests / 10; r.Errors.Status < want*8/10 || r.Errors.Status > want*12/10+2 {
		t.Errorf("status errors %d, want about %d", r.Errors.Status, want)
	}
	if r.LatencyUS.P50 <= 0 || r.LatencyUS.P99 < r.LatencyUS.P50 {
		t.Errorf("latency p50 %d p99 %d", r.LatencyUS.P50, r.LatencyUS.P99)
	}
	if v := Version(path); !strings.Contains(v, "4.") {
		t.Errorf("Version = %q", v)
	}
}
