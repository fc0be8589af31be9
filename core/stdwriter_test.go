package core

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// gzipWriter is the writer of a plain gzip middleware.
type gzipWriter struct {
	http.ResponseWriter
	zw *gzip.Writer
}

func (g gzipWriter) Write(p []byte) (int, error) { return g.zw.Write(p) }

// gzipMiddleware is net/http middleware as commonly written: wrap the
// writer, call next, close the stream.
func gzipMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Del("Content-Length")
		zw := gzip.NewWriter(w)
		defer zw.Close()
		next.ServeHTTP(gzipWriter{w, zw}, r)
	})
}

// TestErrorPagesThroughStdWriter is the regression test of issue 12 item
// 8: error pages are written inside the chain, through the writer a
// net/http middleware installed, before it closes its stream.
func TestErrorPagesThroughStdWriter(t *testing.T) {
	tests := []struct {
		name    string
		install func(app *Application)
	}{
		{"UseBeforeRouting", func(app *Application) { app.UseBeforeRouting(WrapMiddleware(gzipMiddleware)) }},
		{"Use", func(app *Application) { app.Use(WrapMiddleware(gzipMiddleware)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			tt.install(app)
			app.Get("/ok", ok("fine"))
			app.Get("/fail", func(c Context) { c.StopWithError(NewHTTPError(http.StatusConflict, "already there")) })
			app.Get("/teapot", func(c Context) { c.StopWithStatus(http.StatusTeapot) })
			app.Post("/only-post", ok(""))
			cases := []struct {
				method, target string
				code           int
				body           string
			}{
				{"GET", "/ok", 200, "fine"},
				{"GET", "/fail", 409, "Conflict: already there"},
				{"GET", "/teapot", 418, "I'm a teapot"},
			}
			if tt.name == "UseBeforeRouting" { // unmatched requests pass router middleware only
				cases = append(cases,
					struct {
						method, target string
						code           int
						body           string
					}{"GET", "/missing", 404, "Not Found"},
					struct {
						method, target string
						code           int
						body           string
					}{"GET", "/only-post", 405, "Method Not Allowed"})
			}
			for _, cs := range cases {
				w := do(app, cs.method, cs.target, nil)
				if w.Code != cs.code || w.Header().Get("Content-Encoding") != "gzip" {
					t.Errorf("%s: %d %q, want %d gzip", cs.target, w.Code, w.Header().Get("Content-Encoding"), cs.code)
					continue
				}
				zr, err := gzip.NewReader(w.Body)
				if err != nil {
					t.Errorf("%s: body is not gzip (%d bytes): %v", cs.target, w.Body.Len(), err)
					continue
				}
				b, err := io.ReadAll(zr)
				if err != nil || !strings.HasPrefix(string(b), cs.body) {
					t.Errorf("%s: body %q (%v), want %q", cs.target, b, err, cs.body)
				}
			}
		})
	}
}
