// Tests of the Manager over real HTTP: cookie attributes, hostile cookies,
// expiration with a fake clock, store outages, net/http interop and
// concurrency.

package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

// quiet discards the logs of the failures the tests provoke.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testApp mounts a Manager on a vireo application with routes that expose
// the session.
type testApp struct {
	m     *sessions.Manager
	db    sessions.Database
	clock *sessiontest.Clock
	srv   *httptest.Server
	app   *core.Application
}

func newTestApp(t *testing.T, opts ...sessions.Option) *testApp {
	t.Helper()
	a := &testApp{clock: sessiontest.NewClock(epoch)}
	// The test's options come last and win.
	opts = append([]sessions.Option{sessions.WithClock(a.clock.Now), sessions.WithLogger(quiet)}, opts...)
	m, err := sessions.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	a.m, a.db = m, m.Database()
	t.Cleanup(func() { m.Close() })
	app := core.New(core.WithLogger(quiet))
	app.Use(m.Handler())
	app.Get("/set", func(ctx core.Context) {
		s := sessions.Get(ctx)
		for k, v := range ctx.Request().URL.Query() {
			s.Set(k, v[0])
		}
		a.info(ctx, s)
	})
	app.Get("/get", func(ctx core.Context) {
		s := sessions.Get(ctx)
		a.info(ctx, s)
		ctx.WriteString(s.GetString(ctx.QueryDefault("key", "name"), ""))
	})
	app.Get("/setget", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("key", "value")
		ctx.WriteString(s.GetString("key", ""))
	})
	app.Get("/many", func(ctx core.Context) {
		s := sessions.Get(ctx)
		for i := 0; i < 10; i++ {
			s.Set("k"+strconv.Itoa(i), i)
		}
	})
	app.Get("/remember", func(ctx core.Context) {
		if err := m.UpdateExpiration(ctx, 30*24*time.Hour); err != nil {
			ctx.StopWithError(err)
		}
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	a.app = app
	a.srv = httptest.NewServer(app)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *testApp) info(ctx core.Context, s *sessions.Session) {
	ctx.SetResponseHeader("X-Session", s.ID())
	ctx.SetResponseHeader("X-New", strconv.FormatBool(s.IsNew()))
}

// do sends a request with the given Cookie header (none when empty).
func (a *testApp) do(t *testing.T, path, cookieHeader string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cookieHeader != "" {
		req.Header.Set("Cookie", cookieHeader)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(strings.NewReader(string(body)))
	return res
}

func bodyOf(res *http.Response) string {
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func sessionCookie(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func jarClient(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar}
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

func TestCookieAttributes(t *testing.T) {
	tests := []struct {
		name      string
		opts      []sessions.Option
		want, not []string
	}{
		{"defaults", nil, []string{"vireo_sid=", "; Path=/", "; HttpOnly", "; SameSite=Lax"}, []string{"Expires=", "Max-Age", "Secure", "Domain"}},
		{"persistent", []sessions.Option{sessions.WithExpires(time.Hour)}, []string{"; Max-Age=3600", "; Expires=Fri, 02 Jan 2026 04:04:05 GMT"}, nil},
		{"custom", []sessions.Option{sessions.WithCookie("sid"), sessions.WithPath("/app"), sessions.WithDomain("example.com"),
			sessions.WithSecure(), sessions.WithHTTPOnly(false), sessions.WithSameSite(http.SameSiteStrictMode)},
			[]string{"sid=", "; Path=/app", "; Domain=example.com", "; Secure", "; SameSite=Strict"}, []string{"HttpOnly"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestApp(t, tt.opts...)
			res := a.do(t, "/set?name=x", "")
			sc := res.Header.Get("Set-Cookie")
			for _, w := range tt.want {
				if !strings.Contains(sc, w) {
					t.Errorf("Set-Cookie %q lacks %q", sc, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(sc, n) {
					t.Errorf("Set-Cookie %q has %q", sc, n)
				}
			}
			if len(res.Header.Values("Set-Cookie")) != 1 {
				t.Errorf("%d Set-Cookie headers", len(res.Header.Values("Set-Cookie")))
			}
		})
	}
}

func TestSetInOneRequestReadInNext(t *testing.T) {
	a := newTestApp(t)
	c := jarClient(t)
	res, _ := get(t, c, a.srv.URL+"/set?name=gopher")
	id := res.Header.Get("X-Session")
	res, body := get(t, c, a.srv.URL+"/get")
	if body != "gopher" || res.Header.Get("X-Session") != id || res.Header.Get("X-New") != "false" {
		t.Fatalf("second request: %q session %s new=%s, want gopher in %s", body, res.Header.Get("X-Session"), res.Header.Get("X-New"), id)
	}
	if res.Header.Get("Set-Cookie") != "" {
		t.Errorf("browser-session cookie re-sent on an existing session: %q", res.Header.Get("Set-Cookie"))
	}
}

// TestHostileCookies: whatever the cookie, the request gets a new session
// with a server-made ID, and no data leaks.
func TestHostileCookies(t *testing.T) {
	a := newTestApp(t)
	victim := a.do(t, "/set?name=victim", "")
	victimID := victim.Header.Get("X-Session")
	chosen, _ := sessions.NewID()
	nonCanonical := victimID[:sessions.IDLength-1] + string(rune(victimID[sessions.IDLength-1]+1))
	tests := []struct{ name, header string }{
		{"empty", "vireo_sid="},
		{"short", "vireo_sid=abc"},
		{"oversized", "vireo_sid=" + strings.Repeat("A", 5000)},
		{"bad characters", "vireo_sid=" + strings.Repeat("!", sessions.IDLength)},
		{"path traversal", "vireo_sid=../../../../etc/passwd"},
		{"client-chosen ID", "vireo_sid=" + chosen},
		{"victim ID with one bit changed", "vireo_sid=" + nonCanonical},
		{"victim ID under another name", "other=" + victimID},
		{"victim ID as a prefix", "vireo_sid=" + victimID + "A"},
		{"many cookies", strings.Repeat("vireo_sid="+chosen+"; ", 50)},
		{"quoted", `vireo_sid="` + chosen + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := a.do(t, "/get", tt.header)
			id := res.Header.Get("X-Session")
			if res.StatusCode != 200 || bodyOf(res) != "" {
				t.Fatalf("got %d %q", res.StatusCode, bodyOf(res))
			}
			if res.Header.Get("X-New") != "true" || id == victimID || id == chosen || !sessions.ValidID(id) {
				t.Fatalf("session %s (new=%s): want a new server-made ID", id, res.Header.Get("X-New"))
			}
			// The new session was only read: no cookie, nothing stored.
			if ck := sessionCookie(res, "vireo_sid"); ck != nil {
				t.Fatalf("cookie %v sent for a session nobody wrote to", ck)
			}
			if rec, _ := a.db.Load(context.Background(), id); rec != nil {
				t.Fatal("a read-only new session was stored")
			}
		})
	}
	// Writing to a session started from a chosen ID stores it under the
	// server's ID, never the chosen one.
	res := a.do(t, "/set?name=attacker", "vireo_sid="+chosen)
	if res.Header.Get("X-Session") == chosen {
		t.Fatal("client-chosen ID adopted")
	}
	if rec, _ := a.db.Load(context.Background(), chosen); rec != nil {
		t.Fatal("client-chosen ID stored")
	}
	// A valid cookie after garbage ones is still found.
	res = a.do(t, "/get", "vireo_sid=garbage; vireo_sid="+victimID)
	if bodyOf(res) != "victim" {
		t.Fatalf("valid cookie after a bad one: got %q", bodyOf(res))
	}
}

func TestSecureCookie(t *testing.T) {
	sc := securecookie.New(securecookie.GenerateRandomKey(32), securecookie.GenerateRandomKey(32))
	other := securecookie.New(securecookie.GenerateRandomKey(32), securecookie.GenerateRandomKey(32))
	a := newTestApp(t, sessions.WithEncoding(sc))
	res := a.do(t, "/set?name=gopher", "")
	id := res.Header.Get("X-Session")
	ck := sessionCookie(res, "vireo_sid")
	if ck == nil || strings.Contains(ck.Value, id) {
		t.Fatalf("cookie %v: want an encrypted value not containing the ID", ck)
	}
	if got := bodyOf(a.do(t, "/get", "vireo_sid="+ck.Value)); got != "gopher" {
		t.Fatalf("genuine cookie: got %q", got)
	}
	flipped := []byte(ck.Value)
	mid := len(flipped) / 2
	if flipped[mid] == 'A' {
		flipped[mid] = 'B'
	} else {
		flipped[mid] = 'A'
	}
	foreign, _ := other.Encode("vireo_sid", id)
	renamed, _ := sc.Encode("other_name", id)
	tests := []struct{ name, value string }{
		{"tampered", string(flipped)},
		{"truncated", ck.Value[:len(ck.Value)-4]},
		{"bare ID", id},
		{"other keys", foreign},
		{"other cookie name", renamed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := a.do(t, "/get", "vireo_sid="+tt.value)
			if bodyOf(res) != "" || res.Header.Get("X-New") != "true" || res.Header.Get("X-Session") == id {
				t.Fatalf("got %q in session %s (new=%s), want a new empty session", bodyOf(res), res.Header.Get("X-Session"), res.Header.Get("X-New"))
			}
		})
	}
	// A genuine cookie longer than MaxCookieLength is not even decoded.
	short := newTestApp(t, sessions.WithEncoding(sc), sessions.WithMaxCookieLength(64))
	res = short.do(t, "/set?name=gopher", "")
	long := sessionCookie(res, "vireo_sid").Value
	if len(long) <= 64 {
		t.Fatalf("encoded cookie is only %d bytes", len(long))
	}
	if res2 := short.do(t, "/get", "vireo_sid="+long); bodyOf(res2) != "" || res2.Header.Get("X-New") != "true" {
		t.Fatal("an oversized cookie was accepted")
	}
}

func TestExpirationWithFakeClock(t *testing.T) {
	t.Run("default lifetime", func(t *testing.T) {
		a := newTestApp(t)
		c := jarClient(t)
		get(t, c, a.srv.URL+"/set?name=gopher")
		a.clock.Advance(sessions.DefaultLifetime - time.Second)
		if _, body := get(t, c, a.srv.URL+"/get"); body != "gopher" {
			t.Fatalf("gone before the lifetime: %q", body)
		}
		a.clock.Advance(sessions.DefaultLifetime + time.Second)
		if _, body := get(t, c, a.srv.URL+"/get"); body != "" {
			t.Fatalf("alive after an idle lifetime: %q", body)
		}
	})
	t.Run("fixed", func(t *testing.T) {
		a := newTestApp(t, sessions.WithLifetime(10*time.Minute), sessions.WithFixedExpiration())
		c := jarClient(t)
		get(t, c, a.srv.URL+"/set?name=gopher")
		a.clock.Advance(6 * time.Minute)
		if _, body := get(t, c, a.srv.URL+"/get"); body != "gopher" {
			t.Fatalf("gone early: %q", body)
		}
		a.clock.Advance(6 * time.Minute)
		if _, body := get(t, c, a.srv.URL+"/get"); body != "" {
			t.Fatalf("a fixed-expiration session slid: %q", body)
		}
	})
	t.Run("persistent cookie slides", func(t *testing.T) {
		a := newTestApp(t, sessions.WithExpires(time.Hour))
		res := a.do(t, "/set?name=gopher", "")
		cookie := "vireo_sid=" + sessionCookie(res, "vireo_sid").Value
		a.clock.Advance(time.Minute)
		if res := a.do(t, "/get", cookie); res.Header.Get("Set-Cookie") != "" {
			t.Fatalf("cookie re-sent after 1/60 of its lifetime: %q", res.Header.Get("Set-Cookie"))
		}
		a.clock.Advance(4 * time.Minute)
		res = a.do(t, "/get", cookie)
		sc := res.Header.Get("Set-Cookie")
		want := "Expires=" + a.clock.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
		if !strings.Contains(sc, want) || !strings.Contains(sc, "Max-Age=3600") {
			t.Fatalf("after 5 minutes the cookie %q should be re-sent with %s", sc, want)
		}
		a.clock.Advance(58 * time.Minute) // 63 minutes after creation, 58 after the slide
		if bodyOf(a.do(t, "/get", cookie)) != "gopher" {
			t.Fatal("the slid session expired")
		}
	})
	t.Run("remember me", func(t *testing.T) {
		a := newTestApp(t)
		c := jarClient(t)
		get(t, c, a.srv.URL+"/set?name=gopher")
		res, _ := get(t, c, a.srv.URL+"/remember")
		if sc := res.Header.Get("Set-Cookie"); !strings.Contains(sc, "Max-Age=2592000") {
			t.Fatalf("remember-me cookie %q", sc)
		}
		a.clock.Advance(48 * time.Hour)
		if _, body := get(t, c, a.srv.URL+"/get"); body != "gopher" {
			t.Fatalf("remembered session gone after 2 days: %q", body)
		}
	})
}

// TestFloodIsBounded: cookie-less clients each create a session; the store
// grows by one per request and is emptied once the lifetime has passed
// (here by an explicit sweep; the sweeper goroutine calls the same Sweep).
func TestFloodIsBounded(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := sessions.NewMemoryDatabase(sessions.WithMemoryClock(clock.Now), sessions.WithSweepInterval(-1))
	defer db.Close()
	a := newTestApp(t, sessions.WithDatabase(db), sessions.WithClock(clock.Now))
	const n = 5000
	for i := 0; i < n; i++ {
		rec := httptest.NewRecorder()
		a.app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/setget", nil))
		if rec.Body.String() != "value" {
			t.Fatalf("request %d: %q", i, rec.Body.String())
		}
	}
	if got := db.Len(); got != n {
		t.Fatalf("%d sessions stored after %d cookie-less requests", got, n)
	}
	clock.Advance(sessions.DefaultLifetime - time.Second)
	if removed := db.Sweep(); removed != 0 || db.Len() != n {
		t.Fatalf("sweep before the lifetime removed %d", removed)
	}
	clock.Advance(2 * time.Second)
	if removed := db.Sweep(); removed != n || db.Len() != 0 {
		t.Fatalf("sweep after the lifetime removed %d, %d left", removed, db.Len())
	}
	// Reading a session without writing stores nothing.
	for i := 0; i < 100; i++ {
		a.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/get", nil))
	}
	if db.Len() != 0 {
		t.Fatalf("read-only requests stored %d sessions", db.Len())
	}
}

func TestStoreOutage(t *testing.T) {
	for _, shared := range []bool{true, false} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			clock := sessiontest.NewClock(epoch)
			var inner sessions.Database = newCopyDB(clock.Now)
			if shared {
				inner = sessions.NewMemoryDatabase(sessions.WithMemoryClock(clock.Now))
			}
			db := &switchDB{Database: inner}
			defer db.Close()
			a := newTestApp(t, sessions.WithDatabase(db), sessions.WithClock(clock.Now))
			c := jarClient(t)
			get(t, c, a.srv.URL+"/set?name=gopher")
			db.down.Store(true)
			res, body := get(t, c, a.srv.URL+"/get")
			if res.StatusCode != http.StatusServiceUnavailable || strings.Contains(body, "gopher") {
				t.Fatalf("during the outage: %d %q, want 503", res.StatusCode, body)
			}
			if res.Header.Get("Set-Cookie") != "" {
				t.Fatal("the outage replaced the user's cookie")
			}
			db.down.Store(false)
			if _, body := get(t, c, a.srv.URL+"/get"); body != "gopher" {
				t.Fatalf("after recovery: %q", body)
			}
		})
	}
}

func TestStartWithoutHandlerOnOutage(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := &switchDB{Database: newCopyDB(clock.Now)}
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now), sessions.WithLogger(quiet))
	defer db.Close()
	app := core.New(core.WithLogger(quiet))
	var startErr error
	app.Get("/", func(ctx core.Context) {
		_, startErr = m.Start(ctx)
		if startErr != nil {
			ctx.StopWithError(startErr)
		}
	})
	db.down.Store(true)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	id, _ := sessions.NewID()
	req.Header.Set("Cookie", "vireo_sid="+id)
	app.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", rec.Code)
	}
	var se *sessions.StoreError
	if !errors.As(startErr, &se) || !errors.Is(startErr, errDown) || se.Op != "load" {
		t.Fatalf("Start error %v, want a *StoreError wrapping the store's", startErr)
	}
}

