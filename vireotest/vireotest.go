// Package vireotest helps test Vireo applications over real HTTP.
//
// New starts an httptest.Server for an application (after checking that it
// builds), and the returned Client sends requests with a cookie jar, so
// sessions carry over between calls, and answers with the whole response
// read into a Response:
//
//	c := vireotest.New(t, app)
//	res := c.Get("/users/42")
//	res.Expect(t, 200, "user 42")
package vireotest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// Client sends requests to a test server. It keeps cookies and does not
// follow redirects, so tests see them.
type Client struct {
	t      testing.TB
	Server *httptest.Server
	HTTP   *http.Client
}

// Response is a response read in full.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       string
}

// New builds app (failing the test on registration errors), serves it on a
// loopback httptest.Server closed when the test ends, and returns a Client.
func New(t testing.TB, app *core.Application) *Client {
	t.Helper()
	if err := app.Build(); err != nil {
		t.Fatalf("vireotest: application does not build: %v", err)
	}
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	return &Client{
		t:      t,
		Server: srv,
		HTTP: &http.Client{
			Jar:           jar,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// URL returns the absolute URL of path on the test server.
func (c *Client) URL(path string) string { return c.Server.URL + path }

// Do sends method to path with body and header pairs ("Name", "value", ...).
// A name without its value fails the test.
func (c *Client) Do(method, path string, body io.Reader, header ...string) *Response {
	c.t.Helper()
	if len(header)%2 != 0 {
		c.t.Fatalf("vireotest: %s %s: header %q has no value", method, path, header[len(header)-1])
	}
	req, err := http.NewRequest(method, c.URL(path), body)
	if err != nil {
		c.t.Fatalf("vireotest: %s %s: %v", method, path, err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatalf("vireotest: %s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("vireotest: reading %s %s: %v", method, path, err)
	}
	return &Response{StatusCode: res.StatusCode, Header: res.Header, Body: string(b)}
}

// Get sends a GET request.
func (c *Client) Get(path string, header ...string) *Response {
	c.t.Helper()
	return c.Do(http.MethodGet, path, nil, header...)
}

// PostForm sends form as an urlencoded POST body.
func (c *Client) PostForm(path string, form url.Values, header ...string) *Response {
	c.t.Helper()
	header = append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)
	return c.Do(http.MethodPost, path, strings.NewReader(form.Encode()), header...)
}

// SendJSON sends v encoded as JSON with method.
func (c *Client) SendJSON(method, path string, v any, header ...string) *Response {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("vireotest: encoding JSON: %v", err)
	}
	header = append([]string{"Content-Type", "application/json"}, header...)
	return c.Do(method, path, bytes.NewReader(b), header...)
}

// Expect fails the test unless the response has the status and body.
func (r *Response) Expect(t testing.TB, status int, body string) {
	t.Helper()
	if r.StatusCode != status || r.Body != body {
		t.Fatalf("got %d %q, want %d %q", r.StatusCode, r.Body, status, body)
	}
}

// DecodeJSON decodes the body into v, failing the test on error.
func (r *Response) DecodeJSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("vireotest: decoding %q: %v", r.Body, err)
	}
}
