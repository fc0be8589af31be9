// Tests of the sessions example over HTTP against the real application,
// with a cookie jar playing the browser.
package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// browser is an HTTP client with cookies that does not follow redirects,
// so each step sees the response it caused.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (b *browser) do(method, path string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(got)
}

// sid returns the session cookie the browser holds.
func (b *browser) sid() string {
	u, _ := url.Parse(b.base)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "example_sid" {
			return c.Value
		}
	}
	return ""
}

func TestSessionFlow(t *testing.T) {
	srv := httptest.NewServer(newApp([]byte("0123456789abcdef0123456789abcdef")))
	defer srv.Close()
	b := newBrowser(t, srv.URL)
	var beforeLogin string

	steps := []struct {
		name, method, path string
		form               url.Values
		wantStatus         int
		want, wantNot      []string
		check              func(t *testing.T, res *http.Response)
	}{
		{name: "first visit", method: "GET", path: "/", wantStatus: 200,
			want: []string{"Visits in this session: 1", "Log in"},
			check: func(t *testing.T, res *http.Response) {
				sc := res.Header.Get("Set-Cookie")
				if !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Lax") {
					t.Errorf("session cookie %q lacks HttpOnly or SameSite=Lax", sc)
				}
				beforeLogin = b.sid()
			}},
		{name: "counter", method: "GET", path: "/", wantStatus: 200, want: []string{"Visits in this session: 2"}},
		{name: "secret needs login", method: "GET", path: "/secret", wantStatus: 401},
		{name: "wrong password", method: "POST", path: "/login", form: url.Values{"user": {"ann"}, "password": {"nope"}}, wantStatus: 303},
		{name: "error flash", method: "GET", path: "/", wantStatus: 200, want: []string{"Wrong user name or password.", "Visits in this session: 3"}},
		{name: "flash shows once", method: "GET", path: "/", wantStatus: 200, wantNot: []string{"Wrong user name"}},
		{name: "login", method: "POST", path: "/login", form: url.Values{"user": {"ann"}, "password": {"ann-pass"}}, wantStatus: 303,
			check: func(t *testing.T, res *http.Response) {
				if b.sid() == beforeLogin || b.sid() == "" {
					t.Error("the session ID did not change at login")
				}
			}},
		{name: "logged in, values kept", method: "GET", path: "/", wantStatus: 200,
			want: []string{"Welcome, ann!", "Visits in this session: 5", "Logged in as ann"}},
		{name: "secret", method: "GET", path: "/secret", wantStatus: 200, want: []string{"The secret of ann is safe."}},
		{name: "logout", method: "POST", path: "/logout", wantStatus: 303},
		{name: "logged out, fresh session", method: "GET", path: "/", wantStatus: 200,
			want: []string{"You are logged out.", "Visits in this session: 1", "Log in"}, wantNot: []string{"ann"}},
		{name: "secret gone", method: "GET", path: "/secret", wantStatus: 401},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res, body := b.do(st.method, st.path, st.form)
			if res.StatusCode != st.wantStatus {
				t.Errorf("status = %d, want %d\n%s", res.StatusCode, st.wantStatus, body)
			}
			for _, w := range st.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
			for _, w := range st.wantNot {
				if strings.Contains(body, w) {
					t.Errorf("unexpected %q in\n%s", w, body)
				}
			}
			if st.check != nil {
				st.check(t, res)
			}
		})
	}
}

// TestFixation checks that a session ID from before login cannot be used
// after it, and that a forged cookie is not adopted.
func TestFixation(t *testing.T) {
	srv := httptest.NewServer(newApp([]byte("0123456789abcdef0123456789abcdef")))
	defer srv.Close()
	victim := newBrowser(t, srv.URL)
	victim.do("GET", "/", nil)
	planted := victim.sid()
	victim.do("POST", "/login", url.Values{"user": {"bob"}, "password": {"bob-pass"}})

	tests := []struct {
		name, cookie string
	}{
		{"pre-login ID", planted},
		{"unsigned ID", "AAAAAAAAAAAAAAAAAAAAAA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/secret", nil)
			req.AddCookie(&http.Cookie{Name: "example_sid", Value: tt.cookie})
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("status = %d, want 401", res.StatusCode)
			}
		})
	}
}