// TestRemoteSavesOncePerRequest: with a copying store, the Handler saves a
// modified session once after the chain and not at all when unmodified.
func TestRemoteSavesOncePerRequest(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := newCopyDB(clock.Now)
	defer db.Close()
	a := newTestApp(t, sessions.WithDatabase(db), sessions.WithClock(clock.Now))
	c := jarClient(t)
	get(t, c, a.srv.URL+"/many")
	if n := db.saves.Load(); n != 1 {
		t.Fatalf("%d saves for one request with 10 writes", n)
	}
	get(t, c, a.srv.URL+"/get?key=k3")
	get(t, c, a.srv.URL+"/get")
	if n := db.saves.Load(); n != 1 {
		t.Fatalf("read-only requests saved (%d saves)", n)
	}
	get(t, c, a.srv.URL+"/set?name=x")
	if n := db.saves.Load(); n != 2 {
		t.Fatalf("%d saves after a second writing request, want 2", n)
	}
}

func TestNetHTTPWrap(t *testing.T) {
	m := sessions.MustNew()
	defer m.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		sessions.GetHTTP(r).Set("name", r.URL.Query().Get("name"))
	})
	mux.HandleFunc("/get", func(w http.ResponseWriter, r *http.Request) {
		s, err := m.StartHTTP(w, r) // the session Wrap started
		if err != nil || s != sessions.GetHTTP(r) {
			t.Errorf("Start inside Wrap: %v, another session than Get's", err)
		}
		io.WriteString(w, s.GetString("name", ""))
	})
	srv := httptest.NewServer(m.Wrap(mux))
	defer srv.Close()
	c := jarClient(t)
	get(t, c, srv.URL+"/set?name=gopher")
	if _, body := get(t, c, srv.URL+"/get"); body != "gopher" {
		t.Fatalf("got %q", body)
	}
}

