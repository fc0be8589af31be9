package main

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/serverlimits"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "nethttp-sessions") }

// TestServerMatchesVireo compares the limits of this app's server with
// those Vireo's Serve gives its own (see serverlimits.CheckMatchesVireo).
func TestServerMatchesVireo(t *testing.T) { serverlimits.CheckMatchesVireo(t, newServer) }

// TestSetGet drives the handler through new, resumed, unknown, expired and
// evicted sessions.
func TestSetGet(t *testing.T) {
	const attrs = "; Path=/; HttpOnly; SameSite=Lax"
	do := func(st *store, cookie string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/setget", nil)
		if cookie != "" {
			r.Header.Set("Cookie", cookie)
		}
		w := httptest.NewRecorder()
		st.setget(w, r)
		if w.Code != 200 || w.Body.String() != "value" || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Fatalf("response %d %q %q", w.Code, w.Header().Get("Content-Type"), w.Body)
		}
		return w
	}
	// first starts a session and returns its Cookie header.
	first := func(t *testing.T, st *store) string {
		sc := do(st, "").Header().Get("Set-Cookie")
		name, rest, _ := strings.Cut(sc, "=")
		id, gotAttrs, _ := strings.Cut(rest, ";")
		if name != "sessionid" || len(id) != 22 || "; "+strings.TrimSpace(gotAttrs) != attrs {
			t.Fatalf("Set-Cookie %q", sc)
		}
		return name + "=" + id
	}
	for _, tc := range []struct {
		name      string
		max       int
		prepare   func(t *testing.T, st *store) string // returns the Cookie header
		newCookie bool                                 // a Set-Cookie is expected
		sessions  int                                  // held afterwards
	}{
		{"no cookie", 10, func(*testing.T, *store) string { return "" }, true, 1},
		{"resumed", 10, first, false, 1},
		{"among other cookies", 10, func(t *testing.T, st *store) string { return "a=1; " + first(t, st) + "; b=2" }, false, 1},
		{"unknown ID", 10, func(*testing.T, *store) string { return "sessionid=AAAAAAAAAAAAAAAAAAAAAA" }, true, 1},
		{"expired", 10, func(t *testing.T, st *store) string {
			c := first(t, st)
			for _, s := range st.sessions {
				s.expires = time.Now().Add(-time.Second)
			}
			return c
		}, true, 1},
		{"full store evicts", 2, func(t *testing.T, st *store) string {
			first(t, st)
			first(t, st)
			return ""
		}, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(tc.max)
			cookie := tc.prepare(t, st)
			w := do(st, cookie)
			if got := w.Header().Get("Set-Cookie") != ""; got != tc.newCookie {
				t.Errorf("Set-Cookie sent: %v, want %v", got, tc.newCookie)
			}
			if len(st.sessions) != tc.sessions {
				t.Errorf("%d sessions held, want %d", len(st.sessions), tc.sessions)
			}
			if sc := w.Header().Get("Set-Cookie"); sc != "" {
				id := strings.TrimPrefix(strings.Split(sc, ";")[0], "sessionid=")
				if s := st.sessions[id]; s == nil || s.get("key") != "value" {
					t.Errorf("the new session %s is not stored with its value", id)
				}
			}
		})
	}
}
