// Tests of the save before the response (issue 12 item 9): a session
// change the Database cannot store turns the response into 503 Service
// Unavailable whenever the response has not started, through vireo (with
// and without the Handler middleware) and through net/http's Wrap.

package sessions_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

// writers are the ways a handler starts its response after a session
// change.
var writers = []struct {
	path  string
	write func(w http.ResponseWriter, r *http.Request)
	ok    int
}{
	{"/body", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "logged in") }, http.StatusOK},
	{"/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusSeeOther) }, http.StatusSeeOther},
	{"/status", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) }, http.StatusCreated},
	{"/flush", func(w http.ResponseWriter, _ *http.Request) {
		w.(http.Flusher).Flush()
		io.WriteString(w, "logged in")
	}, http.StatusOK},
	{"/nothing", func(http.ResponseWriter, *http.Request) {}, http.StatusOK},
}

// saveApps returns the three ways of mounting m, each serving the writers
// after setting "user" in the session.
func saveApps(t *testing.T, m *sessions.Manager) map[string]http.Handler {
	t.Helper()
	apps := map[string]http.Handler{}
	for _, mode := range []string{"Handler", "Start"} {
		app := core.New(core.WithLogger(quiet))
		if mode == "Handler" {
			app.Use(m.Handler())
		}
		for _, wr := range writers {
			wr := wr
			app.Get(wr.path, func(ctx core.Context) {
				s, err := m.Start(ctx)
				if err != nil {
					ctx.StopWithError(err)
					return
				}
				s.Set("user", ctx.QueryDefault("user", "ann"))
				wr.write(ctx.ResponseWriter(), ctx.Request())
			})
		}
		if err := app.Build(); err != nil {
			t.Fatal(err)
		}
		apps["vireo/"+mode] = app
	}
	mux := http.NewServeMux()
	for _, wr := range writers {
		wr := wr
		mux.HandleFunc(wr.path, func(w http.ResponseWriter, r *http.Request) {
			s := sessions.GetHTTP(r)
			user := r.URL.Query().Get("user")
			if user == "" {
				user = "ann"
			}
			s.Set("user", user)
			wr.write(w, r)
		})
	}
	apps["net/http/Wrap"] = m.Wrap(mux)
	return apps
}

func serve(h http.Handler, path, cookie string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	h.ServeHTTP(rec, req)
	return rec
}

func TestFailedSaveIs503(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := &switchDB{Database: newCopyDB(clock.Now)}
	defer db.Close()
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now), sessions.WithLogger(quiet))
	for name, h := range saveApps(t, m) {
		for _, wr := range writers {
			t.Run(name+wr.path, func(t *testing.T) {
				// The store works: the handler's response and a cookie.
				db.writesDown.Store(false)
				rec := serve(h, wr.path, "")
				cookies := rec.Result().Cookies()
				if rec.Code != wr.ok || len(cookies) != 1 {
					t.Fatalf("store up: %d with cookies %v, want %d and the session cookie", rec.Code, cookies, wr.ok)
				}
				cookie := cookies[0].Name + "=" + cookies[0].Value

				// A new session that cannot be stored: 503, no cookie,
				// nothing of the handler's body.
				db.writesDown.Store(true)
				rec = serve(h, wr.path+"?user=bob", "")
				if rec.Code != http.StatusServiceUnavailable || len(rec.Result().Cookies()) != 0 || strings.Contains(rec.Body.String(), "logged in") {
					t.Fatalf("new session, store down: %d %q cookies %v, want 503 without cookie", rec.Code, rec.Body.String(), rec.Result().Cookies())
				}

				// A change to an existing session that cannot be saved:
				// 503, and the stored session keeps its old value.
				rec = serve(h, wr.path+"?user=eve", cookie)
				if rec.Code != http.StatusServiceUnavailable || strings.Contains(rec.Body.String(), "logged in") {
					t.Fatalf("existing session, store down: %d %q, want 503", rec.Code, rec.Body.String())
				}
				db.writesDown.Store(false)
				id, _ := strings.CutPrefix(cookie, m.CookieName()+"=")
				stored, err := db.Load(context.Background(), id)
				if err != nil || stored == nil {
					t.Fatalf("session gone after a failed save: %v", err)
				}
				if v := stored.Snapshot().Values; len(v) != 1 || v[0].Value != "ann" {
					t.Fatalf("stored values %v, want user=ann", v)
				}
			})
		}
	}
}

