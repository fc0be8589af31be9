// Package sessiontest checks that a sessions.Database honours its contract.
//
// RunDatabaseTests runs the same conformance suite against any store: the
// in-memory database in package sessions, and remote ones (Redis) in their
// own modules. The suite has two halves: direct calls on the Database
// (load, save, replace, touch, expiry, delete, rename, concurrency), and
// whole-request flows through a sessions.Manager mounted on a vireo
// application served over real HTTP with a cookie jar (values and typed
// getters across requests, flash, destroy, regenerate, expiry, sliding
// expiration). Time is the harness's: a fake clock for stores that take one,
// real sleeps of a short lifetime for stores with server-side TTLs.
package sessiontest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// Clock is a fake clock, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock showing t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Harness describes the store under test.
type Harness struct {
	// New returns an empty Database using Now as its clock. The suite
	// closes it at the end of each test.
	New func(t *testing.T) sessions.Database
	// Now is the clock shared by the store and the Managers of the suite.
	// Default time.Now.
	Now func() time.Time
	// Advance moves time forward by d: Clock.Advance for a fake clock, or
	// a sleep for a store whose expiry runs on real time. Default sleep.
	Advance func(t *testing.T, d time.Duration)
	// Lifetime is the session lifetime used by the expiry tests. Default
	// 10 minutes (fine with a fake clock); use about a second with real
	// time.
	Lifetime time.Duration
}

func (h *Harness) defaults() {
	if h.Now == nil {
		h.Now = time.Now
	}
	if h.Advance == nil {
		h.Advance = func(_ *testing.T, d time.Duration) { time.Sleep(d) }
	}
	if h.Lifetime == 0 {
		h.Lifetime = 10 * time.Minute
	}
}

func (h *Harness) open(t *testing.T) sessions.Database {
	t.Helper()
	db := h.New(t)
	t.Cleanup(func() { db.Close() })
	return db
}

// RunDatabaseTests runs the conformance suite against the stores h.New
// returns.
func RunDatabaseTests(t *testing.T, h Harness) {
	h.defaults()
	t.Run("LoadUnknown", func(t *testing.T) { testLoadUnknown(t, h) })
	t.Run("SaveLoad", func(t *testing.T) { testSaveLoad(t, h) })
	t.Run("SaveReplaces", func(t *testing.T) { testSaveReplaces(t, h) })
	t.Run("Touch", func(t *testing.T) { testTouch(t, h) })
	t.Run("Expiry", func(t *testing.T) { testExpiry(t, h) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, h) })
	t.Run("Rename", func(t *testing.T) { testRename(t, h) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, h) })
	t.Run("HTTP/SetGet", func(t *testing.T) { testHTTPSetGet(t, h, true) })
	t.Run("HTTP/SetGetWithoutHandler", func(t *testing.T) { testHTTPSetGet(t, h, false) })
	t.Run("HTTP/ReadOnlyStoresNothing", func(t *testing.T) { testHTTPReadOnly(t, h) })
	t.Run("HTTP/Flash", func(t *testing.T) { testHTTPFlash(t, h) })
	t.Run("HTTP/Destroy", func(t *testing.T) { testHTTPDestroy(t, h) })
	t.Run("HTTP/Regenerate", func(t *testing.T) { testHTTPRegenerate(t, h) })
	t.Run("HTTP/Expiry", func(t *testing.T) { testHTTPExpiry(t, h) })
	t.Run("HTTP/Sliding", func(t *testing.T) { testHTTPSliding(t, h) })
}

func newID(t *testing.T) string {
	t.Helper()
	id, err := sessions.NewID()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mustLoad(t *testing.T, db sessions.Database, id string) *sessions.Record {
	t.Helper()
	rec, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatalf("Load(%s): %v", id, err)
	}
	return rec
}

func mustSave(t *testing.T, db sessions.Database, id string, rec *sessions.Record) {
	t.Helper()
	if err := db.Save(context.Background(), id, rec); err != nil {
		t.Fatalf("Save(%s): %v", id, err)
	}
}

