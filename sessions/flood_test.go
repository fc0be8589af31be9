// Tests of the memory store's cap policy (issue 12 item 5): a flood of
// clients that never come back evicts only its own sessions, never a user
// whose cookie came back, and memory stays flat under it.

package sessions_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

// heapAfterGC returns the live heap after a full collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func TestFloodKeepsReturningUser(t *testing.T) {
	const capacity = 4096
	clock := sessiontest.NewClock(epoch)
	db := sessions.NewMemoryDatabase(sessions.WithMemoryClock(clock.Now), sessions.WithMaxSessions(capacity),
		sessions.WithShards(16), sessions.WithSweepInterval(-1))
	defer db.Close()
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now))
	app := core.New()
	app.Use(m.Handler())
	app.Get("/login", func(ctx core.Context) {
		s, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("user", "ann")
	})
	app.Get("/me", func(ctx core.Context) { ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous")) })
	// Every anonymous request writes to its session, the worst case: a
	// page that only reads stores nothing at all.
	app.Get("/visit", func(ctx core.Context) { sessions.Get(ctx).Set("visits", 1) })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	do := func(path, cookie string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		app.ServeHTTP(rec, req)
		return rec
	}

	login := do("/login", "")
	ck := sessionCookie(login.Result(), m.CookieName())
	if ck == nil {
		t.Fatal("no cookie at login")
	}
	cookie := ck.Name + "=" + ck.Value
	if body := do("/me", cookie).Body.String(); body != "ann" { // the user comes back once
		t.Fatalf("after login: %q", body)
	}
	// The flood's sessions expire later than the user's (who is idle),
	// which made the user the first victim of the former closest-to-expiry
	// policy.
	clock.Advance(time.Second)
	// A user logged in just before the flood, who has not come back yet,
	// is in probation with the flood: only the returning user is promised
	// to survive.
	flood := func(n int) {
		for i := 0; i < n; i++ {
			do("/visit", "")
		}
		if got := db.Len(); got > capacity {
			t.Fatalf("%d sessions stored, cap %d", got, capacity)
		}
	}
	flood(capacity)
	heap1 := heapAfterGC()
	flood(2 * capacity) // 3x the cap in all
	heap3 := heapAfterGC()
	if body := do("/me", cookie).Body.String(); body != "ann" {
		t.Fatalf("after a flood of %d cookie-less sessions the user reads %q, want ann", 3*capacity, body)
	}
	// Memory is flat: the last two caps' worth of sessions replaced the
	// first instead of adding to it (a session costs a few hundred bytes,
	// 4096 of them more than a megabyte; allow 256 KiB of noise).
	if heap3 > heap1+256<<10 {
		t.Fatalf("live heap grew from %d to %d bytes between 1x and 3x the cap", heap1, heap3)
	}
	t.Logf("live heap %d -> %d bytes, %d sessions stored", heap1, heap3, db.Len())
}

// TestReadOnlyFloodStoresNothing: cookie-less requests that read their
// session (a 404, a static file, a public page) get no cookie and cost
// the store nothing.
func TestReadOnlyFloodStoresNothing(t *testing.T) {
	db := sessions.NewMemoryDatabase(sessions.WithSweepInterval(-1))
	defer db.Close()
	m := sessions.MustNew(sessions.WithDatabase(db))
	app := core.New()
	app.UseBeforeRouting(m.Handler())
	app.Get("/page", func(ctx core.Context) { ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous")) })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		for _, path := range []string{"/page", "/missing-" + strconv.Itoa(i)} {
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if sc := rec.Header().Values("Set-Cookie"); len(sc) != 0 {
				t.Fatalf("%s: cookie %q for a session nobody wrote to", path, sc)
			}
		}
	}
	if n := db.Len(); n != 0 {
		t.Fatalf("%d sessions stored by read-only requests", n)
	}
}

// TestReturningSessionAllocatesNothing: a request on an existing in-memory
// session shares the record's Session handle instead of allocating one.
func TestReturningSessionAllocatesNothing(t *testing.T) {
	app, m := setgetApp(t)
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/setget", nil))
	ck := sessionCookie(rec.Result(), m.CookieName())
	if ck == nil {
		t.Fatal("no cookie for a new session")
	}
	req := httptest.NewRequest(http.MethodGet, "/setget", nil)
	req.Header.Set("Cookie", ck.Name+"="+ck.Value)
	w := &benchWriter{h: make(http.Header)}
	app.ServeHTTP(w, req) // the first return makes the shared handle
	if n := testing.AllocsPerRun(100, func() { w.reset(); app.ServeHTTP(w, req) }); n != 0 {
		t.Fatalf("%v allocations per request on an existing session", n)
	}
}
