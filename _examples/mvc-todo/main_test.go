// Tests of mvc-todo over HTTP against the real application, with a cookie
// jar playing the browser: login, the todo list, CSRF checks, ownership,
// logout and the error pages. The browser test in browsertest/ drives the
// same flows in headless Chromium.
package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var tokenRE = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// browser is an HTTP client with cookies that does not follow redirects
// and remembers the last CSRF token it saw in a page, as a real browser's
// forms would send it.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
	token  string
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// get fetches path and remembers the page's CSRF token.
func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	res, err := b.client.Get(b.base + path)
	if err != nil {
		b.t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if m := tokenRE.FindSubmatch(body); m != nil {
		b.token = string(m[1])
	}
	return res.StatusCode, string(body)
}

// post submits a form with fields and the given token; it returns the
// status and the redirect target.
func (b *browser) post(path string, fields url.Values, token string) (int, string) {
	b.t.Helper()
	form := url.Values{}
	for k, v := range fields {
		form[k] = v
	}
	if token != "" {
		form.Set("csrf_token", token)
	}
	res, err := b.client.PostForm(b.base+path, form)
	if err != nil {
		b.t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

func (b *browser) cookie() string {
	u, _ := url.Parse(b.base)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "todo_sid" {
			return c.Value
		}
	}
	return ""
}

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	app := newApp()
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	return srv
}

// step is one action of a scenario: a GET whose page must contain (and
// not contain) some text, or a POST with an expected status and redirect.
type step struct {
	name      string
	get       string
	post      string
	form      url.Values
	token     string  // "" sends the last page's token; "-" sends none
	tokenOf   *string // when set, the token to send, read when the step runs
	want      int
	location  string
	contains  []string
	lacks     []string
	afterward func(t *testing.T, b *browser)
}

func run(t *testing.T, b *browser, steps []step) {
	t.Helper()
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.get != "" {
				code, body := b.get(st.get)
				if code != st.want {
					t.Errorf("GET %s: status %d, want %d\n%s", st.get, code, st.want, body)
				}
				for _, s := range st.contains {
					if !strings.Contains(body, s) {
						t.Errorf("GET %s: missing %q in\n%s", st.get, s, body)
					}
				}
				for _, s := range st.lacks {
					if strings.Contains(body, s) {
						t.Errorf("GET %s: unexpected %q in\n%s", st.get, s, body)
					}
				}
			} else {
				token := st.token
				if st.tokenOf != nil {
					token = *st.tokenOf
				}
				switch token {
				case "":
					token = b.token
				case "-":
					token = ""
				}
				code, loc := b.post(st.post, st.form, token)
				if code != st.want || loc != st.location {
					t.Errorf("POST %s: %d -> %q, want %d -> %q", st.post, code, loc, st.want, st.location)
				}
			}
			if st.afterward != nil {
				st.afterward(t, b)
			}
		})
	}
}

func TestTodoFlow(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, srv.URL)
	var anonCookie, loginToken, userToken string
	run(t, b, []step{
		{name: "home redirects", get: "/", want: 303},
		{name: "todos need login", get: "/todos", want: 303},
		{name: "login page with flash", get: "/login", want: 200,
			contains:  []string{"Please log in first.", `<form method="post" action="/login"`, `name="csrf_token"`},
			afterward: func(t *testing.T, b *browser) { anonCookie, loginToken = b.cookie(), b.token }},
		{name: "login without token", post: "/login", form: url.Values{"user": {"ann"}, "password": {"ann-pass"}}, token: "-", want: 403},
		{name: "login with a wrong token", post: "/login", form: url.Values{"user": {"ann"}, "password": {"ann-pass"}}, token: "forged", want: 403},
		{name: "wrong password", post: "/login", form: url.Values{"user": {"ann"}, "password": {"nope"}}, want: 303, location: "/login"},
		{name: "error flash", get: "/login", want: 200, contains: []string{"Wrong user name or password."}},
		{name: "login", post: "/login", form: url.Values{"user": {"ann"}, "password": {"ann-pass"}}, want: 303, location: "/todos",
			afterward: func(t *testing.T, b *browser) {
				if b.cookie() == anonCookie {
					t.Error("session ID not regenerated at login")
				}
			}},
		{name: "empty list", get: "/todos", want: 200,
			contains: []string{"Welcome back, ann!", "<h1>ann's todos</h1>", "Nothing to do.", `id="logout"`},
			afterward: func(t *testing.T, b *browser) {
				if b.token == loginToken {
					t.Error("CSRF token not rotated at login")
				}
			}},
		{name: "pre-login token refused", post: "/todos", form: url.Values{"title": {"x"}}, tokenOf: &loginToken, want: 403},
		{name: "add one", post: "/todos", form: url.Values{"title": {"Buy milk"}}, want: 303, location: "/todos"},
		{name: "add two", post: "/todos", form: url.Values{"title": {"  <b>Write</b> docs  "}}, want: 303, location: "/todos"},
		{name: "add empty", post: "/todos", form: url.Values{"title": {"   "}}, want: 303, location: "/todos"},
		{name: "empty refused", get: "/todos", want: 200, contains: []string{"A todo needs a title.", "2 items left of 2"}},
		{name: "add too long", post: "/todos", form: url.Values{"title": {strings.Repeat("é", maxTitle+1)}}, want: 303, location: "/todos"},
		{name: "list", get: "/todos", want: 200, contains: []string{
			"That title is too long.",
			`<span class="title">Buy milk</span>`, `<span class="title">&lt;b&gt;Write&lt;/b&gt; docs</span>`,
			"2 items left of 2", `action="/todos/1/toggle"`, `action="/todos/2/delete"`,
		}},
		{name: "toggle", post: "/todos/1/toggle", want: 303, location: "/todos"},
		{name: "toggled", get: "/todos", want: 200, contains: []string{`<li class="todo done" data-id="1">`, "Done: “Buy milk”.", "1 item left of 2"}},
		{name: "toggle without token", post: "/todos/2/toggle", token: "-", want: 403},
		{name: "toggle unknown", post: "/todos/99/toggle", want: 404},
		{name: "delete", post: "/todos/2/delete", want: 303, location: "/todos"},
		{name: "deleted", get: "/todos", want: 200, contains: []string{"Deleted.", "Buy milk", "0 items left of 1"}, lacks: []string{"Write"},
			afterward: func(t *testing.T, b *browser) { userToken = b.token }},
		{name: "logout without token", post: "/logout", token: "-", want: 403},
		{name: "logout", post: "/logout", want: 303, location: "/login"},
		{name: "logged out", get: "/login", want: 200, contains: []string{"You have been logged out.", "Log in"}, lacks: []string{`id="logout"`}},
		{name: "list gone", get: "/todos", want: 303},
		{name: "logged-in token dead after logout", post: "/todos", form: url.Values{"title": {"x"}}, tokenOf: &userToken, want: 403},
		{name: "anonymous token still cannot add", post: "/todos", form: url.Values{"title": {"x"}}, want: 303, location: "/login"},
	})
}