// sameValue compares values the way the typed getters see them, so a
// number that comes back as float64 from a JSON codec still matches.
func sameValue(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func checkEntries(t *testing.T, what string, got, want []sessions.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d entries %v, want %v", what, len(got), got, want)
	}
	for i := range want {
		if got[i].Key != want[i].Key || !sameValue(got[i].Value, want[i].Value) {
			t.Errorf("%s[%d]: got %v=%v, want %v=%v", what, i, got[i].Key, got[i].Value, want[i].Key, want[i].Value)
		}
	}
}

func testLoadUnknown(t *testing.T, h Harness) {
	db := h.open(t)
	if rec := mustLoad(t, db, newID(t)); rec != nil {
		t.Fatalf("Load of an unknown ID returned %+v", rec.Snapshot())
	}
}

func testSaveLoad(t *testing.T, h Harness) {
	db := h.open(t)
	id := newID(t)
	snap := sessions.Snapshot{
		Values: []sessions.Entry{
			{Key: "name", Value: "gopher"}, {Key: "n", Value: 42}, {Key: "big", Value: int64(1) << 40},
			{Key: "pi", Value: 3.25}, {Key: "ok", Value: true},
		},
		Flashes:   []sessions.Entry{{Key: "notice", Value: "saved"}},
		ExpiresAt: h.Now().Add(h.Lifetime),
		Lifetime:  2 * h.Lifetime,
	}
	mustSave(t, db, id, sessions.NewRecord(snap))
	rec := mustLoad(t, db, id)
	if rec == nil {
		t.Fatal("Load after Save found nothing")
	}
	got := rec.Snapshot()
	checkEntries(t, "values", got.Values, snap.Values)
	checkEntries(t, "flashes", got.Flashes, snap.Flashes)
	if d := got.ExpiresAt.Sub(snap.ExpiresAt); d < -time.Second || d > time.Second {
		t.Errorf("ExpiresAt = %v, want %v", got.ExpiresAt, snap.ExpiresAt)
	}
	if got.Lifetime != snap.Lifetime {
		t.Errorf("Lifetime = %v, want %v", got.Lifetime, snap.Lifetime)
	}
}

func testSaveReplaces(t *testing.T, h Harness) {
	db := h.open(t)
	id := newID(t)
	exp := h.Now().Add(h.Lifetime)
	mustSave(t, db, id, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "a", Value: "1"}, {Key: "b", Value: "2"}}, ExpiresAt: exp}))
	mustSave(t, db, id, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "b", Value: "3"}}, ExpiresAt: exp}))
	rec := mustLoad(t, db, id)
	if rec == nil {
		t.Fatal("record gone after second Save")
	}
	checkEntries(t, "values", rec.Snapshot().Values, []sessions.Entry{{Key: "b", Value: "3"}})
}

func testTouch(t *testing.T, h Harness) {
	db := h.open(t)
	id := newID(t)
	mustSave(t, db, id, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "a", Value: "1"}}, ExpiresAt: h.Now().Add(h.Lifetime)}))
	if err := db.Touch(context.Background(), id, h.Now().Add(3*h.Lifetime)); err != nil {
		t.Fatal(err)
	}
	h.Advance(t, h.Lifetime*3/2)
	rec := mustLoad(t, db, id)
	if rec == nil {
		t.Fatal("a touched record expired at its old expiry")
	}
	checkEntries(t, "values", rec.Snapshot().Values, []sessions.Entry{{Key: "a", Value: "1"}})
	if err := db.Touch(context.Background(), newID(t), h.Now().Add(h.Lifetime)); err != nil {
		t.Errorf("Touch of an unknown ID: %v", err)
	}
}

func testExpiry(t *testing.T, h Harness) {
	db := h.open(t)
	id := newID(t)
	mustSave(t, db, id, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "a", Value: "1"}}, ExpiresAt: h.Now().Add(h.Lifetime)}))
	if mustLoad(t, db, id) == nil {
		t.Fatal("record missing before its expiry")
	}
	h.Advance(t, h.Lifetime*3/2)
	if rec := mustLoad(t, db, id); rec != nil {
		t.Fatalf("record still loadable after its expiry: %+v", rec.Snapshot())
	}
}

