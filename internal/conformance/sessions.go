package conformance

// Sessions over a real connection, on any session Database: Run runs
// these tests on the Manager's in-memory store, and RunSessions on the
// store its caller makes (internal/redisconformance runs them on Redis on
// every engine: the root module imports no Redis client).

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// RunSessions runs the sessions tests on target, each with a Manager
// (cookie "sid", the sessions middleware on every route) over the
// Database newDB returns for that test; newDB nil: the Manager's
// in-memory default. The Manager leaves a given Database open: newDB
// closes it (t.Cleanup) when the test ends. A store that copies records
// (not a sessions.SharedDatabase, like Redis) is also made to fail, to
// check the 503 answers (StoreFailure: not run on the in-memory default,
// and passing at once on another shared store).
func RunSessions(t *testing.T, target Target, newDB func(t *testing.T) sessions.Database) {
	for _, tc := range sessionTests {
		if tc.faults && newDB == nil {
			continue // the Manager's in-memory store cannot fail
		}
		t.Run(tc.name, func(t *testing.T) {
			opts := []sessions.Option{sessions.WithCookie(sessionCookie), sessions.WithLogger(quietLogger())}
			var db *faultyDB
			if newDB != nil {
				store := newDB(t)
				if _, shared := store.(sessions.SharedDatabase); !shared {
					// A shared store keeps its shared path: no faults.
					db = &faultyDB{Database: store}
					store = db
				}
				opts = append(opts, sessions.WithDatabase(store))
			}
			if tc.faults && db == nil {
				t.Log("a shared store: nothing to make fail")
				return
			}
			m := sessions.MustNew(append(opts, tc.sessions...)...)
			t.Cleanup(func() { m.Close() })
			app := newApp(tc.app, target.Options)
			app.Use(m.Handler())
			st := &sessionServer{m: m, db: db, wake: make(chan struct{}), stop: make(chan struct{})}
			st.register(app)
			st.server = start(t, app, target.Transport)
			tc.run(t, st)
		})
	}
}

const sessionCookie = "sid"

// sessionTest is one test of RunSessions.
type sessionTest struct {
	name     string
	faults   bool              // needs a store that copies records, which the test makes fail
	sessions []sessions.Option // the test's own Manager options, after the suite's
	app      []core.Option     // the test's own application options, before the target's
	run      func(t *testing.T, s *sessionServer)
}

var sessionTests = []sessionTest{
	{name: "NewSessionCookie", run: newSessionCookie},
	{name: "ReadBack", run: sessionReadBack},
	{name: "Regenerate", run: sessionRegenerate},
	{name: "Destroy", run: sessionDestroy},
	{name: "CookieReplacedInOneResponse", run: cookieReplacedInOneResponse},
	{name: "CookieAmongOthers", run: cookieAmongOthers},
	{name: "UnknownIDNotAdopted", run: unknownIDNotAdopted},
	{name: "PersistentCookie", sessions: []sessions.Option{sessions.WithExpires(time.Hour)}, run: persistentCookie},
	{name: "SecureBehindProxy", app: []core.Option{core.WithTrustedProxies("X-Forwarded-For", "127.0.0.1")}, run: secureBehindProxy},
	{name: "WriteAfterResponseStarted", run: writeAfterResponseStarted},
	{name: "ConcurrentClients", run: concurrentSessions},
	{name: "KeptSessionWritesNoOtherResponse", run: keptSessionWritesNoOtherResponse},
	{name: "KeptSessionGoroutines", run: keptSessionGoroutines},
	{name: "StoreFailure", faults: true, run: storeFailure},
}

// errStoreDown is what faultyDB fails with.
var errStoreDown = errors.New("conformance: the session store is down")

// faultyDB is the caller's Database, made to fail its loads or saves on
// demand.
type faultyDB struct {
	sessions.Database
	failLoad, failSave atomic.Bool
}

func (f *faultyDB) Load(ctx context.Context, id string) (*sessions.Record, error) {
	if f.failLoad.Load() {
		return nil, errStoreDown
	}
	return f.Database.Load(ctx, id)
}

