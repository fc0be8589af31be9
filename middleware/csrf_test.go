package middleware

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// memStore is a CSRFStore over one server-side value, as a session would be.
type memStore struct{ tok string }

func (s *memStore) Token(core.Context) string         { return s.tok }
func (s *memStore) SetToken(_ core.Context, t string) { s.tok = t }

func TestCSRF(t *testing.T) {
	for _, mode := range []string{"cookie", "session"} {
		t.Run(mode, func(t *testing.T) {
			var opts []CSRFOption
			if mode == "session" {
				opts = append(opts, WithCSRFStore(&memStore{}))
			}
			app := core.New(core.WithStartupOutput(nil))
			app.Use(MustCSRF(append(opts, WithCSRFSkip(func(ctx core.Context) bool { return strings.HasPrefix(ctx.Path(), "/api/") }))...))
			app.Get("/form", func(ctx core.Context) { ctx.WriteString(CSRFToken(ctx)) })
			app.Get("/plain", func(ctx core.Context) { ctx.WriteString("no form") })
			app.Post("/submit", func(ctx core.Context) { ctx.WriteString("done") })
			app.Post("/login", func(ctx core.Context) { ctx.WriteString(RotateCSRFToken(ctx)) })
			app.Post("/api/x", func(ctx core.Context) { ctx.WriteString("api") })

			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest("GET", "/plain", nil))
			if len(rec.Result().Cookies()) != 0 {
				t.Error("a page without a form set a token cookie")
			}
			rec = httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest("GET", "/form", nil))
			token := rec.Body.String()
			if len(token) < 40 {
				t.Fatalf("token %q", token)
			}
			cookies := rec.Result().Cookies()
			if mode == "cookie" && (len(cookies) != 1 || cookies[0].Name != "_csrf" || !strings.Contains(cookies[0].Value, ".") ||
				!cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteLaxMode || cookies[0].Secure) {
				t.Fatalf("cookies %v", cookies)
			}
			// The same client asks again: the same token, masked differently
			// (BREACH), and both maskings are accepted below.
			req := httptest.NewRequest("GET", "/form", nil)
			for _, c := range cookies {
				req.AddCookie(c)
			}
			rec = httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			second := rec.Body.String()
			if second == token || len(second) != len(token) {
				t.Errorf("second token %q, want another masking of %q", second, token)
			}

			tests := []struct {
				name    string
				method  string
				path    string
				form    string
				header  string
				cookies bool
				status  int
			}{
				{"form field", "POST", "/submit", "csrf_token=" + url.QueryEscape(token), "", true, 200},
				{"header", "POST", "/submit", "", token, true, 200},
				{"second masking", "POST", "/submit", "", second, true, 200},
				{"missing", "POST", "/submit", "", "", true, 403},
				{"wrong", "POST", "/submit", "csrf_token=abc", "", true, 403},
				{"wrong header", "POST", "/submit", "", token + "x", true, 403},
				{"skipped", "POST", "/api/x", "", "", false, 200},
			}
			if mode == "cookie" {
				tests = append(tests, struct {
					name    string
					method  string
					path    string
					form    string
					header  string
					cookies bool
					status  int
				}{"no cookie", "POST", "/submit", "", token, false, 403})
			}
			for _, tt := range tests {
				var body *strings.Reader
				if tt.form != "" {
					body = strings.NewReader(tt.form)
				} else {
					body = strings.NewReader("")
				}
				req := httptest.NewRequest(tt.method, tt.path, body)
				if tt.form != "" {
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				}
				if tt.header != "" {
					req.Header.Set("X-CSRF-Token", tt.header)
				}
				if tt.cookies {
					for _, c := range cookies {
						req.AddCookie(c)
					}
				}
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				if rec.Code != tt.status {
					t.Errorf("%s: status %d, want %d", tt.name, rec.Code, tt.status)
				}
				if tt.status == 403 && !strings.Contains(rec.Body.String(), "CSRF") {
					t.Errorf("%s: body %q", tt.name, rec.Body)
				}
			}
			// Rotation at login: the old token stops working.
			req = httptest.NewRequest("POST", "/login", nil)
			req.Header.Set("X-CSRF-Token", token)
			for _, c := range cookies {
				req.AddCookie(c)
			}
			rec = httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			fresh := rec.Body.String()
			if rec.Code != 200 || fresh == "" {
				t.Fatalf("login: %d %q", rec.Code, fresh)
			}
			if mode == "cookie" {
				cookies = rec.Result().Cookies()
			}
			for tok, want := range map[string]int{token: 403, fresh: 200} {
				req = httptest.NewRequest("POST", "/submit", nil)
				req.Header.Set("X-CSRF-Token", tok)
				for _, c := range cookies {
					req.AddCookie(c)
				}
				rec = httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				if rec.Code != want {
					t.Errorf("after rotation, token %.8s: %d, want %d", tok, rec.Code, want)
				}
			}
		})
	}
	if _, err := CSRF(WithCSRFStore(nil)); err == nil {
		t.Error("nil store accepted")
	}
}

