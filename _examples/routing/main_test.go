// Tests of the routing example over HTTP against the real application.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestRouting(t *testing.T) {
	srv := httptest.NewServer(newApp())
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	tests := []struct {
		name, method, path string
		header             map[string]string
		form               url.Values
		wantStatus         int
		wantBody           string // substring
		wantHeader         map[string]string
	}{
		{name: "static wins", method: "GET", path: "/users/new", wantStatus: 200, wantBody: "the new-user form"},
		{name: "typed int", method: "GET", path: "/users/42", wantStatus: 200, wantBody: "user #42"},
		{name: "plain param when not an int", method: "GET", path: "/users/ann", wantStatus: 200, wantBody: "user named ann"},
		{name: "int out of range falls to plain", method: "GET", path: "/users/99999999999999999999", wantStatus: 200, wantBody: "user named 99999999999999999999"},
		{name: "post form", method: "POST", path: "/users", form: url.Values{"name": {"zoe"}}, wantStatus: 201, wantBody: "created zoe"},
		{name: "uint and alpha", method: "GET", path: "/posts/2024/vireo", wantStatus: 200, wantBody: "post vireo of 2024"},
		{name: "alpha refuses digits", method: "GET", path: "/posts/2024/v1", wantStatus: 404, wantBody: "Page not found"},
		{name: "uint refuses negative", method: "GET", path: "/posts/-1/vireo", wantStatus: 404},
		{name: "uuid", method: "GET", path: "/orders/123e4567-e89b-12d3-a456-426614174000", wantStatus: 200, wantBody: "order 123e4567-e89b-12d3-a456-426614174000"},
		{name: "not a uuid", method: "GET", path: "/orders/123", wantStatus: 404},
		{name: "bool true", method: "GET", path: "/features/true", wantStatus: 200, wantBody: "feature enabled"},
		{name: "bool false", method: "GET", path: "/features/false", wantStatus: 200, wantBody: "feature disabled"},
		{name: "bool refuses yes", method: "GET", path: "/features/yes", wantStatus: 404},
		{name: "wildcard", method: "GET", path: "/files/docs/a/b.txt", wantStatus: 200, wantBody: "file docs/a/b.txt"},
		{name: "empty wildcard", method: "GET", path: "/files/", wantStatus: 200, wantBody: "listing of /"},
		{name: "group route", method: "GET", path: "/api/v1/status", wantStatus: 200, wantBody: `{"status":"ok"}`,
			wantHeader: map[string]string{"X-API-Version": "1", "Content-Type": "application/json; charset=utf-8"}},
		{name: "nested group without token", method: "GET", path: "/api/v1/admin/stats", wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": "Bearer", "X-API-Version": "1"}},
		{name: "nested group with token", method: "GET", path: "/api/v1/admin/stats", header: map[string]string{"Authorization": "Bearer secret"},
			wantStatus: 200, wantBody: `{"users":2}`},
		{name: "group 404 is JSON", method: "GET", path: "/api/v1/nope", wantStatus: 404, wantBody: `{"error":"no such endpoint","path":"/api/v1/nope"}`},
		{name: "custom 404 page", method: "GET", path: "/nowhere", wantStatus: 404, wantBody: "<h1>Page not found</h1>",
			wantHeader: map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{name: "custom 405 with Allow", method: "DELETE", path: "/users/42", wantStatus: 405, wantBody: "method DELETE is not allowed here; use one of: GET, HEAD, OPTIONS",
			wantHeader: map[string]string{"Allow": "GET, HEAD, OPTIONS"}},
		{name: "trailing slash redirect", method: "GET", path: "/api/v1/status/", wantStatus: 301,
			wantHeader: map[string]string{"Location": "/api/v1/status"}},
		{name: "dot segments cleaned", method: "GET", path: "/files/../users/42", wantStatus: 301,
			wantHeader: map[string]string{"Location": "/users/42"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.form != nil {
				body = strings.NewReader(tt.form.Encode())
			}
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if tt.form != nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, got)
			}
			if !strings.Contains(string(got), tt.wantBody) {
				t.Errorf("body = %q, want it to contain %q", got, tt.wantBody)
			}
			for k, v := range tt.wantHeader {
				if h := res.Header.Get(k); h != v {
					t.Errorf("header %s = %q, want %q", k, h, v)
				}
			}
		})
	}
}