func (f *faultyDB) Save(ctx context.Context, id string, rec *sessions.Record) error {
	if f.failSave.Load() {
		return errStoreDown
	}
	return f.Database.Save(ctx, id, rec)
}

// sessionServer is an application with the sessions routes, served.
type sessionServer struct {
	*server
	m    *sessions.Manager
	db   *faultyDB // nil: the store cannot be made to fail
	mu   sync.Mutex
	kept []*sessions.Session // by /keep, for /late

	wake, stop chan struct{} // start and end the goroutines of /keep-go
	goroutines sync.WaitGroup
}

// register adds the routes the sessions tests use:
//
//	GET /set/{v}     sets k=v                       "set"
//	GET /after/{v}   writes the body, then sets k=v and a header X-After
//	GET /get         k, or "none"                   the value
//	GET /regenerate  Regenerate                     "regenerated"
//	GET /destroy     Destroy                        "destroyed"
//	GET /keep        keeps the session, writes none "kept <i>"
//	GET /keep-go     keeps the session in a goroutine writing it from st.wake to st.stop
//	GET /late/{i}    sets late=i on kept session i and saves it, in this request (another client's)
func (st *sessionServer) register(app *core.Application) {
	app.Get("/set/{v}", func(c core.Context) {
		sessions.Get(c).Set("k", c.Param("v"))
		c.WriteString("set")
	})
	app.Get("/after/{v}", func(c core.Context) {
		c.WriteString("written first")
		sessions.Get(c).Set("k", c.Param("v"))
		c.SetResponseHeader("X-After", "1")
	})
	app.Get("/keep-go", func(c core.Context) {
		s := sessions.Get(c)
		st.goroutines.Add(1)
		go func() {
			defer st.goroutines.Done()
			<-st.wake
			for i := 0; ; i++ {
				select {
				case <-st.stop:
					return
				default:
				}
				s.Set("late", strconv.Itoa(i))
				time.Sleep(100 * time.Microsecond) // often, without taking the machine
			}
		}()
		c.WriteString("kept")
	})
	app.Get("/get", func(c core.Context) {
		s := sessions.Get(c)
		c.WriteString(s.GetString("k", "none") + s.GetString("late", ""))
	})
	app.Get("/regenerate", func(c core.Context) {
		if _, err := st.m.Regenerate(c); err != nil {
			c.StopWithError(err)
			return
		}
		c.WriteString("regenerated")
	})
	app.Get("/destroy", func(c core.Context) {
		if err := st.m.Destroy(c); err != nil {
			c.StopWithError(err)
			return
		}
		c.WriteString("destroyed")
	})
	// /twice/{ops}: an unrelated cookie, then each operation of ops in
	// turn (r: Regenerate, d: Destroy) in one request.
	app.Get("/twice/{ops}", func(c core.Context) {
		c.SetCookie(&http.Cookie{Name: "other", Value: "1"})
		for _, op := range c.Param("ops") {
			var err error
			if op == 'r' {
				_, err = st.m.Regenerate(c)
			} else {
				err = st.m.Destroy(c)
			}
			if err != nil {
				c.StopWithError(err)
				return
			}
		}
		c.WriteString("done")
	})
	app.Get("/keep", func(c core.Context) {
		st.mu.Lock()
		st.kept = append(st.kept, sessions.Get(c))
		i := len(st.kept) - 1
		st.mu.Unlock()
		c.WriteString("kept " + strconv.Itoa(i))
	})
	app.Get("/late/{i:int}", func(c core.Context) {
		i, _ := c.Params().Int("i")
		st.mu.Lock()
		s := st.kept[i]
		st.mu.Unlock()
		s.Set("late", strconv.Itoa(i))
		if err := s.Save(); err != nil {
			c.StopWithError(err)
			return
		}
		c.WriteString("late")
	})
}

// get sends GET path with the session cookie id ("" none).
func (st *sessionServer) get(path, id string) response {
	st.t.Helper()
	var h http.Header
	if id != "" {
		h = hdr("Cookie", sessionCookie+"="+id)
	}
	return st.send("GET", path, "", h)
}