func testDelete(t *testing.T, h Harness) {
	db := h.open(t)
	id := newID(t)
	mustSave(t, db, id, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "a", Value: "1"}}, ExpiresAt: h.Now().Add(h.Lifetime)}))
	if err := db.Delete(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if mustLoad(t, db, id) != nil {
		t.Fatal("record loadable after Delete")
	}
	if err := db.Delete(context.Background(), newID(t)); err != nil {
		t.Errorf("Delete of an unknown ID: %v", err)
	}
}

func testRename(t *testing.T, h Harness) {
	db := h.open(t)
	oldID, newIDv := newID(t), newID(t)
	exp := h.Now().Add(h.Lifetime)
	mustSave(t, db, oldID, sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "a", Value: "1"}}, ExpiresAt: exp}))
	rec := mustLoad(t, db, oldID)
	if rec == nil {
		t.Fatal("record missing")
	}
	// Rename must store the record's current content, changes included.
	moved := sessions.NewRecord(sessions.Snapshot{Values: append(rec.Snapshot().Values, sessions.Entry{Key: "user", Value: "ann"}), ExpiresAt: exp})
	if err := db.Rename(context.Background(), oldID, newIDv, moved); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, db, oldID); got != nil {
		t.Fatalf("old ID still loadable after Rename: %+v", got.Snapshot())
	}
	got := mustLoad(t, db, newIDv)
	if got == nil {
		t.Fatal("new ID not loadable after Rename")
	}
	checkEntries(t, "values", got.Snapshot().Values, []sessions.Entry{{Key: "a", Value: "1"}, {Key: "user", Value: "ann"}})
}