// TestSaveRunsBeforeTheFirstByte: the save has happened when the handler's
// first byte goes out, so a client that reads the response and comes back
// at once finds the change.
func TestSaveRunsBeforeTheFirstByte(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := newCopyDB(clock.Now)
	defer db.Close()
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now), sessions.WithLogger(quiet))
	app := core.New(core.WithLogger(quiet))
	app.Use(m.Handler())
	app.Get("/", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("user", "ann")
		before := db.saves.Load()
		ctx.WriteString("x")
		if db.saves.Load() != before+1 {
			t.Error("the first write did not save the session")
		}
		ctx.WriteString("y")
		s.Set("late", true) // after the response started: saved once it is finished
		if db.saves.Load() != before+1 {
			t.Error("a write after the response started saved at once")
		}
	})
	rec := serve(app, "/", "")
	if rec.Body.String() != "xy" || db.saves.Load() != 2 {
		t.Fatalf("body %q after %d saves, want 2 (before the first byte, after the response)", rec.Body.String(), db.saves.Load())
	}
}

// TestWriteAfterResponseStarted: with a copying store, a change to an
// existing session made after the response started is saved once the
// response is finished - through vireo with and without the Handler
// middleware, with a session started only after the body, and through
// net/http's Wrap - while a new session first written then sends no
// cookie and is not stored (nobody holds its ID).
func TestWriteAfterResponseStarted(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	db := newCopyDB(clock.Now)
	defer db.Close()
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithClock(clock.Now), sessions.WithLogger(quiet))
	apps := map[string]http.Handler{}
	for _, mode := range []string{"Handler", "Start", "StartAfterBody"} {
		app := core.New(core.WithLogger(quiet))
		if mode == "Handler" {
			app.Use(m.Handler())
		}
		app.Get("/set", func(ctx core.Context) {
			s, err := m.Start(ctx)
			if err != nil {
				ctx.StopWithError(err)
				return
			}
			s.Set("user", ctx.Query("user"))
			ctx.WriteString("set")
		})
		app.Get("/after", func(ctx core.Context) {
			var s *sessions.Session
			var err error
			if mode != "StartAfterBody" {
				s, err = m.Start(ctx)
			}
			ctx.WriteString("written first")
			if s == nil && err == nil {
				s, err = m.Start(ctx)
			}
			if err != nil {
				t.Errorf("%s: Start: %v", mode, err)
				return
			}
			s.Set("user", ctx.Query("user"))
		})
		if err := app.Build(); err != nil {
			t.Fatal(err)
		}
		apps["vireo/"+mode] = app
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		sessions.GetHTTP(r).Set("user", r.URL.Query().Get("user"))
		io.WriteString(w, "set")
	})
	mux.HandleFunc("/after", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "written first")
		sessions.GetHTTP(r).Set("user", r.URL.Query().Get("user"))
	})
	apps["net/http/Wrap"] = m.Wrap(mux)
	for name, h := range apps {
		t.Run(name, func(t *testing.T) {
			records := db.inner.Len()
			rec := serve(h, "/after?user=bob", "")
			if rec.Body.String() != "written first" || len(rec.Result().Cookies()) != 0 {
				t.Fatalf("new session written after the body: %q with cookies %v, want no cookie", rec.Body.String(), rec.Result().Cookies())
			}
			if n := db.inner.Len(); n != records {
				t.Fatalf("a new session first written after the body was stored: %d records, want %d", n, records)
			}
			rec = serve(h, "/set?user=ann", "")
			cookies := rec.Result().Cookies()
			if rec.Body.String() != "set" || len(cookies) != 1 {
				t.Fatalf("first write: %q with cookies %v", rec.Body.String(), cookies)
			}
			rec = serve(h, "/after?user=eve", cookies[0].Name+"="+cookies[0].Value)
			if rec.Body.String() != "written first" || len(rec.Result().Cookies()) != 0 {
				t.Fatalf("existing session written after the body: %q with cookies %v", rec.Body.String(), rec.Result().Cookies())
			}
			stored, err := db.Load(context.Background(), cookies[0].Value)
			if err != nil || stored == nil {
				t.Fatalf("session gone: %v", err)
			}
			if v := stored.Snapshot().Values; len(v) != 1 || v[0].Value != "eve" {
				t.Fatalf("stored values %v, want user=eve: the change after the body was lost", v)
			}
		})
	}
}
