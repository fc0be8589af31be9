package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "vireo-otel") }

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(int)             {}

// BenchmarkRequest serves the comparison's request in process, for its
// allocations (instructions: `go run ./cmd/bench instructions otel`).
func BenchmarkRequest(b *testing.B) {
	h := newApp()
	req := httptest.NewRequest("GET", "/api/values/5", nil)
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, req)
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}
