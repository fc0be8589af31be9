// Tests of the before-write hooks (Context.OnBeforeWrite): they run once,
// just before the status line goes out or after a chain that wrote nothing;
// a failing hook replaces the response with the error page; registering
// allocates nothing.

package core

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// countHook counts its runs, sets a header and fails with err.
type countHook struct {
	runs int
	err  error
}

func (h *countHook) BeforeWrite(c Context) error {
	h.runs++
	c.ResponseWriter().Header().Set("X-Hook", "ran")
	return h.err
}

func TestBeforeWriteHooks(t *testing.T) {
	unavailable := &HTTPError{Code: http.StatusServiceUnavailable, Message: "store down"}
	tests := []struct {
		name       string
		err        error
		handler    func(c Context) // after registering the hook
		wantStatus int
		wantBody   string
		wantRuns   int
	}{
		{"body", nil, func(c Context) { c.WriteString("a"); c.WriteString("b") }, 200, "ab", 1},
		{"status only", nil, func(c Context) { c.SetStatus(http.StatusNoContent) }, http.StatusNoContent, "", 1},
		{"nothing written", nil, func(c Context) {}, 200, "", 1},
		{"redirect", nil, func(c Context) { c.Redirect("/x", http.StatusSeeOther) }, http.StatusSeeOther, "<a href=\"/x\">See Other</a>.\n\n", 1},
		{"flush", nil, func(c Context) { c.ResponseWriter().(http.Flusher).Flush(); c.WriteString("a") }, 200, "a", 1},
		{"failing, body", unavailable, func(c Context) {
			if n, err := c.WriteString("secret"); n != 0 || !errors.Is(err, unavailable) {
				t.Errorf("write after a failed hook: %d, %v", n, err)
			}
			c.WriteString("more")
		}, http.StatusServiceUnavailable, "custom 503", 1},
		{"failing, nothing written", unavailable, func(c Context) {}, http.StatusServiceUnavailable, "custom 503", 1},
		{"failing, status then body", unavailable, func(c Context) {
			c.SetStatus(http.StatusCreated)
			c.WriteString("secret")
			c.SetStatus(http.StatusOK) // too late: the response is refused
		}, http.StatusServiceUnavailable, "custom 503", 1},
		{"failing, plain error", errors.New("boom"), func(c Context) { c.WriteString("secret") }, http.StatusInternalServerError, "Internal Server Error", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &countHook{err: tt.err}
			app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			app.OnErrorCode(http.StatusServiceUnavailable, func(c Context) { c.WriteString("custom 503") })
			app.Get("/", func(c Context) {
				c.OnBeforeWrite(h)
				tt.handler(c)
			})
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			if rec.Code != tt.wantStatus || rec.Body.String() != tt.wantBody || h.runs != tt.wantRuns {
				t.Fatalf("got %d %q after %d hook runs, want %d %q after %d", rec.Code, rec.Body.String(), h.runs, tt.wantStatus, tt.wantBody, tt.wantRuns)
			}
			if rec.Header().Get("X-Hook") != "ran" {
				t.Error("the hook's header is missing")
			}
		})
	}
}

func TestBeforeWriteHookNotRunAfterPanic(t *testing.T) {
	h := &countHook{}
	app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.Get("/", func(c Context) {
		c.OnBeforeWrite(h)
		panic("bug")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusInternalServerError || h.runs != 0 {
		t.Fatalf("got %d after %d hook runs, want 500 and none", rec.Code, h.runs)
	}
}

func TestBeforeWriteHookAllocatesNothing(t *testing.T) {
	h := &nopHook{}
	allocs := func(withHook bool) float64 {
		app := New()
		app.Get("/", func(c Context) {
			if withHook {
				c.OnBeforeWrite(h)
			}
			c.WriteString("ok")
		})
		if err := app.Build(); err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		w := &discardWriter{h: http.Header{}}
		app.ServeHTTP(w, req) // the pooled Context grows its hook slice once
		return testing.AllocsPerRun(100, func() { app.ServeHTTP(w, req) })
	}
	if with, without := allocs(true), allocs(false); with != without {
		t.Fatalf("%v allocations per request with a hook, %v without", with, without)
	}
}

// nopHook does nothing.
type nopHook struct{}

func (*nopHook) BeforeWrite(Context) error { return nil }

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header               { return w.h }
func (w *discardWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (w *discardWriter) WriteHeader(int)                   {}
func (w *discardWriter) WriteString(s string) (int, error) { return len(s), nil }

// TestBeforeWriteHooksBehindWrapMiddleware checks that a hook registered by a
// handler behind a net/http middleware runs when the handler wrote nothing
// (a session saved by a handler that only changes it), and that its error
// still becomes the error page, written through the middleware's writer.
func TestBeforeWriteHooksBehindWrapMiddleware(t *testing.T) {
	passthrough := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
	}
	unavailable := &HTTPError{Code: http.StatusServiceUnavailable, Message: "store down"}
	tests := []struct {
		name       string
		err        error
		routerMw   bool
		wantStatus int
		wantBody   string
	}{
		{"Use, nothing written", nil, false, 200, ""},
		{"Use, failing, nothing written", unavailable, false, http.StatusServiceUnavailable, "custom 503"},
		{"UseBeforeRouting, nothing written", nil, true, 200, ""},
		{"UseBeforeRouting, failing, nothing written", unavailable, true, http.StatusServiceUnavailable, "custom 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &countHook{err: tt.err}
			app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			if tt.routerMw {
				app.UseBeforeRouting(WrapMiddleware(passthrough))
			} else {
				app.Use(WrapMiddleware(passthrough))
			}
			app.OnErrorCode(http.StatusServiceUnavailable, func(c Context) { c.WriteString("custom 503") })
			app.Get("/", func(c Context) { c.OnBeforeWrite(h) })
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			if rec.Code != tt.wantStatus || rec.Body.String() != tt.wantBody || h.runs != 1 {
				t.Fatalf("got %d %q after %d hook runs, want %d %q after 1", rec.Code, rec.Body.String(), h.runs, tt.wantStatus, tt.wantBody)
			}
			if rec.Header().Get("X-Hook") != "ran" {
				t.Error("the hook's header is missing")
			}
		})
	}
}
