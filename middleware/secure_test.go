package middleware

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

func TestSecureHeaders(t *testing.T) {
	defaults := map[string]string{
		"X-Content-Type-Options":     "nosniff",
		"X-Frame-Options":            "DENY",
		"Content-Security-Policy":    "frame-ancestors 'none'",
		"Referrer-Policy":            "strict-origin-when-cross-origin",
		"Cross-Origin-Opener-Policy": "same-origin",
	}
	tests := []struct {
		name   string
		opts   []SecureOption
		tls    bool
		proxy  bool // X-Forwarded-Proto: https from a trusted proxy
		path   string
		want   map[string]string
		absent []string
	}{
		{name: "defaults over http", path: "/", want: defaults, absent: []string{"Strict-Transport-Security"}},
		{name: "defaults on a 404", path: "/missing", want: defaults},
		{name: "hsts over tls", tls: true, path: "/", want: map[string]string{"Strict-Transport-Security": "max-age=63072000; includeSubDomains"}},
		{name: "hsts through a trusted proxy", proxy: true, path: "/", want: map[string]string{"Strict-Transport-Security": "max-age=63072000; includeSubDomains"}},
		{name: "custom", tls: true, path: "/", opts: []SecureOption{
			WithFrameOptions("SAMEORIGIN"), WithContentSecurityPolicy("default-src 'self'"), WithReferrerPolicy("no-referrer"),
			WithHSTS(time.Hour, false, true), WithCrossOriginOpenerPolicy("")},
			want: map[string]string{"X-Frame-Options": "SAMEORIGIN", "Content-Security-Policy": "default-src 'self'",
				"Referrer-Policy": "no-referrer", "Strict-Transport-Security": "max-age=3600; preload"},
			absent: []string{"Cross-Origin-Opener-Policy"}},
		{name: "left out", tls: true, path: "/", opts: []SecureOption{WithFrameOptions(""), WithContentSecurityPolicy(""), WithHSTS(0, false, false)},
			absent: []string{"X-Frame-Options", "Content-Security-Policy", "Strict-Transport-Security"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := core.New(core.WithStartupOutput(nil), core.WithTrustedProxies("X-Forwarded-For", "192.0.2.0/24"))
			app.UseBeforeRouting(MustSecureHeaders(tt.opts...))
			app.Get("/", func(ctx core.Context) { ctx.WriteString("ok") })
			req := httptest.NewRequest("GET", tt.path, nil) // RemoteAddr 192.0.2.1
			if tt.tls {
				req.TLS = &tls.ConnectionState{}
			}
			if tt.proxy {
				req.Header.Set("X-Forwarded-Proto", "https")
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			for k, v := range tt.want {
				if got := rec.Header().Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, k := range tt.absent {
				if _, ok := rec.Header()[k]; ok {
					t.Errorf("%s present", k)
				}
			}
		})
	}
	for i, opt := range []SecureOption{WithFrameOptions("ALLOW"), WithReferrerPolicy("x"), WithCrossOriginOpenerPolicy("x"),
		WithHSTS(-1, false, false), WithContentSecurityPolicy("a\nb")} {
		if _, err := SecureHeaders(opt); err == nil {
			t.Errorf("option %d: no error", i)
		}
	}
}

func BenchmarkSecureHeaders(b *testing.B) {
	runBench(b, benchApp(b, MustSecureHeaders()), httptest.NewRequest("GET", "/data", nil))
}
