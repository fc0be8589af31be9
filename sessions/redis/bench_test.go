// Benchmarks of GET /setget with the Redis database, against a real
// redis-server started for the run (skipped when it is not installed).

package redis

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// benchClients is the number of concurrent clients per CPU: a Redis round
// trip leaves the CPU idle, as a load generator's many connections would
// not.
const benchClients = 16

type benchWriter struct{ h http.Header }

func (w *benchWriter) Header() http.Header               { return w.h }
func (w *benchWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (w *benchWriter) WriteString(s string) (int, error) { return len(s), nil }
func (w *benchWriter) WriteHeader(int)                   {}

func setgetApp(b *testing.B) *core.Application {
	srv := startRedisWith(b, false)
	db := newDB(b, srv)
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithLogger(quiet))
	app := core.New(core.WithLogger(quiet))
	app.Use(m.Handler())
	app.Get("/setget", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("key", "value")
		ctx.WriteString(s.GetString("key", ""))
	})
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	return app
}

// BenchmarkSetGetNewSession: cookie-less requests, one SET each.
func BenchmarkSetGetNewSession(b *testing.B) {
	app := setgetApp(b)
	b.SetParallelism(benchClients)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest(http.MethodGet, "/setget", nil)
		w := &benchWriter{h: make(http.Header)}
		for pb.Next() {
			clear(w.h)
			app.ServeHTTP(w, req)
		}
	})
}

// BenchmarkSetGetExistingSession: clients sending their cookie back; one
// MULTI GET+PTTL each (the value set is unchanged, so no write).
func BenchmarkSetGetExistingSession(b *testing.B) {
	app := setgetApp(b)
	cookies := make([]string, 256)
	for i := range cookies {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/setget", nil))
		c := rec.Result().Cookies()[0]
		cookies[i] = c.Name + "=" + c.Value
	}
	var next atomic.Int64
	b.SetParallelism(benchClients)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest(http.MethodGet, "/setget", nil)
		req.Header.Set("Cookie", cookies[int(next.Add(1))%len(cookies)])
		w := &benchWriter{h: make(http.Header)}
		for pb.Next() {
			clear(w.h)
			app.ServeHTTP(w, req)
		}
	})
}
