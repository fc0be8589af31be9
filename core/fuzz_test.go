package core

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzParsePattern checks that any pattern is either refused with a
// RegistrationError naming it or accepted and then matched by a path built from it.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{
		"/", "/users/{id}", "/users/{id:int}/posts/{post:uuid}", "/files/{rest...}",
		"/a/{b:path}", "/{", "/}", "/a/{b", "/a/x{b}", "/a/{b}/{b}", "/a/{rest...}/x", "//", "/a/./b",
		"/a/{b:float}", "/ünï/{cödé}", "/a/{b:bool}/{c:alpha}/{d:uint64}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		tokens, err := parsePattern(pattern)
		if err != nil {
			var re *RegistrationError
			rerr := New().Handle("GET", pattern, func(Context) {}).Err()
			if !errors.As(rerr, &re) || re.Pattern != pattern || re.Method != "GET" {
				t.Fatalf("Handle error %#v is not a *RegistrationError for GET %q", rerr, pattern)
			}
			return
		}
		// Build a request path that satisfies every parameter's type.
		var path strings.Builder
		for _, tk := range tokens {
			if !tk.param {
				path.WriteString(tk.static)
				continue
			}
			path.WriteString(sampleValue(tk.typ))
		}
		p := path.String()
		if !isCleanPath(p) || strings.ContainsAny(p, "?#%") || strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || r == 0x7f || r == ' ' }) {
			return // not a request path a client can send as is
		}
		app := quietApp()
		app.Get(pattern, func(c Context) { c.WriteString("hit") })
		if err := app.Build(); err != nil {
			t.Fatalf("accepted pattern %q fails Build: %v", pattern, err)
		}
		r := &http.Request{Method: "GET", URL: mustURL(t, p), Header: http.Header{}}
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Body.String() != "hit" {
			t.Fatalf("pattern %q does not match its own path %q: %d %q", pattern, p, w.Code, w.Body)
		}
	})
}

func sampleValue(t paramType) string {
	switch t {
	case typeBool:
		return "true"
	case typeInt, typeUint, typeInt64, typeUint64:
		return "7"
	case typeUUID:
		return "123e4567-e89b-12d3-a456-426614174000"
	case typePath:
		return "x/y"
	}
	return "abc"
}

// FuzzLookup routes arbitrary paths through a fixed route set: it must never
// panic, and a match must only hand out parameters the route declares.
func FuzzLookup(f *testing.F) {
	for _, s := range []string{
		"/", "/users/42", "/users/new/edit", "/users//x", "/files/a/../b", "/files/%2e%2e/x", "/users/a%2Fb",
		"/repos/o/r/issues/1", "/t/true", "/%", "/users/%zz", "/\x00",
	} {
		f.Add(s)
	}
	app := quietApp()
	routes := []string{"/users/{id:int}", "/users/{name}", "/users/new", "/users/{name}/edit", "/files/{rest...}",
		"/repos/{owner}/{repo}/issues/{n:uint64}", "/t/{b:bool}", "/t/{u:uuid}", "/"}
	for _, p := range routes {
		app.Get(p, func(c Context) {
			for key := range c.Params().All() {
				if !strings.Contains(c.Route().Pattern, "{"+key) {
					panic("parameter " + key + " not in " + c.Route().Pattern)
				}
			}
			c.WriteString(c.Route().Pattern)
		})
	}
	if err := app.Build(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string) {
		u, err := parseRequestURI(path)
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		app.ServeHTTP(w, &http.Request{Method: "GET", URL: u, Header: http.Header{}, RemoteAddr: "127.0.0.1:1"})
		if w.Code == http.StatusInternalServerError {
			t.Fatalf("%q: 500 %q", path, w.Body)
		}
	})
}
