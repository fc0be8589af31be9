package core

import (
	"net/http"
	"strings"
	"testing"
)

// TestEscapedDotSegments is the regression test of issue 12 item 2:
// percent-encoded "." and ".." segments get the treatment of literal ones,
// and no parameter ever holds a dot segment.
func TestEscapedDotSegments(t *testing.T) {
	app := quietApp()
	echo := func(c Context) {
		if p := "/" + c.Param("p") + "/"; strings.Contains(p, "/../") || strings.Contains(p, "/./") {
			t.Errorf("%s: parameter %q holds a dot segment", c.Path(), c.Param("p"))
		}
		c.Text(c.Param("p"))
	}
	app.Get("/files/{p...}", echo)
	app.Get("/users/{p}", echo)
	tests := []struct {
		target   string
		code     int
		location string // for redirects
		body     string // for 200
	}{
		{"/files/%2e%2e/%2e%2e/etc/passwd", http.StatusMovedPermanently, "/etc/passwd", ""},
		{"/files/%2E%2E/x", http.StatusMovedPermanently, "/x", ""},
		{"/files/a/%2e/b", http.StatusMovedPermanently, "/files/a/b", ""},
		{"/files/a/%2e./b", http.StatusMovedPermanently, "/files/b", ""},
		{"/files/a/.%2E/b", http.StatusMovedPermanently, "/files/b", ""},
		{"/users/%2e%2e", http.StatusMovedPermanently, "/", ""},
		{"/users/%2e", http.StatusMovedPermanently, "/users", ""},
		{"/files/a%2F..%2Fb", http.StatusBadRequest, "", ""},
		{"/files/%2e%2e%2Fetc%2Fpasswd", http.StatusBadRequest, "", ""},
		{"/users/.%2e%2fx", http.StatusBadRequest, "", ""},
		{"/users/a%2Fb", http.StatusOK, "", "a/b"},
		{"/users/%2e%2ex", http.StatusOK, "", "..x"},
		{"/files/a/b%2e", http.StatusOK, "", "a/b."},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			w := do(app, "GET", tt.target, nil)
			if w.Code != tt.code {
				t.Fatalf("status %d (%q), want %d", w.Code, w.Body, tt.code)
			}
			if tt.location != "" && w.Header().Get("Location") != tt.location {
				t.Errorf("Location %q, want %q", w.Header().Get("Location"), tt.location)
			}
			if tt.code == http.StatusOK && w.Body.String() != tt.body {
				t.Errorf("body %q, want %q", w.Body, tt.body)
			}
		})
	}
}
