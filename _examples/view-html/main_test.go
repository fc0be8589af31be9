// Tests of the view-html example over HTTP against the real application.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestViews(t *testing.T) {
	app := newApp()
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	defer srv.Close()
	year := strconv.Itoa(time.Now().Year())

	tests := []struct {
		name, path string
		wantStatus int
		want       []string // substrings, in this order
		wantNot    []string
	}{
		{name: "index in the default layout", path: "/", wantStatus: 200, want: []string{
			"<title>Users · Vireo demo</title>",
			`<a href="/" aria-current="page">Home</a>`,
			"<h1>Users</h1>", "<p>2 users:</p>", `<li><a href="/users/1">Ann</a></li>`,
			"<footer>&copy; " + year + " Vireo demo</footer>",
		}},
		{name: "partial with funcs", path: "/users/1", wantStatus: 200, want: []string{
			"<title>Ann · Vireo demo</title>",
			`<a href="/users/1" aria-current="page">Ann</a>`,
			"<h2>ANN</h2>", "<p>Writes Go &lt;and&gt; HTML.</p>", "<p>Balance: $1234.56</p>", "</footer>",
		}},
		{name: "data is escaped", path: "/users/2", wantStatus: 200,
			want:    []string{"&lt;script&gt;alert(&#34;escaped&#34;)&lt;/script&gt;", "$0.99"},
			wantNot: []string{"<script>"}},
		{name: "other layout", path: "/users/1/print", wantStatus: 200,
			want:    []string{"<title>Ann (print)</title>", `<body class="print">`, "<h2>ANN</h2>"},
			wantNot: []string{"<nav>", "<footer>"}},
		{name: "no layout", path: "/users/2/fragment", wantStatus: 200, want: []string{"<li>Bob</li>"}, wantNot: []string{"<html", "<nav>"}},
		{name: "unknown user", path: "/users/3", wantStatus: 404},
		{name: "failed render is a clean 500", path: "/broken", wantStatus: 500,
			wantNot: []string{"never reaches the client", "<html"}},
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
			if tt.wantStatus == 200 && res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Errorf("Content-Type = %q", res.Header.Get("Content-Type"))
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