// setCookies returns the response's Set-Cookie lines of the session
// cookie.
func setCookies(r response) []string {
	var out []string
	for _, line := range r.header.Values("Set-Cookie") {
		if strings.HasPrefix(line, sessionCookie+"=") {
			out = append(out, line)
		}
	}
	return out
}

// issued returns the ID of the one session cookie r sets, checking its
// attributes (a browser-session cookie: Path=/, HttpOnly, SameSite=Lax,
// no expiry); "" after reporting an error when r sets none, several or
// another shape.
func issued(t *testing.T, what string, r response) string {
	t.Helper()
	lines := setCookies(r)
	if len(lines) != 1 {
		t.Errorf("%s: %d session cookies %q, want one (all Set-Cookie: %q)", what, len(lines), lines, r.header.Values("Set-Cookie"))
		return ""
	}
	id, attrs, _ := strings.Cut(strings.TrimPrefix(lines[0], sessionCookie+"="), ";")
	if !sessions.ValidID(id) || attrs != " Path=/; HttpOnly; SameSite=Lax" {
		t.Errorf("%s: Set-Cookie %q, want %s=<a new ID>; Path=/; HttpOnly; SameSite=Lax", what, lines[0], sessionCookie)
		return ""
	}
	return id
}

// noCookie reports a session cookie r sets.
func noCookie(t *testing.T, what string, r response) {
	t.Helper()
	if lines := setCookies(r); len(lines) != 0 {
		t.Errorf("%s: sets the session cookie %q, want none", what, lines)
	}
}

// expect reports r when it is not 200 body.
func expect(t *testing.T, what string, r response, body string) {
	t.Helper()
	if r.code != http.StatusOK || r.body != body {
		t.Errorf("%s: %d %q, want 200 %q", what, r.code, r.body, body)
	}
}

// newSessionCookie: a request that only reads its session sends no
// cookie; the first write sends one, of a new ID, with the default
// attributes.
func newSessionCookie(t *testing.T, st *sessionServer) {
	r := st.get("/get", "")
	expect(t, "read without a cookie", r, "none")
	noCookie(t, "read without a cookie", r)
	r = st.get("/set/v1", "")
	expect(t, "first write", r, "set")
	if id := issued(t, "first write", r); id != "" {
		expect(t, "read back", st.get("/get", id), "v1")
	}
}

// sessionReadBack: the next requests bring the cookie back, read and
// change the session, and get no new cookie.
func sessionReadBack(t *testing.T, st *sessionServer) {
	id := issued(t, "first write", st.get("/set/v1", ""))
	if id == "" {
		t.FailNow()
	}
	for i, step := range []struct{ path, body string }{
		{"/get", "v1"}, {"/set/v2", "set"}, {"/get", "v2"}, {"/get", "v2"},
	} {
		r := st.get(step.path, id)
		expect(t, "request "+strconv.Itoa(i)+" "+step.path, r, step.body)
		noCookie(t, "request "+strconv.Itoa(i)+" "+step.path, r)
	}
	expect(t, "another client", st.get("/get", ""), "none")
}

// cookieAmongOthers: the session cookie is found among other cookies, in
// a second Cookie field (HTTP/2 cookie crumbs, RFC 9113 8.2.3; repeated
// lines in HTTP/1.1), quoted, and after a session cookie naming no live
// session.
func cookieAmongOthers(t *testing.T, st *sessionServer) {
	id := issued(t, "first write", st.get("/set/v1", ""))
	if id == "" {
		t.FailNow()
	}
	for _, tc := range []struct {
		name   string
		header http.Header
	}{
		{"among others", hdr("Cookie", "a=1; "+sessionCookie+"="+id+"; b=2")},
		{"second Cookie field", hdr("Cookie", "a=1; b=2", "Cookie", sessionCookie+"="+id)},
		{"quoted", hdr("Cookie", sessionCookie+`="`+id+`"`)},
		{"after an unknown one", hdr("Cookie", sessionCookie+"=AAAAAAAAAAAAAAAAAAAAAA; "+sessionCookie+"="+id)},
	} {
		r := st.send("GET", "/get", "", tc.header)
		expect(t, tc.name, r, "v1")
		noCookie(t, tc.name, r)
	}
}

