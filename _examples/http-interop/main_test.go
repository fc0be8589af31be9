// Tests of the http-interop example over HTTP: the standard mux in front,
// Vireo under /v2/, net/http handlers inside Vireo.
package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestInterop(t *testing.T) {
	app := newApp()
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newMux(app))
	defer srv.Close()

	tests := []struct {
		name, method, path, body string
		wantStatus               int
		wantBody                 string
	}{
		{"std mux index", "GET", "/", "", 200, "try /healthz (net/http), /v2/hello (Vireo), /v2/users/7 and /v2/legacy/hello/ann\n"},
		{"std mux route", "GET", "/healthz", "", 200, "ok"},
		{"Vireo under the std mux", "GET", "/v2/hello", "", 200, "hello from Vireo, path /hello"},
		{"std handler reads a Vireo param", "GET", "/v2/users/7", "", 200, `{"id":"7","served_by":"net/http handler"}` + "\n"},
		{"typed param still enforced", "GET", "/v2/users/x", "", 404, "Not Found"},
		{"mounted std mux", "GET", "/v2/legacy/hello/ann", "", 200, "legacy hello, ann (path /hello/ann)"},
		{"mounted std mux, POST", "POST", "/v2/legacy/echo", `{"a":[1,2]}`, 200, `{"a":[1,2]}` + "\n"},
		{"mounted std mux 404", "GET", "/v2/legacy/nope", "", 404, "404 page not found\n"},
		{"net/http function in a Vireo handler", "GET", "/v2/teapot", "", 418, "I'm a teapot\n"},
		{"Vireo 404 under /v2/", "GET", "/v2/nope", "", 404, "Not Found"},
		{"std 404 outside /v2/", "GET", "/nope", "", 404, "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus || string(b) != tt.wantBody {
				t.Errorf("got %d %q, want %d %q", res.StatusCode, b, tt.wantStatus, tt.wantBody)
			}
		})
	}
}
