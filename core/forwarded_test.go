package core

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

func TestSchemeAndHost(t *testing.T) {
	tests := []struct {
		name       string
		remote     string
		tls        bool
		headers    map[string]string
		wantScheme string
		wantHost   string
		header     string // WithTrustedProxies's header; "" is X-Forwarded-For
	}{
		{name: "plain", remote: "10.0.0.1:1234", wantScheme: "http", wantHost: "example.com"},
		{name: "tls", remote: "10.0.0.1:1234", tls: true, wantScheme: "https", wantHost: "example.com"},
		{name: "x-forwarded from trusted", remote: "10.0.0.1:1234", headers: map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "public.example"},
			wantScheme: "https", wantHost: "public.example"},
		{name: "x-forwarded lists: last value", remote: "10.0.0.1:1234", headers: map[string]string{"X-Forwarded-Proto": "http, https", "X-Forwarded-Host": "evil.test, public.example"},
			wantScheme: "https", wantHost: "public.example"},
		{name: "client's Forwarded ignored behind an X-Forwarded proxy", remote: "10.0.0.1:1234", headers: map[string]string{"Forwarded": `for=1.2.3.4;proto=https;host="evil.test"`, "X-Forwarded-Proto": "http", "X-Forwarded-Host": "x.example"},
			wantScheme: "http", wantHost: "x.example"},
		{name: "client's Forwarded alone ignored", remote: "10.0.0.1:1234", headers: map[string]string{"Forwarded": `proto=https;host=evil.test`},
			wantScheme: "http", wantHost: "example.com"},
		{name: "forwarded proxy", header: "Forwarded", remote: "10.0.0.1:1234", headers: map[string]string{"Forwarded": `for=1.2.3.4;proto=https;host="fw.example"`, "X-Forwarded-Proto": "http", "X-Forwarded-Host": "evil.test"},
			wantScheme: "https", wantHost: "fw.example"},
		{name: "forwarded last element", header: "Forwarded", remote: "10.0.0.1:1234", headers: map[string]string{"Forwarded": `proto=http;host=a.example, proto=https;host=b.example`},
			wantScheme: "https", wantHost: "b.example"},
		{name: "untrusted peer", remote: "203.0.113.9:1234", headers: map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.test", "Forwarded": "proto=https"},
			wantScheme: "http", wantHost: "example.com"},
		{name: "junk values ignored", remote: "10.0.0.1:1234", headers: map[string]string{"X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "a/b"},
			wantScheme: "http", wantHost: "example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := tt.header
			if header == "" {
				header = "X-Forwarded-For"
			}
			app := New(WithStartupOutput(nil), WithTrustedProxies(header, "10.0.0.0/8"))
			var scheme, host string
			var secure bool
			app.Get("/", func(c Context) { scheme, host, secure = c.Scheme(), c.Host(), c.IsTLS() })
			req := httptest.NewRequest("GET", "http://example.com/", nil)
			req.RemoteAddr = tt.remote
			if tt.tls {
				req.TLS = &tls.ConnectionState{}
			}
			for k, v := range tt.headers {
				req.Header.Set(k, v)
			}
			app.ServeHTTP(httptest.NewRecorder(), req)
			if scheme != tt.wantScheme || host != tt.wantHost || secure != (tt.wantScheme == "https") {
				t.Errorf("scheme %q host %q tls %v, want %q %q", scheme, host, secure, tt.wantScheme, tt.wantHost)
			}
		})
	}
}

func TestClientIPForwarded(t *testing.T) {
	tests := []struct{ name, remote, forwarded, want string }{
		{"nearest untrusted hop", "10.0.0.1:1", `for=192.0.2.60;proto=http, for=198.51.100.17`, "198.51.100.17"},
		{"trusted hops skipped", "10.0.0.1:1", `for=198.51.100.17, for="10.0.0.7:8080"`, "198.51.100.17"},
		{"ipv6 with port", "10.0.0.1:1", `for="[2001:db8:cafe::17]:4711"`, "2001:db8:cafe::17"},
		{"obfuscated: trust nothing left of it", "10.0.0.1:1", `for=1.2.3.4, for=_hidden`, "10.0.0.1"},
		{"untrusted peer", "203.0.113.9:1", `for=1.2.3.4`, "203.0.113.9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := New(WithStartupOutput(nil), WithTrustedProxies("Forwarded", "10.0.0.0/8"))
			var got string
			app.Get("/", func(c Context) { got = c.ClientIP() })
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = tt.remote
			req.Header.Set("Forwarded", tt.forwarded)
			app.ServeHTTP(httptest.NewRecorder(), req)
			if got != tt.want {
				t.Errorf("ClientIP %q, want %q", got, tt.want)
			}
		})
	}
}
