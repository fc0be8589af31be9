package core

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// rawGet sends target byte for byte, so no client can clean or re-encode it.
func rawGet(t *testing.T, addr, target string, header ...string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "GET " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
	for _, h := range header {
		req += h + "\r\n"
	}
	io.WriteString(conn, req+"\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(body)
}

func TestHandleDirTraversal(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	os.MkdirAll(filepath.Join(public, "css"), 0o755)
	os.WriteFile(filepath.Join(public, "index.html"), []byte("home"), 0o644)
	os.WriteFile(filepath.Join(public, "css", "site.css"), []byte("body{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("TOP SECRET"), 0o644)

	app := quietApp()
	app.HandleDir("/static", os.DirFS(public))
	app.Get("/secret.txt", ok("routed, not the file"))
	srv := httptest.NewServer(app)
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	tests := []struct {
		target string
		code   int
		body   string
	}{
		{"/static/css/site.css", 200, "body{}"},
		{"/static/", 200, "home"},
		{"/static", 301, ""},
		{"/static/css", 301, ""},
		{"/static/missing.css", 404, ""},
		{"/static/../secret.txt", 301, ""},            // cleaned: redirected out of /static, never served from disk
		{"/static/%2e%2e/secret.txt", 301, ""},        // decoded to .., cleaned like the literal form
		{"/static/%2e%2e%2fsecret.txt", 400, ""},      // encoded slash
		{"/static/..%2fsecret.txt", 400, ""},          // encoded slash
		{"/static/..%5csecret.txt", 400, ""},          // encoded backslash
		{"/static/..\\secret.txt", 400, ""},           // raw backslash
		{"/static/css%00.css", 400, ""},               // NUL
		{"/static/%2E%2E/%2E%2E/secret.txt", 301, ""}, // upper-case encoding, cleaned too
		{"/static/css/..%2F..%2Fsecret.txt", 400, ""}, // mixed
	}
	for _, tt := range tests {
		res, body := rawGet(t, addr, tt.target)
		if res.StatusCode != tt.code {
			t.Errorf("%s: code %d, want %d (body %q)", tt.target, res.StatusCode, tt.code, body)
		}
		if strings.Contains(body, "TOP SECRET") {
			t.Errorf("%s: served a file outside the root", tt.target)
		}
		if tt.body != "" && body != tt.body {
			t.Errorf("%s: body %q, want %q", tt.target, body, tt.body)
		}
		if loc := res.Header.Get("Location"); res.StatusCode == 301 && strings.HasPrefix(tt.target, "/static/") && strings.Contains(tt.target, "secret") {
			// Following the redirect lands on a route, not on the file system.
			r2, b2 := rawGet(t, addr, loc)
			if strings.Contains(b2, "TOP SECRET") || r2.StatusCode == 200 && b2 != "routed, not the file" {
				t.Errorf("%s -> %s: %d %q", tt.target, loc, r2.StatusCode, b2)
			}
		}
	}
}

func TestHandleDirConditionalAndRange(t *testing.T) {
	mod := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fsys := fstest.MapFS{
		"a.txt":           {Data: []byte("0123456789"), ModTime: mod},
		"docs/index.html": {Data: []byte("docs"), ModTime: mod},
	}
	app := quietApp()
	app.HandleDir("/files/", fsys)
	w := do(app, "GET", "/files/a.txt", nil)
	etag := w.Header().Get("Etag")
	if w.Code != 200 || w.Body.String() != "0123456789" || etag == "" || w.Header().Get("Last-Modified") == "" {
		t.Fatalf("file: %d %q etag=%q", w.Code, w.Body, etag)
	}
	r := httptest.NewRequest("GET", "/files/a.txt", nil)
	r.Header.Set("If-None-Match", etag)
	w = httptest.NewRecorder()
	app.ServeHTTP(w, r)
	if w.Code != 304 {
		t.Fatalf("If-None-Match: %d", w.Code)
	}
	r = httptest.NewRequest("GET", "/files/a.txt", nil)
	r.Header.Set("Range", "bytes=2-4")
	w = httptest.NewRecorder()
	app.ServeHTTP(w, r)
	if w.Code != 206 || w.Body.String() != "234" {
		t.Fatalf("Range: %d %q", w.Code, w.Body)
	}
	if w := do(app, "GET", "/files/docs/", nil); w.Body.String() != "docs" {
		t.Fatalf("index: %d %q", w.Code, w.Body)
	}
	if w := do(app, "HEAD", "/files/a.txt", nil); w.Code != 200 || w.Header().Get("Content-Length") != "10" {
		t.Fatalf("HEAD: %d %v", w.Code, w.Header())
	}
	if err := quietApp().HandleDir("/x", nil).Err(); err == nil {
		t.Fatal("nil fs accepted")
	}
}

// TestFileWithTrailingSlash checks that a file is not served under a name
// ending in a slash (issue 12 item 10: /index.html/ answered 200).
func TestFileWithTrailingSlash(t *testing.T) {
	app := quietApp()
	app.HandleDir("/", fstest.MapFS{
		"index.html":   {Data: []byte("home")},
		"css/site.css": {Data: []byte("body{}")},
	})
	tests := []struct {
		target string
		code   int
	}{
		{"/index.html/", 404},
		{"/css/site.css/", 404},
		{"/", 200},
		{"/index.html", 200},
		{"/css/site.css", 200},
	}
	for _, tt := range tests {
		if w := do(app, "GET", tt.target, nil); w.Code != tt.code {
			t.Errorf("%s: %d %q, want %d", tt.target, w.Code, w.Body, tt.code)
		}
	}
}
