// Tests of the static-files example over HTTP against the real
// application: content, types, caching validators, ranges, directories
// and traversal attempts.
package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestStaticFiles(t *testing.T) {
	srv := httptest.NewServer(newApp())
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	style, err := public.ReadFile("public/css/style.css")
	if err != nil {
		t.Fatal(err)
	}
	etag := get(t, client, srv.URL+"/css/style.css").Header.Get("Etag")
	if etag == "" {
		t.Fatal("no ETag on a static file")
	}

	tests := []struct {
		name, method, path string
		header             map[string]string
		wantStatus         int
		wantBody           string // substring
		wantType           string // Content-Type prefix
		wantLocation       string
	}{
		{name: "index at root", method: "GET", path: "/", wantStatus: 200, wantBody: "Served from an embed.FS", wantType: "text/html"},
		{name: "stylesheet", method: "GET", path: "/css/style.css", wantStatus: 200, wantBody: string(style), wantType: "text/css"},
		{name: "script", method: "GET", path: "/js/app.js", wantStatus: 200, wantBody: "/api/time", wantType: "text/javascript"},
		{name: "HEAD", method: "HEAD", path: "/css/style.css", wantStatus: 200, wantType: "text/css"},
		{name: "directory index", method: "GET", path: "/docs/", wantStatus: 200, wantBody: "A directory serves its index.html."},
		{name: "directory without slash", method: "GET", path: "/docs", wantStatus: 301, wantLocation: "/docs/"},
		{name: "index.html by name", method: "GET", path: "/index.html", wantStatus: 200, wantBody: "Served from an embed.FS"},
		{name: "API route next to files", method: "GET", path: "/api/time", wantStatus: 200, wantBody: `"time":`, wantType: "application/json"},
		{name: "missing file", method: "GET", path: "/css/missing.css", wantStatus: 404},
		{name: "not modified", method: "GET", path: "/css/style.css", header: map[string]string{"If-None-Match": etag}, wantStatus: 304},
		{name: "range", method: "GET", path: "/css/style.css", header: map[string]string{"Range": "bytes=0-3"}, wantStatus: 206, wantBody: "body"},
		{name: "encoded slash refused", method: "GET", path: "/css%2Fstyle.css", wantStatus: 400},
		// Escaped dots are dots: the path is cleaned like /css/../../main.go,
		// which stays inside the site, where there is no main.go.
		{name: "encoded dot-dot cleaned", method: "GET", path: "/css/%2e%2e/%2e%2e/main.go", wantStatus: 301, wantLocation: "/main.go"},
		{name: "no source outside the site", method: "GET", path: "/main.go", wantStatus: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, body)
			}
			if !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("body = %q, want it to contain %q", body, tt.wantBody)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, tt.wantType) {
				t.Errorf("Content-Type = %q, want %q...", ct, tt.wantType)
			}
			if loc := res.Header.Get("Location"); loc != tt.wantLocation {
				t.Errorf("Location = %q, want %q", loc, tt.wantLocation)
			}
		})
	}
}

// TestRawTraversal sends request lines a browser or http.Client would
// clean first, straight over TCP: the sources next to public/ must stay
// unreachable.
func TestRawTraversal(t *testing.T) {
	srv := httptest.NewServer(newApp())
	defer srv.Close()
	for _, target := range []string{"/../main.go", "/css/../../main.go", "/..%2fmain.go", "/css/..%5cmain.go"} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		resp, _ := io.ReadAll(conn)
		conn.Close()
		if strings.Contains(string(resp), "package main") || strings.HasPrefix(string(resp), "HTTP/1.1 200") {
			t.Errorf("GET %s: served something:\n%s", target, resp)
		}
	}
}

func get(t *testing.T, c *http.Client, url string) *http.Response {
	t.Helper()
	res, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}
