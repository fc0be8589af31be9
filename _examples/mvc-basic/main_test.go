// Tests of the mvc-basic example: the routes the naming conventions
// produce, then requests over HTTP against the real application.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
)

func newTestApp(t *testing.T) *httptest.Server {
	t.Helper()
	app := newApp(NewBookRepository(
		Book{Title: "The Go Programming Language", Author: "Donovan"},
		Book{Title: "Learning Go", Author: "Bodner"},
	), "tok")
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	return srv
}

func TestRoutesFromNames(t *testing.T) {
	app := newApp(NewBookRepository(), "tok")
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rt := range app.Routes() {
		got = append(got, rt.String())
	}
	sort.Strings(got)
	want := []string{
		"DELETE /books/{id:int}",
		"GET /",
		"GET /books",
		"GET /books/author/{name}",
		"GET /books/search",
		"GET /books/{id:int}",
		"GET /openapi.json",
		"GET /ping",
		"GET /{name}",
		"POST /books",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("routes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestControllers(t *testing.T) {
	srv := newTestApp(t)
	tests := []struct {
		name, method, path, body string
		header                   map[string]string
		wantStatus               int
		wantBody                 string
	}{
		{name: "Get", method: "GET", path: "/", wantStatus: 200, wantBody: "Hello, world!"},
		{name: "GetByName", method: "GET", path: "/ann", wantStatus: 200, wantBody: "Hello, ann!"},
		{name: "GetPing", method: "GET", path: "/ping", wantStatus: 200, wantBody: "pong"},
		{name: "books list", method: "GET", path: "/books", wantStatus: 200,
			wantBody: `[{"id":1,"title":"The Go Programming Language","author":"Donovan"},{"id":2,"title":"Learning Go","author":"Bodner"}]`},
		{name: "book by id", method: "GET", path: "/books/2", wantStatus: 200, wantBody: `{"id":2,"title":"Learning Go","author":"Bodner"}`},
		{name: "(T, false) is 404", method: "GET", path: "/books/9", wantStatus: 404},
		{name: "typed segment", method: "GET", path: "/books/abc", wantStatus: 404},
		{name: "by author", method: "GET", path: "/books/author/bodner", wantStatus: 200, wantBody: `[{"id":2,"title":"Learning Go","author":"Bodner"}]`},
		{name: "explicit route", method: "GET", path: "/books/search?q=go", wantStatus: 200,
			wantBody: `[{"id":1,"title":"The Go Programming Language","author":"Donovan"},{"id":2,"title":"Learning Go","author":"Bodner"}]`},
		{name: "post body", method: "POST", path: "/books", body: `{"title":"Concurrency in Go","author":"Cox-Buday"}`,
			wantStatus: 201, wantBody: `{"id":3,"title":"Concurrency in Go","author":"Cox-Buday"}`},
		{name: "post invalid", method: "POST", path: "/books", body: `{"title":" "}`,
			wantStatus: 400, wantBody: `{"error":"title and author are required"}`},
		{name: "post malformed", method: "POST", path: "/books", body: `{"title":`, wantStatus: 400},
		{name: "delete without admin", method: "DELETE", path: "/books/1", wantStatus: 401, wantBody: "Unauthorized: admin token required"},
		{name: "delete as admin", method: "DELETE", path: "/books/1", header: map[string]string{"X-Admin-Token": "tok"}, wantStatus: 204},
		{name: "delete missing", method: "DELETE", path: "/books/1", header: map[string]string{"X-Admin-Token": "tok"}, wantStatus: 404},
		{name: "book gone", method: "GET", path: "/books/1", wantStatus: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, b)
			}
			if tt.wantBody != "" && strings.TrimSpace(string(b)) != tt.wantBody {
				t.Errorf("body = %s, want %s", b, tt.wantBody)
			}
			if strings.HasPrefix(tt.path, "/books") && tt.wantStatus == 200 && res.Header.Get("X-Books-Count") == "" {
				t.Error("BeforeRegister middleware did not run")
			}
		})
	}
}

// curlCommand is a curl command line of the package documentation, as the
// request curl would send.
type curlCommand struct {
	line, method, url, body string
	header                  http.Header
}

// documentedCurls returns the curl commands of main.go's doc comment. Only
// the flags used there are understood (-X, -H, -d); quotes are single.
func documentedCurls(t *testing.T) []curlCommand {
	t.Helper()
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []curlCommand
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, "//\tcurl ")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, "#")
		words := shellWords(t, rest)
		c := curlCommand{line: strings.TrimSpace(line[3:]), method: "GET", header: http.Header{}}
		for i := 0; i < len(words); i++ {
			switch w := words[i]; {
			case w == "-X":
				i++
				c.method = words[i]
			case w == "-H":
				i++
				k, v, _ := strings.Cut(words[i], ":")
				c.header.Set(k, strings.TrimSpace(v))
			case w == "-d":
				i++
				c.body = words[i]
				if c.method == "GET" {
					c.method = "POST"
				}
				if c.header.Get("Content-Type") == "" {
					c.header.Set("Content-Type", "application/x-www-form-urlencoded") // as curl does
				}
			case strings.HasPrefix(w, "http://"):
				c.url = w
			default:
				t.Fatalf("%q: flag %q not understood by this test", line, w)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// shellWords splits s at blanks outside single quotes.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestDocumentedCurlCommands sends the requests of the curl commands the
// package documentation shows, in order, to the application main serves.
func TestDocumentedCurlCommands(t *testing.T) {
	app := newApp(NewBookRepository(
		Book{Title: "The Go Programming Language", Author: "Donovan"},
		Book{Title: "Learning Go", Author: "Bodner"},
	), "let-me-in") // main's default token, which the commands use
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	defer srv.Close()

	want := []struct {
		status int
		body   string
	}{
		{200, "Hello, ann!"},
		{200, `{"id":1,"title":"The Go Programming Language","author":"Donovan"}`},
		{201, `{"id":3,"title":"Go","author":"Ann"}`},
		{204, ""},
	}
	cmds := documentedCurls(t)
	if len(cmds) != len(want) {
		t.Fatalf("%d curl commands documented, the test expects %d", len(cmds), len(want))
	}
	for i, c := range cmds {
		url := strings.Replace(c.url, "http://127.0.0.1:8080", srv.URL, 1)
		req, err := http.NewRequest(c.method, url, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = c.header
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want[i].status || strings.TrimSpace(string(b)) != want[i].body {
			t.Errorf("%s\n  -> %d %q, want %d %q", c.line, res.StatusCode, b, want[i].status, want[i].body)
		}
	}
}