func TestOptionValidation(t *testing.T) {
	bad := []struct {
		name string
		opt  sessions.Option
	}{
		{"cookie with a space", sessions.WithCookie("a b")},
		{"cookie with a semicolon", sessions.WithCookie("a;b")},
		{"empty cookie", sessions.WithCookie("")},
		{"negative expiry", sessions.WithExpires(-time.Second)},
		{"negative lifetime", sessions.WithLifetime(-1)},
		{"relative path", sessions.WithPath("relative")},
		{"path with a semicolon", sessions.WithPath("/a;b")},
		{"domain with a space", sessions.WithDomain("exa mple.com")},
		{"negative cookie length", sessions.WithMaxCookieLength(-1)},
		{"unknown SameSite", sessions.WithSameSite(http.SameSite(9))},
		{"nil database", sessions.WithDatabase(nil)},
		{"nil encoding", sessions.WithEncoding(nil)},
		{"nil clock", sessions.WithClock(nil)},
		{"nil logger", sessions.WithLogger(nil)},
		{"nil option", nil},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if m, err := sessions.New(tt.opt); err == nil {
				m.Close()
				t.Errorf("New accepted %s", tt.name)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("MustNew did not panic on an invalid option")
		}
	}()
	sessions.MustNew(sessions.WithCookie("a b"))
}