// persistentCookie: with WithExpires the cookie is persistent: Expires
// an hour from now and Max-Age=3600, the default attributes after them.
func persistentCookie(t *testing.T, st *sessionServer) {
	before := time.Now().Truncate(time.Second)
	r := st.get("/set/v1", "")
	after := time.Now()
	lines := setCookies(r)
	if len(lines) != 1 {
		t.Fatalf("first write: session cookies %q, want one", lines)
	}
	c, err := http.ParseSetCookie(lines[0])
	if err != nil {
		t.Fatalf("Set-Cookie %q: %v", lines[0], err)
	}
	if !sessions.ValidID(c.Value) || c.MaxAge != 3600 || c.Expires.Before(before.Add(time.Hour)) || c.Expires.After(after.Add(time.Hour)) ||
		!strings.HasSuffix(lines[0], "; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax") {
		t.Errorf("first write: Set-Cookie %q, want %s=<ID>; Expires=<in an hour>; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax", lines[0], sessionCookie)
	}
	expect(t, "read back", st.get("/get", c.Value), "v1")
}

// secureBehindProxy: a new session's cookie is Secure when a trusted
// proxy says the client's connection is HTTPS, and only then.
func secureBehindProxy(t *testing.T, st *sessionServer) {
	r := st.send("GET", "/set/v1", "", hdr("X-Forwarded-Proto", "https", "X-Forwarded-For", "192.0.2.1"))
	if lines := setCookies(r); len(lines) != 1 || !strings.HasSuffix(lines[0], "; Path=/; HttpOnly; SameSite=Lax; Secure") {
		t.Errorf("behind a TLS proxy: session cookies %q, want one ending ; Path=/; HttpOnly; SameSite=Lax; Secure", lines)
	}
	issued(t, "over plain HTTP", st.get("/set/v1", "")) // no Secure
}

// sessionRegenerate: Regenerate sends a new ID that keeps the values; the
// old ID is dead and is not adopted by a write.
func sessionRegenerate(t *testing.T, st *sessionServer) {
	old := issued(t, "first write", st.get("/set/v1", ""))
	if old == "" {
		t.FailNow()
	}
	r := st.get("/regenerate", old)
	expect(t, "regenerate", r, "regenerated")
	fresh := issued(t, "regenerate", r)
	if fresh == "" || fresh == old {
		t.Fatalf("regenerate: new ID %q, old %q", fresh, old)
	}
	expect(t, "the new ID", st.get("/get", fresh), "v1")
	r = st.get("/get", old)
	expect(t, "the old ID", r, "none")
	noCookie(t, "the old ID read", r)
	r = st.get("/set/v2", old)
	if id := issued(t, "a write with the old ID", r); id == old || id == fresh {
		t.Errorf("a write with the old ID got the cookie %q (old %q, regenerated %q), want a new ID", id, old, fresh)
	}
	expect(t, "the new ID after the old one's write", st.get("/get", fresh), "v1")
}

// sessionDestroy: Destroy expires the cookie and forgets the session.
func sessionDestroy(t *testing.T, st *sessionServer) {
	id := issued(t, "first write", st.get("/set/v1", ""))
	if id == "" {
		t.FailNow()
	}
	r := st.get("/destroy", id)
	expect(t, "destroy", r, "destroyed")
	if lines := setCookies(r); len(lines) != 1 || !strings.HasPrefix(lines[0], sessionCookie+"=;") || !strings.Contains(lines[0], "Max-Age=0") {
		t.Errorf("destroy: session cookies %q, want one expiring it (%s=; ... Max-Age=0)", lines, sessionCookie)
	}
	r = st.get("/get", id)
	expect(t, "the destroyed ID", r, "none")
	noCookie(t, "the destroyed ID read", r)
}

