// Test helpers: the application on each database, and a JSON client.
//
// eachDB runs a test body twice, on SQLite in memory and on a PostgreSQL
// server started for the test (a database of its own), each time on a
// freshly migrated schema, through the application's ServeHTTP.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// eachDB runs fn on SQLite and on PostgreSQL.
func eachDB(t *testing.T, fn func(t *testing.T, c *client)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newClient(t, "")) })
	t.Run("postgres", func(t *testing.T) { fn(t, newClient(t, startPostgres(t))) })
}

// client drives one application.
type client struct {
	t   testing.TB
	app http.Handler
	db  *DB
}

func newClient(t testing.TB, url string) *client {
	t.Helper()
	db, err := openDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	app, err := newApp(config{jwtKey: strings.Repeat("k", 32), logOut: io.Discard}, db)
	if err != nil {
		t.Fatal(err)
	}
	return &client{t: t, app: app, db: db}
}

// response is an answer: its status, headers and decoded JSON body.
type response struct {
	code   int
	header http.Header
	body   map[string]any
	raw    string
}

// do sends a request with a JSON body (nil: none) and the token ("" none).
func (c *client) do(method, path, token string, body any) response {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Token "+token)
	}
	rec := httptest.NewRecorder()
	c.app.ServeHTTP(rec, req)
	r := response{code: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
			c.t.Fatalf("%s %s: %d, body not a JSON object: %v: %q", method, path, rec.Code, err, rec.Body)
		}
	}
	return r
}

// must is do that fails the test unless the status is want.
func (c *client) must(want int, method, path, token string, body any) response {
	c.t.Helper()
	r := c.do(method, path, token, body)
	if r.code != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, r.code, r.raw, want)
	}
	return r
}

// register registers name (email name@example.com, password name+"-password")
// and returns the token.
func (c *client) register(name string) string {
	c.t.Helper()
	r := c.must(201, "POST", "/api/users", "", userBody(name+"@example.com", name, name+"-password"))
	return str(c.t, r.body, "user.token")
}

func userBody(email, username, password string) map[string]any {
	return map[string]any{"user": map[string]any{"email": email, "username": username, "password": password}}
}

// article creates an article and returns its slug.
func (c *client) article(token, title string, tags ...string) string {
	c.t.Helper()
	r := c.must(201, "POST", "/api/articles", token, map[string]any{"article": map[string]any{
		"title": title, "description": "about " + title, "body": "the body of " + title, "tagList": tags}})
	return str(c.t, r.body, "article.slug")
}

// get follows a dotted path (a.b.0.c) into decoded JSON.
func get(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return nil, false
			}
		case []any:
			i := 0
			for _, ch := range k {
				i = i*10 + int(ch-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func str(t testing.TB, body map[string]any, path string) string {
	t.Helper()
	v, ok := get(body, path)
	s, isStr := v.(string)
	if !ok || !isStr {
		t.Fatalf("%s: %v (%T), want a string in %v", path, v, v, body)
	}
	return s
}

// expect checks the values at paths of a body.
func expect(t *testing.T, r response, want map[string]any) {
	t.Helper()
	for path, w := range want {
		got, ok := get(r.body, path)
		if !ok {
			t.Errorf("%s missing in %s", path, r.raw)
			continue
		}
		if gj, _ := json.Marshal(got); string(gj) != mustJSON(w) {
			t.Errorf("%s = %s, want %s (in %s)", path, gj, mustJSON(w), r.raw)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// expectErrors checks an error answer: the status and RealWorld's body
// {"errors": {"body": [...]}} with exactly the messages.
func expectErrors(t *testing.T, r response, code int, msgs ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("status %d, want %d (%s)", r.code, code, r.raw)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	if got := mustJSON(r.body); got != mustJSON(map[string]any{"errors": map[string]any{"body": msgs}}) {
		t.Errorf("body %s, want errors.body %q", got, msgs)
	}
}

// isoMillis is the timestamp form the spec's test suite checks.
var isoMillis = regexp.MustCompile(`^\d{4,}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d\.\d+(?:[+-][0-2]\d:[0-5]\d|Z)$`)