// TestOneSessionManyGoroutines shares one *Session between goroutines and
// concurrent requests carrying the same cookie (run with -race).
func TestOneSessionManyGoroutines(t *testing.T) {
	a := newTestApp(t)
	res := a.do(t, "/set?name=gopher", "")
	cookie := "vireo_sid=" + sessionCookie(res, "vireo_sid").Value
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Cookie", cookie)
	s, err := a.m.StartHTTP(httptest.NewRecorder(), req)
	if err != nil || s.IsNew() {
		t.Fatalf("Start: %v new=%v", err, s.IsNew())
	}
	const goroutines, ops = 16, 200
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			key := "g" + strconv.Itoa(g)
			for i := 0; i < ops; i++ {
				s.Set(key, i)
				s.SetFlash(key, i)
				_ = s.GetInt(key, -1)
				_ = s.GetFlash(key)
				_ = s.Keys()
				_ = s.Len()
				_ = s.ID()
			}
		}(g)
	}
	// Concurrent requests with the same cookie read and write it too.
	for r := 0; r < 8; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				a.do(t, "/set?r"+strconv.Itoa(r)+"="+strconv.Itoa(i), cookie)
			}
		}(r)
	}
	wg.Wait()
	for g := 0; g < goroutines; g++ {
		if got := s.GetInt("g"+strconv.Itoa(g), -1); got != ops-1 {
			t.Errorf("g%d = %d, want %d", g, got, ops-1)
		}
	}
	if bodyOf(a.do(t, "/get?key=r3", cookie)) != "19" || s.GetString("name", "") != "gopher" {
		t.Error("a concurrent request's write was lost")
	}
	if n := s.Len(); n != 1+goroutines+8 {
		t.Errorf("Len = %d, want %d", n, 1+goroutines+8)
	}
}

