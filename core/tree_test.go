package core

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serve registers routes on a fresh application (no state shared between
// cases), each answering "METHOD pattern|k=v,...", and returns the response.
func serve(t *testing.T, routes []string, method, target string, opts ...Option) *httptest.ResponseRecorder {
	t.Helper()
	app := New(opts...)
	for _, r := range routes {
		m, p, _ := strings.Cut(r, " ")
		label := r
		app.Handle(m, p, func(c Context) {
			var b strings.Builder
			b.WriteString(label + "|")
			for i := range c.Params().Len() {
				if i > 0 {
					b.WriteByte(',')
				}
				p := c.Params().At(i)
				b.WriteString(p.Key + "=" + p.Value)
			}
			c.WriteString(b.String())
		})
	}
	if err := app.Build(); err != nil {
		t.Fatalf("Build: %v", err)
	}
	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest(method, target, nil))
	return w
}

func TestMatching(t *testing.T) {
	users := []string{
		"GET /users/{id}",
		"GET /users/{id:int}",
		"GET /users/new",
		"GET /users/{id}/edit",
		"GET /users/{rest...}",
	}
	files := []string{"GET /files/{path:path}", "GET /files/readme"}
	typed := []string{
		"GET /t/{v:bool}", "GET /t/{v:int}", "GET /t/{v:uuid}", "GET /t/{v:alpha}", "GET /t/{v}",
	}
	tests := []struct {
		name   string
		routes []string
		path   string
		want   string // body; "" means 404
	}{
		{"static", []string{"GET /", "GET /a/b"}, "/a/b", "GET /a/b|"},
		{"root", []string{"GET /", "GET /a/b"}, "/", "GET /|"},
		{"static beats typed", users, "/users/new", "GET /users/new|"},
		{"typed beats plain", users, "/users/42", "GET /users/{id:int}|id=42"},
		{"plain when typed rejects", users, "/users/bob", "GET /users/{id}|id=bob"},
		{"backtrack from static", users, "/users/new/edit", "GET /users/{id}/edit|id=new"},
		{"wildcard last", users, "/users/1/2/3", "GET /users/{rest...}|rest=1/2/3"},
		{"wildcard with slash", files, "/files/a/b.txt", "GET /files/{path:path}|path=a/b.txt"},
		{"static beats wildcard", files, "/files/readme", "GET /files/readme|"},
		{"wildcard empty", files, "/files/", "GET /files/{path:path}|path="},
		{"bool", typed, "/t/true", "GET /t/{v:bool}|v=true"},
		{"int", typed, "/t/-12", "GET /t/{v:int}|v=-12"},
		{"int overflow falls to alpha-less plain", typed, "/t/99999999999999999999", "GET /t/{v}|v=99999999999999999999"},
		{"uuid", typed, "/t/123e4567-e89b-12d3-a456-426614174000", "GET /t/{v:uuid}|v=123e4567-e89b-12d3-a456-426614174000"},
		{"alpha", typed, "/t/abc", "GET /t/{v:alpha}|v=abc"},
		{"plain fallback", typed, "/t/a-1", "GET /t/{v}|v=a-1"},
		{"uint rejects negative", []string{"GET /u/{n:uint}"}, "/u/-1", ""},
		{"uint64", []string{"GET /u/{n:uint64}"}, "/u/18446744073709551615", "GET /u/{n:uint64}|n=18446744073709551615"},
		{"int64", []string{"GET /u/{n:int64}"}, "/u/-9223372036854775808", "GET /u/{n:int64}|n=-9223372036854775808"},
		{"param needs a value", []string{"GET /u/{n}"}, "/u/", ""},
		{"three params", []string{"GET /repos/{owner}/{repo}/issues/{number:int}"}, "/repos/golang/go/issues/7",
			"GET /repos/{owner}/{repo}/issues/{number:int}|owner=golang,repo=go,number=7"},
		{"shared prefix split", []string{"GET /search", "GET /sea", "GET /seam/{x}"}, "/sea", "GET /sea|"},
		{"shared prefix split 2", []string{"GET /search", "GET /sea", "GET /seam/{x}"}, "/seam/1", "GET /seam/{x}|x=1"},
		{"encoded slash stays in segment", []string{"GET /users/{name}", "GET /users/{name}/x"}, "/users/a%2Fb", "GET /users/{name}|name=a/b"},
		{"encoded space decoded", []string{"GET /users/{name}"}, "/users/a%20b", "GET /users/{name}|name=a b"},
		{"unicode static", []string{"GET /café"}, "/caf%C3%A9", "GET /café|"},
		{"no match", users, "/nope", ""},
		{"dotted segment is a value", []string{"GET /f/{name}"}, "/f/.hidden", "GET /f/{name}|name=.hidden"},
		{"dots in value", []string{"GET /f/{name}"}, "/f/a..b", "GET /f/{name}|name=a..b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, tt.routes, "GET", tt.path)
			if tt.want == "" {
				if w.Code != http.StatusNotFound {
					t.Fatalf("code = %d, body %q; want 404", w.Code, w.Body)
				}
				return
			}
			if w.Code != http.StatusOK || w.Body.String() != tt.want {
				t.Fatalf("got %d %q; want 200 %q", w.Code, w.Body, tt.want)
			}
		})
	}
}