// csrfPost sends a POST to app with the given token header, cookies and
// extra headers, and returns the status.
func csrfPost(app http.Handler, target, token string, cookies []*http.Cookie, header ...string) int {
	req := httptest.NewRequest("POST", target, nil)
	if token != "" {
		req.Header.Set(CSRFHeader, token)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	return rec.Code
}

// csrfForm returns the masked token and the cookies a GET of /form gets.
func csrfForm(t *testing.T, app http.Handler, target string, header ...string) (string, []*http.Cookie) {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("GET %s: %d", target, rec.Code)
	}
	return rec.Body.String(), rec.Result().Cookies()
}

func csrfTestApp(t *testing.T, opts ...CSRFOption) *core.Application {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil), core.WithTrustedProxies("X-Forwarded-For", "192.0.2.0/24"))
	mw, err := CSRF(opts...)
	if err != nil {
		t.Fatal(err)
	}
	app.Use(mw)
	app.Get("/form", func(ctx core.Context) { ctx.WriteString(CSRFToken(ctx)) })
	app.Post("/submit", func(ctx core.Context) { ctx.WriteString("done") })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

// A token the server never issued does not pass: a cookie planted by a
// sibling subdomain or by a man in the middle on HTTP, repeated in the
// form, is refused because the server did not sign it (issue 22 item 2).
func TestCSRFRefusesPlantedCookie(t *testing.T) {
	app := csrfTestApp(t)
	planted := NewCSRFToken()
	for name, cookie := range map[string]string{
		"bare":           planted,
		"forged sig":     planted + ".AAAA",
		"another key":    planted + "." + (CSRFCookieStore{Key: make([]byte, 32)}).mac(core.Context{}, planted),
		"empty token":    "." + planted,
		"no cookie name": "",
	} {
		for _, sent := range []string{planted, MaskCSRFToken(planted)} {
			if got := csrfPost(app, "/submit", sent, []*http.Cookie{{Name: "_csrf", Value: cookie}}); got != 403 {
				t.Errorf("%s cookie, token %.10s: status %d, want 403", name, sent, got)
			}
		}
	}
	// The token itself (unmasked) is not accepted either: pages only ever
	// show maskings.
	token, cookies := csrfForm(t, app, "/form")
	raw, _, _ := strings.Cut(cookies[0].Value, ".")
	if got := csrfPost(app, "/submit", raw, cookies); got != 403 {
		t.Errorf("unmasked token: %d, want 403", got)
	}
	if got := csrfPost(app, "/submit", token, cookies); got != 200 {
		t.Errorf("issued token: %d, want 200", got)
	}
}

// The signature binds the cookie to the session: a cookie and token
// obtained in the attacker's own session are worthless in the victim's.
func TestCSRFCookieBoundToSession(t *testing.T) {
	app := csrfTestApp(t, WithCSRFStore(CSRFCookieStore{
		SessionID: func(ctx core.Context) string { return ctx.RequestHeader("X-Session") },
	}))
	token, cookies := csrfForm(t, app, "/form", "X-Session", "attacker")
	if got := csrfPost(app, "/submit", token, cookies, "X-Session", "attacker"); got != 200 {
		t.Errorf("own session: %d, want 200", got)
	}
	if got := csrfPost(app, "/submit", token, cookies, "X-Session", "victim"); got != 403 {
		t.Errorf("another session: %d, want 403", got)
	}
	if _, err := CSRF(WithCSRFStore(CSRFCookieStore{Key: []byte("short")})); err == nil {
		t.Error("a 5-byte key was accepted")
	}
}

// Over HTTPS, directly or behind a trusted proxy, the cookie is
// __Host-csrf (Secure, Path=/), and a _csrf cookie, which any sibling
// subdomain can set, is not read.
func TestCSRFHostPrefixOverHTTPS(t *testing.T) {
	app := csrfTestApp(t)
	tests := []struct {
		name   string
		target string
		header []string
	}{
		{"TLS", "https://example.com/form", nil},
		{"trusted proxy", "http://example.com/form", []string{"X-Forwarded-Proto", "https"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.target, nil)
			req.RemoteAddr = "192.0.2.1:1234"
			for i := 0; i+1 < len(tt.header); i += 2 {
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			token, cookies := rec.Body.String(), rec.Result().Cookies()
			if len(cookies) != 1 || cookies[0].Name != "__Host-csrf" || !cookies[0].Secure || cookies[0].Path != "/" || cookies[0].Domain != "" {
				t.Fatalf("cookies %v", cookies)
			}
			post := func(c *http.Cookie) int {
				req := httptest.NewRequest("POST", strings.Replace(tt.target, "/form", "/submit", 1), nil)
				req.RemoteAddr = "192.0.2.1:1234"
				for i := 0; i+1 < len(tt.header); i += 2 {
					req.Header.Set(tt.header[i], tt.header[i+1])
				}
				req.Header.Set(CSRFHeader, token)
				req.AddCookie(c)
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				return rec.Code
			}
			if got := post(cookies[0]); got != 200 {
				t.Errorf("__Host- cookie: %d, want 200", got)
			}
			if got := post(&http.Cookie{Name: "_csrf", Value: cookies[0].Value}); got != 403 {
				t.Errorf("_csrf cookie over HTTPS: %d, want 403", got)
			}
		})
	}
}

