// Tests of the net/http forms of the operations (StartHTTP, GetHTTP,
// RegenerateHTTP, DestroyHTTP, UpdateExpirationHTTP): inside Wrap they act
// on the session Wrap started, whose changes are saved just before the
// response; outside Wrap each change is saved at once.

package sessions_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

// copyManager returns a Manager on a copying Database, so that the tests
// see when a change is saved.
func copyManager(t *testing.T) (*sessions.Manager, *copyDB) {
	t.Helper()
	clock := sessiontest.NewClock(epoch)
	db := newCopyDB(clock.Now)
	t.Cleanup(func() { db.Close() })
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now), sessions.WithLogger(quiet))
	return m, db
}

// cookieLine returns the "name=value" of the session cookie res sets, for
// the next request's Cookie header.
func cookieLine(t *testing.T, res *http.Response, name string) string {
	t.Helper()
	c := sessionCookie(res, name)
	if c == nil {
		t.Fatalf("no %s cookie in %v", name, res.Header["Set-Cookie"])
	}
	return c.Name + "=" + c.Value
}

func TestNetHTTPFormsInsideWrap(t *testing.T) {
	m, db := copyManager(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		s := sessions.GetHTTP(r)
		if s == nil {
			t.Fatal("GetHTTP inside Wrap found no session")
		}
		saves := db.saves.Load()
		s.Set("user", "ann")
		if got, err := m.StartHTTP(w, r); err != nil || got != s {
			t.Errorf("StartHTTP: %v, another session than GetHTTP's", err)
		}
		if got, err := m.RegenerateHTTP(w, r); err != nil || got != s {
			t.Errorf("RegenerateHTTP: %v, another session than GetHTTP's", err)
		}
		if err := m.UpdateExpirationHTTP(w, r, time.Hour); err != nil {
			t.Errorf("UpdateExpirationHTTP: %v", err)
		}
		if n := db.saves.Load(); n != saves {
			t.Errorf("%d saves before the response started, want none", n-saves)
		}
		io.WriteString(w, "ok")
		if n := db.saves.Load(); n != saves+1 {
			t.Errorf("%d saves once the response started, want 1", n-saves)
		}
	})
	mux.HandleFunc("/me", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, sessions.GetHTTP(r).GetString("user", "anonymous"))
	})
	mux.HandleFunc("/logout", func(w http.ResponseWriter, r *http.Request) {
		if err := m.DestroyHTTP(w, r); err != nil {
			t.Errorf("DestroyHTTP: %v", err)
		}
		if sessions.GetHTTP(r) != nil {
			t.Error("GetHTTP found the destroyed session")
		}
		if s, err := m.StartHTTP(w, r); err != nil || !s.IsNew() {
			t.Errorf("StartHTTP after DestroyHTTP: %v, not a new session", err)
		}
	})
	h := m.Wrap(mux)

	res := serve(h, "/login", "").Result()
	if c := sessionCookie(res, m.CookieName()); c == nil || c.MaxAge != 3600 {
		t.Fatalf("login cookie %v, want Max-Age=3600", c)
	}
	cookie := cookieLine(t, res, m.CookieName())
	if got := serve(h, "/me", cookie).Body.String(); got != "ann" {
		t.Fatalf("GET /me after the login: %q", got)
	}
	res = serve(h, "/logout", cookie).Result()
	if c := sessionCookie(res, m.CookieName()); c == nil || c.MaxAge >= 0 {
		t.Fatalf("logout cookie %v, want an expired one", c)
	}
	if got := serve(h, "/me", cookie).Body.String(); got != "anonymous" {
		t.Fatalf("GET /me after the logout: %q", got)
	}
}

