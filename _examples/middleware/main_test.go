// Tests of the middleware example over HTTP against the real application,
// including what it logs.
package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestMiddleware(t *testing.T) {
	var logs syncBuffer
	srv := httptest.NewServer(newApp(&logs))
	defer srv.Close()

	tests := []struct {
		name, path     string
		user, password string // basic auth when user != ""
		requestID      string
		wantStatus     int
		wantBody       string   // substring
		wantNotInBody  string   // substring that must not appear
		wantLog        []string // substrings of the log
		wantRequestID  string   // exact X-Request-ID, "" for any non-empty
	}{
		{name: "logged and given an ID", path: "/", requestID: "abc-123", wantStatus: 200,
			wantBody: "your request ID is abc-123", wantRequestID: "abc-123",
			wantLog: []string{"msg=\"saying hello\" request_id=abc-123", "msg=request method=GET path=/ status=200", "request_id=abc-123"}},
		{name: "unsafe client ID replaced", path: "/", requestID: "<script>", wantStatus: 200,
			wantNotInBody: "<script>"},
		{name: "404 logged too", path: "/missing", wantStatus: 404,
			wantLog: []string{"path=/missing status=404"}},
		{name: "no credentials", path: "/admin", wantStatus: 401},
		{name: "wrong password", path: "/admin", user: "ann", password: "guess", wantStatus: 401},
		{name: "unknown user", path: "/admin", user: "bob", password: "s3cret", wantStatus: 401},
		{name: "authenticated", path: "/admin", user: "ann", password: "s3cret", wantStatus: 200,
			wantBody: "welcome to the admin area, ann"},
		{name: "panic recovered into the 500 page", path: "/panic", requestID: "req-9", wantStatus: 500,
			wantBody: "logged with request ID req-9", wantNotInBody: "hunter2",
			wantLog: []string{"vireo: panic recovered", "database connection lost", "path=/panic status=500"}},
		{name: "still serving after the panic", path: "/", wantStatus: 200, wantBody: "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+tt.path, nil)
			if tt.user != "" {
				req.SetBasicAuth(tt.user, tt.password)
			}
			if tt.requestID != "" {
				req.Header.Set("X-Request-ID", tt.requestID)
			}
			res, err := http.DefaultClient.Do(req)
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
			if tt.wantNotInBody != "" && strings.Contains(string(body), tt.wantNotInBody) {
				t.Errorf("body = %q, must not contain %q", body, tt.wantNotInBody)
			}
			id := res.Header.Get("X-Request-ID")
			if id == "" || tt.wantRequestID != "" && id != tt.wantRequestID {
				t.Errorf("X-Request-ID = %q, want %q (or any when empty)", id, tt.wantRequestID)
			}
			if tt.wantStatus == 401 && res.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if admin := strings.HasPrefix(tt.path, "/admin"); admin != (res.Header.Get("X-Robots-Tag") != "") {
				t.Errorf("X-Robots-Tag = %q on %s", res.Header.Get("X-Robots-Tag"), tt.path)
			}
			for _, want := range tt.wantLog {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("log does not contain %q:\n%s", want, logs.String())
				}
			}
		})
	}
}