// cookieReplacedInOneResponse: operations that each send the session
// cookie, several in one request, leave one session cookie in the
// response (the last one's) and the request's other cookies as they were.
// A Regenerate after a Destroy acts on a new session, which sends nothing
// until written: the expiring cookie stays.
func cookieReplacedInOneResponse(t *testing.T, st *sessionServer) {
	for _, ops := range []string{"rr", "rd", "dr"} {
		id := issued(t, "first write", st.get("/set/v1", ""))
		if id == "" {
			t.FailNow()
		}
		r := st.get("/twice/"+ops, id)
		expect(t, ops, r, "done")
		if others := slices.DeleteFunc(slices.Clone(r.header.Values("Set-Cookie")), func(l string) bool { return strings.HasPrefix(l, sessionCookie+"=") }); !slices.Equal(others, []string{"other=1"}) {
			t.Errorf("%s: other cookies %q, want [other=1]", ops, others)
		}
		lines := setCookies(r)
		switch {
		case ops == "rd" || ops == "dr":
			if len(lines) != 1 || !strings.Contains(lines[0], "Max-Age=0") {
				t.Errorf("%s: session cookies %q, want one expiring it", ops, lines)
			}
		default:
			if fresh := issued(t, ops, r); fresh == id {
				t.Errorf("%s: the old ID %q sent again", ops, id)
			} else if fresh != "" {
				expect(t, ops+": the last ID", st.get("/get", fresh), "v1")
			}
		}
	}
}

// unknownIDNotAdopted: a cookie naming no live session - well-formed but
// unknown (forged), malformed, oversized - reads as a new, empty session,
// and its first write is given a new ID, never the client's.
func unknownIDNotAdopted(t *testing.T, st *sessionServer) {
	forged := "AAAAAAAAAAAAAAAAAAAAAA"
	if !sessions.ValidID(forged) {
		t.Fatalf("%q is not a well-formed ID: the test needs one", forged)
	}
	for _, bad := range []string{forged, "not-an-id", "../../etc/passwd", strings.Repeat("A", 5000)} {
		what := "cookie " + bad[:min(len(bad), 24)]
		r := st.get("/get", bad)
		expect(t, what+" read", r, "none")
		noCookie(t, what+" read", r)
		r = st.get("/set/planted", bad)
		expect(t, what+" write", r, "set")
		id := issued(t, what+" write", r)
		if id == bad {
			t.Errorf("%s: the client's ID was adopted", what)
		}
		expect(t, what+" read again", st.get("/get", bad), "none")
		if id != "" {
			expect(t, what+" the issued ID", st.get("/get", id), "planted")
		}
	}
}

// concurrentSessions: clients in parallel, over the target's shared
// transport, each write and read their own session: a response never
// carries another client's value or cookie.
func concurrentSessions(t *testing.T, st *sessionServer) {
	const clients, rounds = 8, 25
	var wg sync.WaitGroup
	ids := make([]string, clients)
	for g := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := "c" + strconv.Itoa(g)
			r := st.get("/set/"+who+"-0", "")
			id := issued(t, who+" first write", r)
			if id == "" {
				return
			}
			ids[g] = id
			for i := range rounds {
				v := who + "-" + strconv.Itoa(i)
				w := st.get("/set/"+v, id)
				g := st.get("/get", id)
				if w.body != "set" || g.body != v || len(setCookies(w))+len(setCookies(g)) != 0 {
					t.Errorf("%s round %d: write %d %q %q, read %d %q %q, want set, %q and no cookies",
						who, i, w.code, w.body, setCookies(w), g.code, g.body, setCookies(g), v)
					return
				}
			}
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for g, id := range ids {
		if id == "" {
			continue
		}
		if other, dup := seen[id]; dup {
			t.Errorf("clients %d and %d were given the same session %q", other, g, id)
		}
		seen[id] = g
	}
}

// keptSessionWritesNoOtherResponse: new sessions kept past their requests
// (nothing written, so no cookie yet) are written for the first time -
// which draws their IDs and would set their cookies - while other
// clients' requests run on the same connections: those responses carry
// no session cookie, and the late writes reach the store.
func keptSessionWritesNoOtherResponse(t *testing.T, st *sessionServer) {
	const n = 20
	for i := range n {
		r := st.get("/keep", "")
		expect(t, "keep", r, "kept "+strconv.Itoa(i))
		noCookie(t, "a session nothing wrote to", r)
	}
	for i := range n {
		r := st.get("/late/"+strconv.Itoa(i), "")
		expect(t, "late write "+strconv.Itoa(i), r, "late")
		if lines := r.header.Values("Set-Cookie"); len(lines) != 0 {
			t.Errorf("request %d has the cookie of a session kept from another request: %q", i, lines)
		}
	}
	st.mu.Lock()
	kept := append([]*sessions.Session(nil), st.kept...)
	st.mu.Unlock()
	for i, s := range kept {
		expect(t, "kept session "+strconv.Itoa(i)+" read back by its ID", st.get("/get", s.ID()), "none"+strconv.Itoa(i))
	}
}

