// Benchmarks: the suite's GET /setget with and without a cookie, serial and
// parallel, and the memory cost of a stored session.

package sessions_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// benchWriter is a ResponseWriter that keeps nothing, so the benchmarks
// measure the framework and not a recorder.
type benchWriter struct{ h http.Header }

func (w *benchWriter) Header() http.Header               { return w.h }
func (w *benchWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (w *benchWriter) WriteHeader(int)                   {}
func (w *benchWriter) WriteString(s string) (int, error) { return len(s), nil }
func (w *benchWriter) reset()                            { clear(w.h) }

// setgetApp is the sessions comparison of the benchmark suite: GET /setget
// stores "key"="value" in the session and answers with it.
func setgetApp(b testing.TB, opts ...sessions.Option) (*core.Application, *sessions.Manager) {
	m := sessions.MustNew(opts...)
	b.Cleanup(func() { m.Close() })
	app := core.New()
	app.Use(m.Handler())
	app.Get("/setget", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("key", "value")
		ctx.WriteString(s.GetString("key", ""))
	})
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	return app, m
}

// BenchmarkBaselineNoSession is the same route without sessions, to read
// the other benchmarks as an overhead over the router.
func BenchmarkBaselineNoSession(b *testing.B) {
	app := core.New()
	app.Get("/setget", func(ctx core.Context) { ctx.WriteString("value") })
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	w := &benchWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
}

// BenchmarkSetGetNewSession: every request comes without a cookie (as from
// bombardier, which keeps none), so each one creates and stores a session.
func BenchmarkSetGetNewSession(b *testing.B) {
	app, _ := setgetApp(b)
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	w := &benchWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
}

// BenchmarkSetGetNewSessionManagerOnly is the same without the router:
// Start, Set, Get.
func BenchmarkSetGetNewSessionManagerOnly(b *testing.B) {
	m := sessions.MustNew()
	defer m.Close()
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	w := &benchWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		s, err := m.StartHTTP(w, req)
		if err != nil {
			b.Fatal(err)
		}
		s.Set("key", "value")
		if s.GetString("key", "") != "value" {
			b.Fatal("lost value")
		}
	}
}

// existingCookies creates n sessions and returns their Cookie headers.
func existingCookies(b *testing.B, app *core.Application, n int) []string {
	cookies := make([]string, n)
	for i := range cookies {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/setget", nil))
		res := rec.Result()
		cookies[i] = res.Cookies()[0].Name + "=" + res.Cookies()[0].Value
	}
	return cookies
}

// BenchmarkSetGetExistingSession: a client that sends its cookie back.
func BenchmarkSetGetExistingSession(b *testing.B) {
	app, _ := setgetApp(b)
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	req.Header.Set("Cookie", existingCookies(b, app, 1)[0])
	w := &benchWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
}

// BenchmarkSetGetExistingSessionParallel: many clients at once, each
// sending the cookie of one of 4096 existing sessions, on every CPU.
func BenchmarkSetGetExistingSessionParallel(b *testing.B) {
	app, _ := setgetApp(b)
	cookies := existingCookies(b, app, 4096)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		reqs := make([]*http.Request, 64)
		start := int(next.Add(1)) * len(reqs)
		for i := range reqs {
			reqs[i] = httptest.NewRequest(http.MethodGet, "/setget", nil)
			reqs[i].Header.Set("Cookie", cookies[(start+i)%len(cookies)])
		}
		w := &benchWriter{h: make(http.Header)}
		for i := 0; pb.Next(); i++ {
			w.reset()
			app.ServeHTTP(w, reqs[i%len(reqs)])
		}
	})
}

// BenchmarkSetGetNewSessionParallel: cookie-less requests on every CPU,
// the shape of the suite's load test.
func BenchmarkSetGetNewSessionParallel(b *testing.B) {
	app, _ := setgetApp(b)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest(http.MethodGet, "/setget", nil)
		w := &benchWriter{h: make(http.Header)}
		for pb.Next() {
			w.reset()
			app.ServeHTTP(w, req)
		}
	})
}

// BenchmarkMemoryPerSession stores b.N sessions as GET /setget does and
// reports the live heap they take, per session. Run it with
// -benchtime=1000000x for the figure quoted in the package documentation.
func BenchmarkMemoryPerSession(b *testing.B) {
	db := sessions.NewMemoryDatabase(sessions.WithMaxSessions(-1), sessions.WithSweepInterval(-1))
	defer db.Close()
	app, _ := setgetApp(b, sessions.WithDatabase(db))
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	w := &benchWriter{h: make(http.Header)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if db.Len() != b.N {
		b.Fatalf("%d sessions stored, want %d", db.Len(), b.N)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(b.N), "heap-bytes/session")
	b.ReportMetric(float64(after.HeapAlloc), "heap-bytes")
	b.ReportMetric(float64(after.Sys)/float64(b.N), "sys-bytes/session")
	runtime.KeepAlive(db)
}

// BenchmarkFloodCapped sends b.N cookie-less requests to a store capped at
// 100,000 sessions and reports the live heap afterwards: with
// -benchtime=1000000x it stays near the cap's worth, not the requests'.
func BenchmarkFloodCapped(b *testing.B) {
	const capacity = 100_000
	db := sessions.NewMemoryDatabase(sessions.WithMaxSessions(capacity), sessions.WithSweepInterval(-1))
	defer db.Close()
	app, _ := setgetApp(b, sessions.WithDatabase(db))
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	w := &benchWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
	b.StopTimer()
	if n := db.Len(); n > capacity+capacity/10 {
		b.Fatalf("%d sessions stored, cap %d", n, capacity)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(db.Len()), "sessions")
	b.ReportMetric(float64(ms.HeapAlloc), "heap-bytes")
}

// BenchmarkMemoryDatabaseParallel mixes lookups of existing sessions with
// insertions of new ones (1 in 8) on every CPU, against one shard (one
// global lock) and the default sharding, to show what the shards buy.
func BenchmarkMemoryDatabaseParallel(b *testing.B) {
	for _, shards := range []int{1, sessions.DefaultShards} {
		b.Run("shards="+strconv.Itoa(shards), func(b *testing.B) {
			db := sessions.NewMemoryDatabase(sessions.WithShards(shards), sessions.WithSweepInterval(-1))
			defer db.Close()
			ids := make([]string, 4096)
			exp := time.Now().Add(time.Hour)
			for i := range ids {
				ids[i], _ = sessions.NewID()
				db.Save(context.Background(), ids[i], sessions.NewRecord(sessions.Snapshot{ExpiresAt: exp}))
			}
			var seq atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				n := int(seq.Add(1)) * 7919
				for pb.Next() {
					n++
					if n%8 == 0 {
						id, _ := sessions.NewID()
						db.Save(ctx, id, sessions.NewRecord(sessions.Snapshot{ExpiresAt: exp}))
						continue
					}
					if rec, _ := db.Load(ctx, ids[n%len(ids)]); rec == nil {
						b.Error("lost a session")
						return
					}
				}
			})
		})
	}
}