func testConcurrent(t *testing.T, h Harness) {
	db := h.open(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ctx := context.Background()
			for i := 0; i < 50; i++ {
				id, err := sessions.NewID()
				if err != nil {
					errs <- err
					return
				}
				rec := sessions.NewRecord(sessions.Snapshot{Values: []sessions.Entry{{Key: "g", Value: g}, {Key: "i", Value: i}}, ExpiresAt: h.Now().Add(h.Lifetime)})
				if err := db.Save(ctx, id, rec); err != nil {
					errs <- err
					return
				}
				got, err := db.Load(ctx, id)
				if err != nil || got == nil {
					errs <- fmt.Errorf("load after save: %v, %v", got, err)
					return
				}
				if v := got.Snapshot().Values; len(v) != 2 || !sameValue(v[0].Value, g) || !sameValue(v[1].Value, i) {
					errs <- fmt.Errorf("goroutine %d read %v", g, v)
					return
				}
				if err := db.Delete(ctx, id); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// app is a vireo application exposing a Manager's operations over HTTP.
// Every response carries the session ID in X-Session and IsNew in X-New.
type app struct {
	m   *sessions.Manager
	db  sessions.Database
	srv *httptest.Server
}

func newApp(t *testing.T, h Harness, withHandler bool, opts ...sessions.Option) *app {
	t.Helper()
	a := &app{db: h.open(t)}
	opts = append(opts, sessions.WithDatabase(a.db), sessions.WithClock(h.Now))
	a.m = sessions.MustNew(opts...)
	t.Cleanup(func() { a.m.Close() })
	va := core.New()
	start := func(ctx core.Context) *sessions.Session {
		s, err := a.m.Start(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return nil
		}
		ctx.SetResponseHeader("X-Session", s.ID())
		ctx.SetResponseHeader("X-New", strconv.FormatBool(s.IsNew()))
		return s
	}
	if withHandler {
		va.Use(a.m.Handler())
	}
	va.Get("/set", func(ctx core.Context) {
		s := start(ctx)
		if s == nil {
			return
		}
		q := ctx.Request().URL.Query()
		for k := range q {
			s.Set(k, q.Get(k))
		}
		s.Set("n", 42)
		s.Set("big", int64(1)<<40)
		s.Set("pi", 3.25)
		s.Set("ok", true)
		ctx.WriteString("ok")
	})
	va.Get("/get", func(ctx core.Context) {
		s := start(ctx)
		if s == nil {
			return
		}
		fmt.Fprintf(ctx.ResponseWriter(), "name=%s n=%d big=%d pi=%g ok=%t len=%d",
			s.GetString("name", "-"), s.GetInt("n", -1), s.GetInt64("big", -1),
			s.GetFloat64("pi", -1), s.GetBool("ok", false), s.Len())
	})
	va.Get("/peek", func(ctx core.Context) {
		s, err := a.m.Start(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.WriteString(s.GetString("name", "-"))
	})
	va.Get("/flash/set", func(ctx core.Context) {
		if s := start(ctx); s != nil {
			s.SetFlash("notice", "saved")
		}
	})
	va.Get("/flash/get", func(ctx core.Context) {
		if s := start(ctx); s != nil {
			fmt.Fprint(ctx.ResponseWriter(), s.GetFlash("notice"))
		}
	})
	va.Get("/destroy", func(ctx core.Context) {
		if err := a.m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	va.Get("/regenerate", func(ctx core.Context) {
		old := start(ctx)
		if old == nil {
			return
		}
		oldID := old.ID()
		s, err := a.m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.SetResponseHeader("X-Old", oldID)
		ctx.SetResponseHeader("X-Session", s.ID())
	})
	if err := va.Build(); err != nil {
		t.Fatal(err)
	}
	a.srv = httptest.NewServer(va)
	t.Cleanup(a.srv.Close)
	return a
}

// client is a browser: a cookie jar over the app's server.
type client struct {
	t  *testing.T
	a  *app
	hc *http.Client
}

func (a *app) client(t *testing.T) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{t: t, a: a, hc: &http.Client{Jar: jar}}
}

type reply struct {
	status int
	body   string
	header http.Header
}

func (c *client) get(path string) reply {
	c.t.Helper()
	res, err := c.hc.Get(c.a.srv.URL + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return reply{res.StatusCode, string(b), res.Header}
}

// getWithCookie sends one request with exactly the given cookie value and
// no jar.
func (a *app) getWithCookie(t *testing.T, path, value string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: a.m.CookieName(), Value: value})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return reply{res.StatusCode, string(b), res.Header}
}

func (c *client) cookie() string {
	for _, ck := range c.hc.Jar.Cookies(mustURL(c.t, c.a.srv.URL)) {
		if ck.Name == c.a.m.CookieName() {
			return ck.Value
		}
	}
	return ""
}

const fullGet = "name=gopher n=42 big=1099511627776 pi=3.25 ok=true len=5"
const emptyGet = "name=- n=-1 big=-1 pi=-1 ok=false len=0"

func expect(t *testing.T, what string, r reply, status int, body string) {
	t.Helper()
	if r.status != status || r.body != body {
		t.Fatalf("%s: got %d %q, want %d %q", what, r.status, r.body, status, body)
	}
}

func testHTTPSetGet(t *testing.T, h Harness, withHandler bool) {
	a := newApp(t, h, withHandler)
	c := a.client(t)
	first := c.get("/set?name=gopher")
	expect(t, "set", first, 200, "ok")
	if first.header.Get("X-New") != "true" {
		t.Fatal("first request did not create a session")
	}
	second := c.get("/get")
	expect(t, "get", second, 200, fullGet)
	if second.header.Get("X-New") != "false" || second.header.Get("X-Session") != first.header.Get("X-Session") {
		t.Fatalf("second request got session %s (new=%s), want %s", second.header.Get("X-Session"), second.header.Get("X-New"), first.header.Get("X-Session"))
	}
	// Another browser sees nothing of it.
	expect(t, "other client", a.client(t).get("/get"), 200, emptyGet)
}

// testHTTPReadOnly checks lazy creation: a request without a cookie that
// only reads its session gets no cookie, and a later write creates it.
func testHTTPReadOnly(t *testing.T, h Harness) {
	a := newApp(t, h, true)
	c := a.client(t)
	r := c.get("/peek")
	expect(t, "read-only", r, 200, "-")
	if sc := r.header.Values("Set-Cookie"); len(sc) != 0 {
		t.Fatalf("a request that only read its session got cookies %q", sc)
	}
	id := c.get("/set?name=gopher").header.Get("X-Session")
	expect(t, "read after write", c.get("/peek"), 200, "gopher")
	if mustLoad(t, a.db, id) == nil {
		t.Fatal("a written session is not in the database")
	}
}

func testHTTPFlash(t *testing.T, h Harness) {
	a := newApp(t, h, true)
	c := a.client(t)
	c.get("/flash/set")
	expect(t, "first read", c.get("/flash/get"), 200, "saved")
	expect(t, "second read", c.get("/flash/get"), 200, "<nil>")
}

func testHTTPDestroy(t *testing.T, h Harness) {
	a := newApp(t, h, true)
	c := a.client(t)
	id := c.get("/set?name=gopher").header.Get("X-Session")
	cookie := c.cookie()
	r := c.get("/destroy")
	expect(t, "destroy", r, 200, "")
	if sc := r.header.Get("Set-Cookie"); !containsAll(sc, a.m.CookieName()+"=;", "Max-Age=0") {
		t.Fatalf("destroy did not expire the cookie: %q", sc)
	}
	if mustLoad(t, a.db, id) != nil {
		t.Fatal("destroyed session still in the database")
	}
	expect(t, "after destroy", c.get("/get"), 200, emptyGet)
	// Replaying the old cookie gives a fresh session.
	replay := a.getWithCookie(t, "/get", cookie)
	expect(t, "replayed cookie", replay, 200, emptyGet)
	if replay.header.Get("X-Session") == id {
		t.Fatal("a destroyed ID was reused")
	}
}

func testHTTPRegenerate(t *testing.T, h Harness) {
	a := newApp(t, h, true)
	c := a.client(t)
	id1 := c.get("/set?name=gopher").header.Get("X-Session")
	oldCookie := c.cookie()
	r := c.get("/regenerate")
	id2 := r.header.Get("X-Session")
	if r.header.Get("X-Old") != id1 || id2 == "" || id2 == id1 {
		t.Fatalf("regenerate: old %s new %s, want old %s and a different new ID", r.header.Get("X-Old"), id2, id1)
	}
	if mustLoad(t, a.db, id1) != nil {
		t.Fatal("old ID still loadable after Regenerate")
	}
	expect(t, "new cookie", c.get("/get"), 200, fullGet)
	replay := a.getWithCookie(t, "/get", oldCookie)
	expect(t, "old cookie", replay, 200, emptyGet)
	if got := replay.header.Get("X-Session"); got == id1 || got == id2 {
		t.Fatalf("old cookie led to session %s", got)
	}
}

func testHTTPExpiry(t *testing.T, h Harness) {
	a := newApp(t, h, true, sessions.WithLifetime(h.Lifetime))
	c := a.client(t)
	id := c.get("/set?name=gopher").header.Get("X-Session")
	h.Advance(t, h.Lifetime*3/2)
	r := c.get("/get")
	expect(t, "after expiry", r, 200, emptyGet)
	if r.header.Get("X-Session") == id || r.header.Get("X-New") != "true" {
		t.Fatalf("expired session %s came back as %s (new=%s)", id, r.header.Get("X-Session"), r.header.Get("X-New"))
	}
}

func testHTTPSliding(t *testing.T, h Harness) {
	a := newApp(t, h, true, sessions.WithLifetime(h.Lifetime))
	c := a.client(t)
	c.get("/set?name=gopher")
	// Two uses 0.6 lifetimes apart keep the session past one lifetime.
	for i := 0; i < 2; i++ {
		h.Advance(t, h.Lifetime*6/10)
		expect(t, fmt.Sprintf("use %d", i+1), c.get("/get"), 200, fullGet)
	}
	h.Advance(t, h.Lifetime*3/2)
	expect(t, "after idle lifetime", c.get("/get"), 200, emptyGet)
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
