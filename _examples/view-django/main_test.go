// Tests of the view-django example over HTTP against the real application.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDjangoViews(t *testing.T) {
	app := newApp()
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	defer srv.Close()

	tests := []struct {
		name, path string
		wantStatus int
		want       []string // substrings, in this order
		wantNot    []string
	}{
		{name: "index extends base and includes partials", path: "/", wantStatus: 200, want: []string{
			"<title>Posts · Vireo blog</title>",
			`<nav><a href="/">Vireo blog</a>`,
			"<h1>Latest posts</h1>",
			`<h2><a href="/posts/hello-vireo">Hello, Vireo</a></h2>`,
			"<p>Vireo is a small web framework on net... <small>(1 min read)</small></p>",
			`<h2><a href="/posts/escaping">Escaping Works</a></h2>`,
			"<footer>Vireo blog · rendered by pongo2</footer>",
		}},
		{name: "struct data with view tags", path: "/posts/hello-vireo", wantStatus: 200, want: []string{
			"<title>hello, vireo · Vireo blog</title>",
			"<h1>hello, vireo</h1>", "by ann · 1 min read",
			"<p>Vireo is a small web framework on net/http.<br />It has views, sessions and MVC.</p>",
			"Tags: go, web",
		}, wantNot: []string{"hidden"}},
		{name: "escaped by default", path: "/posts/escaping", wantStatus: 200,
			want: []string{"Data such as &lt;b&gt;this&lt;/b&gt; is escaped"}, wantNot: []string{"<b>this</b>"}},
		{name: "404 page extends base", path: "/posts/nope", wantStatus: 404, want: []string{
			"<title>Not found · Vireo blog</title>", "<p>Nothing lives at /posts/nope.</p>", "</footer>",
		}},
		{name: "unmatched path uses the same page", path: "/a/b/c", wantStatus: 404, want: []string{"Nothing lives at /a/b/c."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			body := string(b)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d\n%s", res.StatusCode, tt.wantStatus, body)
			}
			if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			rest := body
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("missing (or out of order) %q in\n%s", w, body)
					continue
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tt.wantNot {
				if strings.Contains(body, w) {
					t.Errorf("unexpected %q in\n%s", w, body)
				}
			}
		})
	}
}