// TestIsolation checks that users only ever see and change their own
// todos.
func TestIsolation(t *testing.T) {
	srv := newServer(t)
	ann, bob := newBrowser(t, srv.URL), newBrowser(t, srv.URL)
	login := func(b *browser, user string) {
		b.get("/login")
		if code, loc := b.post("/login", url.Values{"user": {user}, "password": {user + "-pass"}}, b.token); code != 303 || loc != "/todos" {
			t.Fatalf("login %s: %d %q", user, code, loc)
		}
		b.get("/todos")
	}
	login(ann, "ann")
	login(bob, "bob")
	ann.post("/todos", url.Values{"title": {"ann's secret plan"}}, ann.token)

	run(t, bob, []step{
		{name: "bob's list is empty", get: "/todos", want: 200, contains: []string{"<h1>bob's todos</h1>", "Nothing to do."}, lacks: []string{"secret plan"}},
		{name: "bob cannot toggle ann's todo", post: "/todos/1/toggle", want: 404},
		{name: "bob cannot delete ann's todo", post: "/todos/1/delete", want: 404},
		{name: "bob cannot use ann's token", post: "/todos", form: url.Values{"title": {"x"}}, token: ann.token, want: 403},
	})
	run(t, ann, []step{
		{name: "ann's todo intact", get: "/todos", want: 200, contains: []string{"ann&#39;s secret plan", "1 item left of 1"}},
	})
}

func TestErrorPages(t *testing.T) {
	srv := newServer(t)
	b := newBrowser(t, srv.URL)
	run(t, b, []step{
		{name: "404 page", get: "/nowhere", want: 404, contains: []string{"<title>Not found · Vireo Todo</title>", "There is nothing at <code>/nowhere</code>"}},
		{name: "404 for a bad id", get: "/todos/abc/toggle", want: 404},
		{name: "403 page", post: "/login", form: url.Values{"user": {"ann"}}, token: "-", want: 403},
		{name: "static file", get: "/static/style.css", want: 200, contains: []string{"--accent"}},
	})
	res, err := http.Post(srv.URL+"/login", "application/x-www-form-urlencoded", strings.NewReader("user=ann"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 403 || !strings.Contains(string(body), "<h1>Forbidden</h1>") {
		t.Errorf("403 page: %d\n%s", res.StatusCode, body)
	}
	for _, h := range []string{"X-Frame-Options", "Content-Security-Policy", "X-Content-Type-Options"} {
		if res.Header.Get(h) == "" {
			t.Errorf("missing %s header", h)
		}
	}
}

// TestAnonymousRequestsStoreNoSession checks that a visitor who is not
// logged in gets a session (and its cookie) only when a handler stores
// something (a form's CSRF token, a flash message): 404 pages and static
// files store nothing, so a flood of them cannot fill the session store.
func TestAnonymousRequestsStoreNoSession(t *testing.T) {
	srv := newServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		path      string
		status    int
		setCookie bool
	}{
		{"/nowhere", 404, false},
		{"/todos/abc/toggle", 404, false},
		{"/static/style.css", 200, false},
		{"/todos", 303, true}, // the "please log in" flash waits in the session for the login page
		{"/login", 200, true}, // the login form carries a CSRF token kept in the session
	} {
		res, err := client.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("GET %s: status %d, want %d", tc.path, res.StatusCode, tc.status)
		}
		if got := len(res.Cookies()) > 0; got != tc.setCookie {
			t.Errorf("GET %s: Set-Cookie %v, want %v (%q)", tc.path, got, tc.setCookie, res.Header.Values("Set-Cookie"))
		}
	}
}
