package core

import (
	"net/http"
	"testing"
)

// liveContext returns a live handle to a state reset for GET
// /api/values/5 with its parameter id=5, as the route's handler gets it,
// for the benchmarks of the gate (handle.go). The state writes to a
// nopWriter and arms no write deadline.
func liveContext(b *testing.B) Context {
	b.Helper()
	app := New()
	app.Get("/api/values/{id}", func(Context) {})
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	r, _ := http.NewRequest("GET", "/api/values/5", nil)
	s := app.pool.Get().(*state)
	s.reset(&nopWriter{h: http.Header{}}, r)
	s.writer.rate = DataRate{}
	s.params = append(s.params, Param{Key: "id", Value: "5"})
	b.Cleanup(func() { s.release() })
	b.ReportAllocs()
	return s.handle()
}

var benchSink string

// BenchmarkGate* isolate the cost of the gate: the same body with and
// without it, on a live handle, one call per iteration. GateAlive is the
// gate alone (enter and exit), GateParam and GateWriteString a method
// that unpins inline and one that defers; the Ungated variants run the
// body on the state directly.
func BenchmarkGateAlive(b *testing.B) {
	ctx := liveContext(b)
	for b.Loop() {
		ctx.Alive()
	}
}

func BenchmarkGateParam(b *testing.B) {
	ctx := liveContext(b)
	for b.Loop() {
		benchSink = ctx.Param("id")
	}
}

func BenchmarkGateParamUngated(b *testing.B) {
	s := liveContext(b).s
	for b.Loop() {
		benchSink = s.params.get("id")
	}
}

func BenchmarkGateWriteString(b *testing.B) {
	ctx := liveContext(b)
	for b.Loop() {
		ctx.WriteString("5")
		ctx.s.writer.size = 0
	}
}

func BenchmarkGateWriteStringUngated(b *testing.B) {
	s := liveContext(b).s
	for b.Loop() {
		s.writeString("5")
		s.writer.size = 0
	}
}