func TestNetHTTPFormsOutsideWrap(t *testing.T) {
	m, db := copyManager(t)
	name := m.CookieName()
	request := func(cookie string) (*httptest.ResponseRecorder, *http.Request) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if cookie != "" {
			r.Header.Set("Cookie", cookie)
		}
		return httptest.NewRecorder(), r
	}
	user := func(cookie string) (string, bool) {
		t.Helper()
		s, err := m.StartHTTP(request(cookie))
		if err != nil {
			t.Fatal(err)
		}
		return s.GetString("user", "anonymous"), s.IsNew()
	}

	// A new session: its first write is saved at once, with its cookie.
	w, r := request("")
	s, err := m.StartHTTP(w, r)
	if err != nil || !s.IsNew() {
		t.Fatalf("StartHTTP: %v, not a new session", err)
	}
	if sessions.GetHTTP(r) != nil {
		t.Error("GetHTTP outside Wrap found a session")
	}
	s.Set("user", "ann")
	if n := db.saves.Load(); n != 1 {
		t.Fatalf("%d saves after the first write, want 1", n)
	}
	cookie := cookieLine(t, w.Result(), name)
	if u, isNew := user(cookie); u != "ann" || isNew {
		t.Fatalf("the cookie's session: %q new=%v", u, isNew)
	}

	// RegenerateHTTP: a new cookie for the same values; the old ID is dead.
	w, r = request(cookie)
	if s, err := m.RegenerateHTTP(w, r); err != nil || s.GetString("user", "") != "ann" {
		t.Fatalf("RegenerateHTTP: %v", err)
	}
	renamed := cookieLine(t, w.Result(), name)
	if renamed == cookie {
		t.Fatal("RegenerateHTTP kept the cookie")
	}
	if _, isNew := user(cookie); !isNew {
		t.Error("the old cookie still names a session")
	}
	if u, _ := user(renamed); u != "ann" {
		t.Errorf("the new cookie's session: %q", u)
	}

	// UpdateExpirationHTTP: saved at once, a persistent cookie.
	saves := db.saves.Load()
	w, r = request(renamed)
	if err := m.UpdateExpirationHTTP(w, r, time.Hour); err != nil {
		t.Fatal(err)
	}
	if n := db.saves.Load(); n != saves+1 {
		t.Errorf("%d saves by UpdateExpirationHTTP, want 1", n-saves)
	}
	if c := sessionCookie(w.Result(), name); c == nil || c.MaxAge != 3600 {
		t.Errorf("UpdateExpirationHTTP's cookie %v, want Max-Age=3600", c)
	}

	// DestroyHTTP: the session is gone, the cookie expired.
	w, r = request(renamed)
	if err := m.DestroyHTTP(w, r); err != nil {
		t.Fatal(err)
	}
	if c := sessionCookie(w.Result(), name); c == nil || c.MaxAge >= 0 {
		t.Errorf("DestroyHTTP's cookie %v, want an expired one", c)
	}
	if _, isNew := user(renamed); !isNew {
		t.Error("the destroyed session is still found")
	}
}

// TestGetFindsWrapsSession checks the vireo Get inside net/http's Wrap
// mounted with core.WrapMiddleware: it finds the session Wrap started, the
// one GetHTTP finds, and its change is saved before the response.
func TestGetFindsWrapsSession(t *testing.T) {
	m, db := copyManager(t)
	app := core.New(core.WithLogger(quiet))
	app.Use(core.WrapMiddleware(m.Wrap))
	app.Get("/set", func(ctx core.Context) {
		s := sessions.Get(ctx)
		if s == nil || s != sessions.GetHTTP(ctx.Request()) {
			t.Fatalf("Get found %p, GetHTTP %p", s, sessions.GetHTTP(ctx.Request()))
		}
		s.Set("user", "ann")
		ctx.WriteString("ok")
	})
	app.Get("/get", func(ctx core.Context) { ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous")) })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	res := serve(app, "/set", "").Result()
	if n := db.saves.Load(); n != 1 {
		t.Fatalf("%d saves, want 1", n)
	}
	if got := serve(app, "/get", cookieLine(t, res, m.CookieName())).Body.String(); got != "ann" {
		t.Fatalf("GET /get: %q", got)
	}
}
