package sessions_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// TestErrorPageSeesSession checks that an error page runs with the
// middleware that ran for its request: with app.Use(m.Handler()), as the
// sessions documentation shows, a custom 404 page for an unmatched path,
// the app-wide OnError page and the page of a matched route that stops with
// 403 all read the session (the 404 page got a nil *Session, panicked and
// answered an empty 500).
func TestErrorPageSeesSession(t *testing.T) {
	m := sessions.MustNew()
	defer m.Close()
	app := core.New()
	app.Use(m.Handler())
	page := func(ctx core.Context) {
		ctx.Text("page for " + sessions.Get(ctx).GetString("user", "nobody"))
	}
	app.OnErrorCode(http.StatusNotFound, page)
	app.OnErrorCode(http.StatusForbidden, page)
	app.Get("/login", func(ctx core.Context) { sessions.Get(ctx).Set("user", "ann"); ctx.Text("in") })
	app.Get("/private", func(ctx core.Context) { ctx.StopWithStatus(http.StatusForbidden) })
	api := app.Group("/api")
	api.OnErrorCode(http.StatusNotFound, page)

	srv := httptest.NewServer(app)
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie := res.Header.Get("Set-Cookie")
	for path, want := range map[string]int{"/missing": 404, "/api/missing": 404, "/private": 403} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Cookie", strings.SplitN(cookie, ";", 2)[0])
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want || string(body) != "page for ann" {
			t.Errorf("GET %s = %d %q, want %d %q", path, res.StatusCode, body, want, "page for ann")
		}
	}

	// OnError, the app-wide page, runs behind the same middleware.
	app2 := core.New()
	app2.Use(m.Handler())
	app2.OnError(func(ctx core.Context, err error) { ctx.Text("oops " + sessions.Get(ctx).GetString("user", "nobody")) })
	w := httptest.NewRecorder()
	app2.ServeHTTP(w, httptest.NewRequest("GET", "/missing", nil))
	if w.Code != 404 || w.Body.String() != "oops nobody" {
		t.Errorf("OnError page = %d %q", w.Code, w.Body)
	}
}

// TestNilSession checks that every method of a nil *Session is safe: reads
// give zero values or the defaults, writes are ignored.
func TestNilSession(t *testing.T) {
	var s *sessions.Session
	if s.ID() != "" || s.IsNew() || s.Destroyed() || !s.ExpiresAt().Equal(time.Time{}) || s.Get("k") != nil || s.Len() != 0 || s.Keys() != nil {
		t.Error("nil Session reads are not zero")
	}
	if v, ok := s.Lookup("k"); v != nil || ok {
		t.Error("Lookup")
	}
	if s.GetString("k", "d") != "d" || s.GetInt("k", 7) != 7 || s.GetInt64("k", 8) != 8 || s.GetFloat64("k", 1.5) != 1.5 || !s.GetBool("k", true) {
		t.Error("nil Session getters do not return the defaults")
	}
	s.Set("k", 1)
	s.SetFlash("f", 1)
	s.Clear()
	if s.Delete("k") || s.GetFlash("f") != nil || s.PeekFlash("f") != nil || s.HasFlash("f") || s.Save() != nil {
		t.Error("nil Session writes")
	}
}