func TestRegistrationErrors(t *testing.T) {
	tests := []struct {
		name   string
		routes []string
		want   string
	}{
		{"no leading slash", []string{"GET users"}, "must begin with '/'"},
		{"unclosed brace", []string{"GET /users/{id"}, "unclosed '{'"},
		{"stray brace", []string{"GET /users/id}"}, "unmatched '}'"},
		{"partial segment", []string{"GET /users/x{id}"}, "whole segment"},
		{"unknown type", []string{"GET /users/{id:float}"}, "unknown parameter type"},
		{"repeated name", []string{"GET /a/{id}/b/{id}"}, "appears twice"},
		{"wildcard not last", []string{"GET /a/{rest...}/b"}, "must be the last segment"},
		{"empty name", []string{"GET /a/{}"}, "invalid parameter name"},
		{"empty segment", []string{"GET /a//b"}, "never match"},
		{"dot segment", []string{"GET /a/../b"}, "never match"},
		{"duplicate route", []string{"GET /a/{id}", "GET /a/{id}"}, "conflicts with GET"},
		{"two names one position", []string{"GET /users/{id}", "GET /users/{name}/posts"}, "conflicts with {id}"},
		{"two typed names", []string{"GET /u/{a:int}", "GET /u/{b:int}/x"}, "conflicts with {a}"},
		{"two wildcards", []string{"GET /u/{a...}", "GET /u/{b:path}"}, "conflicts with {a}"},
		{"bad method", []string{"G T /a"}, "invalid method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			var last *Route
			for _, r := range tt.routes {
				m, p, _ := strings.Cut(r, " ")
				if tt.name == "bad method" {
					m, p = "G T", "/a"
				}
				last = app.Handle(m, p, func(Context) {})
			}
			if last.Err() == nil || !strings.Contains(last.Err().Error(), tt.want) {
				t.Fatalf("Route.Err() = %v; want it to contain %q", last.Err(), tt.want)
			}
			err := app.Build()
			if err == nil || !strings.Contains(err.Error(), last.Pattern) {
				t.Fatalf("Build() = %v; want an error naming %q", err, last.Pattern)
			}
			var re *RegistrationError
			if !errors.As(last.Err(), &re) || re.Method != last.Method || re.Pattern != last.Pattern {
				t.Fatalf("error %#v is not a *RegistrationError for %s", last.Err(), last)
			}
			// An application with registration errors never serves.
			w := httptest.NewRecorder()
			app.ServeHTTP(w, httptest.NewRequest("GET", "/a", nil))
			if w.Code != http.StatusInternalServerError {
				t.Fatalf("serving with errors: %d", w.Code)
			}
		})
	}
}

func TestDifferentKindsShareAPosition(t *testing.T) {
	app := New()
	for _, p := range []string{"/u/{id:int}", "/u/{name}", "/u/{rest...}", "/u/{flag:bool}"} {
		if err := app.Get(p, func(Context) {}).Err(); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
}
