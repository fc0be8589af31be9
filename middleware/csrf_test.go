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
			if mode == "cookie" && (len(cookies) != 1 || cookies[0].Value != token || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteLaxMode) {
				t.Fatalf("cookies %v", cookies)
			}
			// The same client asks again: same token.
			req := httptest.NewRequest("GET", "/form", nil)
			for _, c := range cookies {
				req.AddCookie(c)
			}
			rec = httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Body.String() != token {
				t.Errorf("second token %q, want %q", rec.Body, token)
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
			if rec.Code != 200 || fresh == token || fresh == "" {
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

func BenchmarkCSRF(b *testing.B) {
	mw := MustCSRF()
	b.Run("safe", func(b *testing.B) {
		runBench(b, benchApp(b, mw), httptest.NewRequest("GET", "/data", nil))
	})
}