// Unsafe requests from another origin are refused before the token is
// looked at, by Sec-Fetch-Site or, from older browsers, Origin; a sibling
// subdomain (same-site) is another origin.
func TestCSRFOriginCheck(t *testing.T) {
	tests := []struct {
		name   string
		opts   []CSRFOption
		header []string
		want   int
	}{
		{"same origin", nil, []string{"Sec-Fetch-Site", "same-origin"}, 200},
		{"user typed", nil, []string{"Sec-Fetch-Site", "none"}, 200},
		{"no browser headers", nil, nil, 200},
		{"cross-site", nil, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"sibling subdomain", nil, []string{"Sec-Fetch-Site", "same-site", "Origin", "http://evil.example.com"}, 403},
		{"old browser, same host", nil, []string{"Origin", "http://example.com"}, 200},
		{"old browser, other host", nil, []string{"Origin", "http://evil.example"}, 403},
		{"null origin", nil, []string{"Origin", "null"}, 403},
		{"trusted origin", []CSRFOption{WithCSRFTrustedOrigins("https://admin.example.com")},
			[]string{"Sec-Fetch-Site", "same-site", "Origin", "https://admin.example.com"}, 200},
		{"check off", []CSRFOption{WithCSRFOriginCheck(false)}, []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := csrfTestApp(t, tt.opts...)
			token, cookies := csrfForm(t, app, "http://example.com/form")
			req := httptest.NewRequest("POST", "http://example.com/submit", nil)
			req.Header.Set(CSRFHeader, token)
			req.AddCookie(cookies[0])
			for i := 0; i+1 < len(tt.header); i += 2 {
				req.Header.Set(tt.header[i], tt.header[i+1])
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("status %d, want %d (%s)", rec.Code, tt.want, rec.Body)
			}
		})
	}
	if _, err := CSRF(WithCSRFTrustedOrigins("https://a.example/path")); err == nil {
		t.Error("an origin with a path was accepted")
	}
}

// BREACH: a compressed page that holds the token and reflects input leaks
// the token through its length when the token is the same in every
// response. Every response carries another masking, never the token.
func TestCSRFTokenMaskedPerResponse(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	app.Use(MustCSRF())
	app.Get("/form", func(ctx core.Context) {
		ctx.HTML(`<form><input name="csrf_token" value="` + CSRFToken(ctx) + `"><p>` + ctx.Query("q") + `</p></form>`)
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	get := func(cookies []*http.Cookie) (string, []*http.Cookie) {
		req := httptest.NewRequest("GET", "/form?q=x", nil)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		return rec.Body.String(), rec.Result().Cookies()
	}
	first, cookies := get(nil)
	raw, _, _ := strings.Cut(cookies[0].Value, ".")
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		page, _ := get(cookies)
		if strings.Contains(page, raw) {
			t.Fatal("the page holds the token itself")
		}
		if seen[page] || page == first {
			t.Fatal("two responses carry the same token bytes")
		}
		seen[page] = true
	}
}

func BenchmarkCSRF(b *testing.B) {
	mw := MustCSRF()
	b.Run("safe", func(b *testing.B) {
		runBench(b, benchApp(b, mw), httptest.NewRequest("GET", "/data", nil))
	})
}

// TestCSRFFormOverBodyLimit checks that a form carrying its token in a body
// over the limit is refused as too large (413) or malformed (400), the
// answer the form's parsing gave, not as a missing token (it was 403).
func TestCSRFFormOverBodyLimit(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil), core.WithBodyLimit(256))
	app.Use(MustCSRF())
	app.Get("/form", func(ctx core.Context) { ctx.WriteString(CSRFToken(ctx)) })
	app.Post("/submit", func(ctx core.Context) { ctx.WriteString("done") })
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/form", nil))
	token, cookies := rec.Body.String(), rec.Result().Cookies()
	tests := []struct {
		name   string
		body   string
		status int
	}{
		{"within the limit", "csrf_token=" + url.QueryEscape(token), 200},
		{"over the limit", "csrf_token=" + url.QueryEscape(token) + "&pad=" + strings.Repeat("x", 400), http.StatusRequestEntityTooLarge},
		{"malformed", "csrf_token=%zz", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/submit", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for _, c := range cookies {
				req.AddCookie(c)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d (%q)", rec.Code, tt.status, rec.Body.String())
			}
		})
	}
}
