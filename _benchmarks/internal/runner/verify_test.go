// Tests of the verify step against local servers: a conforming answer passes,
// a wrong body, status or Content-Type fails with a diff, and the sessions
// check sends the cookie back and builds the Cookie header of the
// cookie-keeping variant.
package runner

import (
	"crypto/tls"
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

// TestVerifyTLSProtocols verifies a TLS comparison over each protocol of
// its loads: a server that offers HTTP/2 and HTTP/1.1 by ALPN passes, one
// that offers HTTP/1.1 only fails over h2 (Go's TLS server refuses the
// handshake; a server that accepted it without h2 would fail the client's
// ALPN check).
func TestVerifyTLSProtocols(t *testing.T) {
	h2 := loadContract(t).Comparisons["h2"]
	if !h2.TLS || len(h2.Loads) != 3 {
		t.Fatalf("endpoints.json: h2 is not a TLS comparison with three loads: %+v", h2)
	}
	cert, err := benchtest.MakeCert(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(cert.CertFile, cert.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{cert: cert, Client: &http.Client{Timeout: 5 * time.Second}}
	for _, tt := range []struct {
		name    string
		protos  []string
		wantErr string
	}{
		{"h2 and http/1.1", []string{"h2", "http/1.1"}, ""},
		{"http/1.1 only", []string{"http/1.1"}, "over h2: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", h2.ContentType)
				w.Write(h2.Body)
			}))
			srv.EnableHTTP2 = len(tt.protos) == 2
			srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, NextProtos: tt.protos}
			srv.StartTLS()
			defer srv.Close()
			_, err := s.Verify(srv.URL, &Planned{Name: "h2", Ep: h2})
			if tt.wantErr == "" && err != nil {
				t.Fatalf("verify: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}
