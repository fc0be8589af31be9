package core

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBodyLimitOverHTTP2 sends requests over HTTP/2 (h2c, the Go client)
// with a body limit of 10 bytes: a request that announces no body (a GET,
// whose HEADERS end the stream, or Content-Length: 0) gets no body
// wrapper, and the limit still holds for every body that can bring bytes,
// announced or not.
func TestBodyLimitOverHTTP2(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithH2C(), WithBodyLimit(10))
	state := func(ctx Context) {
		wrapped := "unwrapped"
		if ctx.s.body != nil {
			wrapped = "wrapped"
		}
		ctx.Text(ctx.Request().Proto + " " + wrapped)
	}
	app.Get("/state", state)
	app.Post("/state", state)
	app.Post("/echo", func(ctx Context) {
		b, err := ctx.ReadBody()
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.Text(string(b))
	})
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()
	tr := &http.Transport{Protocols: new(http.Protocols)}
	tr.Protocols.SetUnencryptedHTTP2(true)
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}

	unknown := func(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) } // no length for the client
	tests := []struct {
		name, method, path string
		body               io.Reader
		wantCode           int
		wantBody           string
	}{
		{"GET", "GET", "/state", nil, 200, "HTTP/2.0 unwrapped"},
		{"POST without a body", "POST", "/state", http.NoBody, 200, "HTTP/2.0 unwrapped"},
		{"POST with a body", "POST", "/state", strings.NewReader("abc"), 200, "HTTP/2.0 wrapped"},
		{"body within the limit", "POST", "/echo", strings.NewReader("12345"), 200, "12345"},
		{"announced body over the limit", "POST", "/echo", strings.NewReader(strings.Repeat("x", 20)), 413, ""},
		{"unannounced body over the limit", "POST", "/echo", unknown(strings.Repeat("x", 20)), 413, ""},
		{"unannounced body within the limit", "POST", "/echo", unknown("abc"), 200, "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, "http://"+addr+tt.path, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.ProtoMajor != 2 || resp.StatusCode != tt.wantCode || tt.wantBody != "" && string(b) != tt.wantBody {
				t.Errorf("%s %s: %s %d %q, want HTTP/2 %d %q", tt.method, tt.path, resp.Proto, resp.StatusCode, b, tt.wantCode, tt.wantBody)
			}
		})
	}
}
