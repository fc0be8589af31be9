// Tests of hello-world over HTTP against the real application.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHelloWorld(t *testing.T) {
	srv := httptest.NewServer(newApp())
	defer srv.Close()

	tests := []struct {
		name, path string
		wantStatus int
		wantBody   string
	}{
		{"root", "/", http.StatusOK, "Hello, World!"},
		{"path parameter", "/hello/ann", http.StatusOK, "Hello, ann!"},
		{"query parameter", "/hello/bob?greeting=Hi", http.StatusOK, "Hi, bob!"},
		{"escaped parameter", "/hello/J%C3%BCrgen", http.StatusOK, "Hello, Jürgen!"},
		{"missing name", "/hello/", http.StatusNotFound, "Not Found"},
		{"unknown path", "/nope", http.StatusNotFound, "Not Found"},
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := client.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, body)
			}
			if tt.wantBody != "" && string(body) != tt.wantBody {
				t.Errorf("body = %q, want %q", body, tt.wantBody)
			}
		})
	}
}
