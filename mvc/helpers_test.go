// Test helpers: building applications and sending requests through
// httptest.

package mvc_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// quietApp returns an application whose logger discards output, so
// expected 5xx errors do not clutter the test log.
func quietApp(opts ...core.Option) *core.Application {
	opts = append([]core.Option{core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}, opts...)
	return core.New(opts...)
}

// request describes one request and the response expected for it.
type request struct {
	method, target string
	body           string
	contentType    string

	status  int
	want    string            // the exact body, unless contains is set
	contain string            // a substring of the body
	headers map[string]string // response headers that must match
}

func (rq request) String() string { return rq.method + " " + rq.target }

func serve(h http.Handler, method, target, body, contentType string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// check sends every request to app and compares the responses.
func check(t *testing.T, app *core.Application, reqs []request) {
	t.Helper()
	if err := app.Build(); err != nil {
		t.Fatalf("Build: %v", err)
	}
	for _, rq := range reqs {
		rq := rq
		t.Run(rq.String(), func(t *testing.T) {
			rec := serve(app, rq.method, rq.target, rq.body, rq.contentType)
			body := rec.Body.String()
			if rec.Code != rq.status {
				t.Errorf("status %d, want %d (body %q)", rec.Code, rq.status, body)
			}
			switch {
			case rq.contain != "":
				if !strings.Contains(body, rq.contain) {
					t.Errorf("body %q does not contain %q", body, rq.contain)
				}
			case rq.method != http.MethodHead && body != rq.want:
				t.Errorf("body %q, want %q", body, rq.want)
			}
			for k, v := range rq.headers {
				if got := rec.Header().Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// routeList returns "METHOD /pattern" of each route.
func routeList(routes []*core.Route) []string {
	out := make([]string, len(routes))
	for i, rt := range routes {
		out[i] = fmt.Sprint(rt)
	}
	return out
}

func newRequest(method, target string) *http.Request { return httptest.NewRequest(method, target, nil) }

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