// storeFailure: with a store that copies records, a save that fails
// before the response replaces it with 503 Service Unavailable and
// withdraws a new session's cookie; a load that fails answers 503 rather
// than an empty session; the session is intact once the store is back.
func storeFailure(t *testing.T, st *sessionServer) {
	unavailable := func(what string, r response) {
		t.Helper()
		if r.code != http.StatusServiceUnavailable || r.body != "Service Unavailable" {
			t.Errorf("%s: %d %q, want 503 \"Service Unavailable\"", what, r.code, r.body)
		}
		noCookie(t, what, r)
	}
	st.db.failSave.Store(true)
	unavailable("a new session's first write, saves failing", st.get("/set/v0", ""))
	st.db.failSave.Store(false)
	id := issued(t, "first write", st.get("/set/v1", ""))
	if id == "" {
		t.FailNow()
	}
	st.db.failSave.Store(true)
	unavailable("a write, saves failing", st.get("/set/v2", id))
	st.db.failSave.Store(false)
	st.db.failLoad.Store(true)
	unavailable("a read, loads failing", st.get("/get", id))
	st.db.failLoad.Store(false)
	expect(t, "the session once the store is back", st.get("/get", id), "v1")
}

// writeAfterResponseStarted: a new session first written after the
// response started sends no cookie, as a header set then is not sent
// (net/http's rule; an engine that buffers the response must not send
// them either), and an existing session's late write is still kept for
// the next request.
func writeAfterResponseStarted(t *testing.T, st *sessionServer) {
	r := st.get("/after/v0", "")
	expect(t, "new session", r, "written first")
	noCookie(t, "new session written after the body", r)
	if v := r.header.Get("X-After"); v != "" {
		t.Errorf("new session: X-After %q, a header set after the body was sent", v)
	}
	id := issued(t, "first write", st.get("/set/v1", ""))
	if id == "" {
		t.FailNow()
	}
	r = st.get("/after/v2", id)
	expect(t, "existing session", r, "written first")
	noCookie(t, "existing session written after the body", r)
	expect(t, "the late write read back", st.get("/get", id), "v2")
}

// keptSessionGoroutines: goroutines keep new sessions past their requests
// and write them every 100µs (the first write draws the ID and would
// set the cookie) while clients in parallel start sessions of their own
// and read: every response carries its own cookie or none, and every
// session reads back its own value.
func keptSessionGoroutines(t *testing.T, st *sessionServer) {
	const goroutines, clients, rounds = 8, 4, 15
	for range goroutines {
		if r := st.get("/keep-go", ""); r.body != "kept" || len(setCookies(r)) != 0 {
			t.Fatalf("/keep-go: %q, session cookies %q", r.body, setCookies(r))
		}
	}
	close(st.wake)
	var wg sync.WaitGroup
	for g := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				v := "c" + strconv.Itoa(g) + "-" + strconv.Itoa(i)
				if r := st.get("/get", ""); r.body != "none" || len(r.header.Values("Set-Cookie")) != 0 {
					t.Errorf("%s: a read without a cookie answered %q with Set-Cookie %q", v, r.body, r.header.Values("Set-Cookie"))
					return
				}
				id := issued(t, v+" first write", st.get("/set/"+v, ""))
				if id == "" {
					return
				}
				if r := st.get("/get", id); r.body != v || len(setCookies(r)) != 0 {
					t.Errorf("%s: its session reads %q with session cookies %q, want %q and none", v, r.body, setCookies(r), v)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(st.stop)
	st.goroutines.Wait()
}