func TestManySessionsAtOnce(t *testing.T) {
	a := newTestApp(t)
	const clients = 32
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			jar, _ := cookiejar.New(nil)
			c := &http.Client{Jar: jar}
			for j := 0; j < 10; j++ {
				v := fmt.Sprintf("c%d-%d", i, j)
				if _, err := c.Get(a.srv.URL + "/set?name=" + url.QueryEscape(v)); err != nil {
					errs <- err
					return
				}
				res, err := c.Get(a.srv.URL + "/get")
				if err != nil {
					errs <- err
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if string(b) != v {
					errs <- fmt.Errorf("client %d read %q, want %q", i, b, v)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := a.db.(*sessions.MemoryDatabase).Len(); n != clients {
		t.Errorf("%d sessions stored for %d clients", n, clients)
	}
}

// TestSameValueIsNotAWrite: re-setting an equal scalar does not save.
func TestSameValueIsNotAWrite(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := newCopyDB(clock.Now)
	defer db.Close()
	a := newTestApp(t, sessions.WithDatabase(db), sessions.WithClock(clock.Now))
	c := jarClient(t)
	get(t, c, a.srv.URL+"/set?name=gopher")
	get(t, c, a.srv.URL+"/set?name=gopher")
	if n := db.saves.Load(); n != 1 {
		t.Fatalf("%d saves, want 1: the second request set an equal value", n)
	}
	get(t, c, a.srv.URL+"/set?name=ann")
	if n := db.saves.Load(); n != 2 {
		t.Fatalf("%d saves after a real change, want 2", n)
	}
}

// TestStartWithContextAllocatesNothing checks that Start does not copy its
// core.Context to the heap: Start on a returning in-memory session
// allocates nothing, as Handler and Get do.
func TestStartWithContextAllocatesNothing(t *testing.T) {
	m := sessions.MustNew()
	defer m.Close()
	app := core.New()
	app.Get("/", func(ctx core.Context) {
		s, err := m.Start(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("n", 1)
		ctx.WriteString("ok")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	ck := rec.Result().Cookies()
	if len(ck) != 1 {
		t.Fatalf("cookies %v", ck)
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(ck[0])
	w := &benchWriter{h: make(http.Header)}
	app.ServeHTTP(w, req) // the first return makes the shared handle
	if n := testing.AllocsPerRun(100, func() { w.reset(); app.ServeHTTP(w, req) }); n != 0 {
		t.Fatalf("%v allocations per request", n)
	}
}

// TestSecureBehindTrustedProxy is the regression test of issue 22 item 7:
// behind a TLS-terminating proxy trusted with core.WithTrustedProxies, the
// session cookie is Secure, as HSTS and the CSRF cookie are, because the
// Manager asks the one scheme check (Context.IsTLS) rather than the
// request's own TLS; from an untrusted peer the header changes nothing.
func TestSecureBehindTrustedProxy(t *testing.T) {
	m := sessions.MustNew(sessions.WithLogger(quiet))
	t.Cleanup(func() { m.Close() })
	app := core.New(core.WithLogger(quiet), core.WithTrustedProxies("X-Forwarded-For", "192.0.2.0/24"))
	app.Use(m.Handler())
	app.Get("/new", func(ctx core.Context) { sessions.Get(ctx).Set("k", "v") })
	app.Get("/regenerate", func(ctx core.Context) {
		sessions.Get(ctx).Set("k", "v")
		if _, err := m.Regenerate(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	app.Get("/destroy", func(ctx core.Context) {
		sessions.Get(ctx).Set("k", "v")
		if err := m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, target, peer, proto string
		secure                    bool
	}{
		{"trusted proxy, https", "http://example.com", "192.0.2.7:1234", "https", true},
		{"trusted proxy, http", "http://example.com", "192.0.2.7:1234", "http", false},
		{"untrusted peer claiming https", "http://example.com", "203.0.113.9:1234", "https", false},
		{"own TLS", "https://example.com", "203.0.113.9:1234", "", true},
	}
	for _, tt := range tests {
		for _, path := range []string{"/new", "/regenerate", "/destroy"} {
			req := httptest.NewRequest("GET", tt.target+path, nil)
			req.RemoteAddr = tt.peer
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			cookies := rec.Result().Cookies()
			if len(cookies) != 1 || cookies[0].Name != m.CookieName() {
				t.Fatalf("%s %s: cookies %v", tt.name, path, cookies)
			}
			if cookies[0].Secure != tt.secure {
				t.Errorf("%s %s: Secure = %v, want %v", tt.name, path, cookies[0].Secure, tt.secure)
			}
		}
	}
}
