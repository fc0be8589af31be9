// Tests of the verify step against local servers: a conforming answer passes,
// a wrong body, status or Content-Type fails with a diff, and the sessions
// check sends the cookie back and builds the Cookie header of the
// cookie-keeping variant.
package runner

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

func TestSessionVerify(t *testing.T) {
	contract := loadContract(t)
	simple, sessions := contract.Comparisons["simple"], contract.Comparisons["sessions"]
	s := &Session{Client: &http.Client{Timeout: 5 * time.Second}}

	answer := func(status int, ctype, body string, cookie bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if cookie {
				if _, err := r.Cookie("sid"); err != nil {
					http.SetCookie(w, &http.Cookie{Name: "sid", Value: "abc123", HttpOnly: true})
				}
			}
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			w.Write([]byte(body))
		}
	}
	tests := []struct {
		name       string
		ep         benchtest.Endpoint
		variant    string
		handler    http.HandlerFunc
		wantErr    string
		wantHeader []string
	}{
		{"ok", simple, "", answer(200, simple.ContentType, string(simple.Body), false), "", nil},
		{"body", simple, "", answer(200, simple.ContentType, "values", false), "first difference", nil},
		{"status", simple, "", answer(201, simple.ContentType, string(simple.Body), false), "status: got 201", nil},
		{"content type", simple, "", answer(200, "text/html", string(simple.Body), false), "Content-Type", nil},
		{"no cookie", sessions, VariantCookieLess, answer(200, sessions.ContentType, string(sessions.Body), false), "Set-Cookie", nil},
		{"cookie-less", sessions, VariantCookieLess, answer(200, sessions.ContentType, string(sessions.Body), true), "", nil},
		{"cookie-keeping", sessions, VariantCookieKeeping, answer(200, sessions.ContentType, string(sessions.Body), true), "", []string{"Cookie: sid=abc123"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			headers, err := s.Verify(srv.URL, &Planned{Name: "x", Variant: tt.variant, Ep: tt.ep})
			if tt.wantErr == "" && err != nil {
				t.Fatalf("verify: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if strings.Join(headers, "\n") != strings.Join(tt.wantHeader, "\n") {
				t.Errorf("headers = %q, want %q", headers, tt.wantHeader)
			}
		})
	}
}
