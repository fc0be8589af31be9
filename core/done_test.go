// Tests of the done hooks (Context.OnDone): they run once the response is
// finished (error pages and the 500 of a panic included) with a Context
// that still reads the final status, size, route and error; a panicking
// hook is contained; registering allocates nothing.

package core

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// doneRecord keeps what a done hook saw.
type doneRecord struct {
	runs    int
	status  int
	bytes   int64
	route   string
	err     string
	written bool
}

func (d *doneRecord) Done(c Context) {
	d.runs++
	d.status, d.bytes, d.written = c.Status(), c.BytesWritten(), c.Written()
	if rt := c.Route(); rt != nil {
		d.route = rt.Pattern
	}
	if err := c.StopError(); err != nil {
		d.err = err.Error()
	}
}

func TestDoneHookSeesFinishedResponse(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		handler Handler
		want    doneRecord
	}{
		{"body", "/users/7", func(c Context) { c.WriteString("user 7") },
			doneRecord{runs: 1, status: 200, bytes: 6, route: "/users/{id}", written: true}},
		{"error page", "/users/7", func(c Context) { c.StopWithError(NewHTTPError(http.StatusConflict, "taken")) },
			doneRecord{runs: 1, status: 409, bytes: int64(len("Conflict: taken")), route: "/users/{id}", err: "taken", written: true}},
		{"custom error page", "/users/7", func(c Context) { c.StopWithStatus(http.StatusTeapot) },
			doneRecord{runs: 1, status: 418, bytes: int64(len("custom teapot")), route: "/users/{id}", written: true}},
		{"panic", "/users/7", func(c Context) { panic("bug") },
			doneRecord{runs: 1, status: 500, bytes: int64(len("Internal Server Error")), route: "/users/{id}", err: "panic: bug", written: true}},
		{"unmatched", "/nowhere", nil,
			doneRecord{runs: 1, status: 404, bytes: int64(len("Not Found")), written: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got doneRecord
			app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			app.UseBeforeRouting(func(c Context) { c.OnDone(&got); c.Next() })
			app.OnErrorCode(http.StatusTeapot, func(c Context) { c.WriteString("custom teapot") })
			if tt.handler != nil {
				app.Get("/users/{id}", tt.handler)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if got != tt.want {
				t.Fatalf("hook saw %+v, want %+v", got, tt.want)
			}
			if int64(rec.Body.Len()) != got.bytes || rec.Code != got.status {
				t.Fatalf("client got %d %q, hook saw %d and %d bytes", rec.Code, rec.Body.String(), got.status, got.bytes)
			}
		})
	}
}

// TestDoneHookAfterAbortedResponse checks that a panic after part of the
// body went out (the connection is aborted) still runs the hook.
func TestDoneHookAfterAbortedResponse(t *testing.T) {
	var got doneRecord
	app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.Get("/", func(c Context) {
		c.OnDone(&got)
		c.WriteString("part")
		panic("late bug")
	})
	func() {
		defer func() {
			if rec := recover(); rec != http.ErrAbortHandler {
				t.Fatalf("recovered %v, want http.ErrAbortHandler", rec)
			}
		}()
		app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	}()
	if got.runs != 1 || got.status != 200 || got.bytes != 4 {
		t.Fatalf("hook saw %+v, want one run with 200 and 4 bytes", got)
	}
}

// panicDone panics in Done.
type panicDone struct{}

func (panicDone) Done(Context) { panic("hook bug") }

func TestDoneHookPanicIsContained(t *testing.T) {
	var logs bytes.Buffer
	var got doneRecord
	app := New(WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	app.Get("/", func(c Context) {
		c.OnDone(panicDone{})
		c.OnDone(&got)
		c.WriteString("ok")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Body.String() != "ok" || got.runs != 1 {
		t.Fatalf("got %q and %d runs of the second hook", rec.Body.String(), got.runs)
	}
	if !strings.Contains(logs.String(), "panic in done hook") {
		t.Fatalf("the hook's panic was not logged: %s", logs.String())
	}
}

// TestDoneHookBehindFromStd checks that a hook registered behind a net/http
// middleware runs at the end of the outer request.
func TestDoneHookBehindWrapMiddleware(t *testing.T) {
	var got doneRecord
	app := New()
	app.Use(WrapMiddleware(func(next http.Handler) http.Handler { return next }))
	app.Get("/", func(c Context) { c.OnDone(&got); c.WriteString("ok") })
	app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if got.runs != 1 || got.bytes != 2 || got.route != "/" {
		t.Fatalf("hook saw %+v", got)
	}
}

// nopDone does nothing.
type nopDone struct{}

func (*nopDone) Done(Context) {}

func TestDoneHookAllocatesNothing(t *testing.T) {
	h := &nopDone{}
	allocs := func(withHook bool) float64 {
		app := New()
		app.Get("/", func(c Context) {
			if withHook {
				c.OnDone(h)
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
		t.Fatalf("%v allocations per request with a done hook, %v without", with, without)
	}
}
