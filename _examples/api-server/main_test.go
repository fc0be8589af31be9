package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// server starts the application on a real loopback listener.
func server(t *testing.T, cfg config) (*httptest.Server, *http.Client) {
	t.Helper()
	if cfg.adminPassword == "" {
		cfg.adminPassword = "secret"
	}
	if cfg.rateLimit == 0 {
		cfg.rateLimit = 100
	}
	cfg.logOut = io.Discard
	srv := httptest.NewServer(newApp(cfg))
	t.Cleanup(srv.Close)
	// DisableCompression: the test sees and decodes the raw encodings.
	return srv, &http.Client{Transport: &http.Transport{DisableCompression: true}}
}

type call struct {
	method, path, body string
	header             map[string]string
	user, pass         string
}

func do(t *testing.T, c *http.Client, base string, cl call) (*http.Response, []byte) {
	t.Helper()
	method := cl.method
	if method == "" {
		method = "GET"
	}
	req, err := http.NewRequest(method, base+cl.path, strings.NewReader(cl.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range cl.header {
		req.Header.Set(k, v)
	}
	if cl.user != "" {
		req.SetBasicAuth(cl.user, cl.pass)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r io.Reader = res.Body
	switch res.Header.Get("Content-Encoding") {
	case "gzip":
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(res.Body)
	case "zstd":
		zr, err := zstd.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, cl.path, err)
	}
	return res, b
}

func TestContract(t *testing.T) {
	srv, c := server(t, config{})
	json1 := map[string]string{"Content-Type": "application/json"}
	jsonAPI := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	tests := []struct {
		name     string
		call     call
		status   int
		body     string            // exact body, when set
		contains string            // substring of the body, when set
		header   map[string]string // response headers; "" means absent
	}{
		{name: "healthz", call: call{path: "/healthz"}, status: 200, body: "ok"},
		{name: "create", call: call{method: "POST", path: "/api/items", body: `{"name":"pen","price":1.5}`, header: json1},
			status: 201, body: `{"id":51,"name":"pen","price":1.5}`, header: map[string]string{"Location": "/api/items/51"}},
		{name: "invalid", call: call{method: "POST", path: "/api/items", body: `{"name":"","price":0}`, header: jsonAPI},
			status: 400, contains: `"errors":{"name":"is required","price":"must be greater than 0"}`,
			header: map[string]string{"Content-Type": "application/problem+json; charset=utf-8"}},
		{name: "get one", call: call{path: "/api/items/7"}, status: 200, body: `{"id":7,"name":"item 7","price":7.99}`},
		{name: "get none", call: call{path: "/api/items/999"}, status: 404, contains: "no item 999"},
		{name: "not a number", call: call{path: "/api/items/x"}, status: 404},
		{name: "form body", call: call{method: "POST", path: "/api/items", body: `name=pen&price=2`, header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
			status: 201, contains: `"name":"pen"`},
		{name: "text body refused", call: call{method: "POST", path: "/api/items", body: `pen`, header: map[string]string{"Content-Type": "text/plain"}}, status: 415},
		{name: "name too long", call: call{method: "POST", path: "/api/items", body: `{"name":"` + strings.Repeat("é", 65) + `","price":2}`, header: json1},
			status: 400, body: `Bad Request: invalid input: name: must be at most 64 characters`},
		{name: "not JSON", call: call{method: "POST", path: "/api/items", body: `{"name":`, header: json1}, status: 400},
		{name: "too large", call: call{method: "POST", path: "/api/items", body: `{"name":"` + strings.Repeat("a", 1<<20) + `","price":1}`, header: json1}, status: 413},
		{name: "admin without credentials", call: call{path: "/admin"}, status: 401,
			header: map[string]string{"WWW-Authenticate": `Basic realm="api-server admin", charset="UTF-8"`}},
		{name: "admin wrong password", call: call{path: "/admin", user: "admin", pass: "guess"}, status: 401},
		{name: "admin", call: call{path: "/admin", user: "admin", pass: "secret"}, status: 200, body: "welcome, admin"},
		{name: "cors allowed", call: call{path: "/healthz", header: map[string]string{"Origin": "http://localhost:3000"}}, status: 200,
			header: map[string]string{"Access-Control-Allow-Origin": "http://localhost:3000", "Vary": "Origin"}},
		{name: "cors refused", call: call{path: "/healthz", header: map[string]string{"Origin": "http://evil.test"}}, status: 200,
			header: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "preflight", call: call{method: "OPTIONS", path: "/api/items", header: map[string]string{"Origin": "http://localhost:3000",
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}}, status: 204,
			header: map[string]string{"Access-Control-Allow-Origin": "http://localhost:3000", "Access-Control-Allow-Methods": "GET, POST",
				"Access-Control-Allow-Headers": "Content-Type, Authorization, X-Request-Id", "Access-Control-Max-Age": "600"}},
		{name: "preflight refused", call: call{method: "OPTIONS", path: "/api/items", header: map[string]string{"Origin": "http://evil.test",
			"Access-Control-Request-Method": "POST"}}, status: 204, header: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
		{name: "request ID kept", call: call{path: "/healthz", header: map[string]string{"X-Request-ID": "trace-42"}}, status: 200,
			header: map[string]string{"X-Request-Id": "trace-42"}},
		{name: "404 has the headers too", call: call{path: "/nothing"}, status: 404,
			header: map[string]string{"X-Content-Type-Options": "nosniff"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := do(t, c, srv.URL, tt.call)
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d (%.200s)", res.StatusCode, tt.status, body)
			}
			if tt.body != "" && strings.TrimSpace(string(body)) != tt.body {
				t.Errorf("body %.200s, want %s", body, tt.body)
			}
			if tt.contains != "" && !strings.Contains(string(body), tt.contains) {
				t.Errorf("body %.200s, want it to contain %s", body, tt.contains)
			}
			for k, v := range tt.header {
				if got := res.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			// On every response: a request ID and the security headers.
			if id := res.Header.Get("X-Request-ID"); id == "" {
				t.Error("no X-Request-ID")
			}
			for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Content-Security-Policy"} {
				if res.Header.Get(h) == "" {
					t.Errorf("no %s", h)
				}
			}
		})
	}
}

func TestItemsCompressed(t *testing.T) {
	srv, c := server(t, config{})
	for _, enc := range []string{"gzip", "br", "zstd", ""} {
		t.Run(enc, func(t *testing.T) {
			res, body := do(t, c, srv.URL, call{path: "/api/items", header: map[string]string{"Accept-Encoding": enc}})
			if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != enc {
				t.Fatalf("status %d, encoding %q", res.StatusCode, res.Header.Get("Content-Encoding"))
			}
			var items []Item
			if err := json.Unmarshal(body, &items); err != nil {
				t.Fatal(err)
			}
			if len(items) < 50 {
				t.Errorf("%d items", len(items))
			}
		})
	}
}

func TestSlowTimesOut(t *testing.T) {
	srv, c := server(t, config{})
	start := time.Now()
	res, body := do(t, c, srv.URL, call{path: "/api/slow"})
	if res.StatusCode != 503 || strings.Contains(string(body), "too late") {
		t.Errorf("%d %q", res.StatusCode, body)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("answered after %v", d)
	}
	if res.Header.Get("X-Request-ID") == "" {
		t.Error("the 503 has no request ID")
	}
}

func TestRateLimited(t *testing.T) {
	srv, c := server(t, config{rateLimit: 5})
	limited := 0
	for i := 0; i < 12; i++ {
		res, _ := do(t, c, srv.URL, call{path: "/healthz"})
		if res.Header.Get("RateLimit-Limit") != "5" {
			t.Errorf("RateLimit-Limit %q", res.Header.Get("RateLimit-Limit"))
		}
		if res.StatusCode == 429 {
			limited++
			if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 {
				t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
			}
		}
	}
	if limited < 5 {
		t.Errorf("%d of 12 requests limited at 5/s", limited)
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("ADMIN_PASSWORD", "pw")
	t.Setenv("RATE_LIMIT", "7")
	cfg, err := configFromEnv()
	if err != nil || cfg.adminPassword != "pw" || cfg.rateLimit != 7 {
		t.Errorf("%+v %v", cfg, err)
	}
	t.Setenv("RATE_LIMIT", "lots")
	if _, err := configFromEnv(); err == nil {
		t.Error("RATE_LIMIT=lots accepted")
	}
}
