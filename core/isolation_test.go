package core

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// staleResult is what a handler that outlived its request saw.
type staleResult struct {
	writeErr  error
	readPanic any
}

// touchStale writes and reads through c after its request ended.
func touchStale(c *Context) staleResult {
	var res staleResult
	_, res.writeErr = c.WriteString("LEAKED")
	func() {
		defer func() { res.readPanic = recover() }()
		_ = c.Param("id")
	}()
	return res
}

// TestTimeoutHandlerIsolation is the regression test of issue 12 item 1: a
// handler still running after http.TimeoutHandler (mounted with FromStd)
// answered must not reach the next request served by the same pooled
// Context, and its late reads and writes fail with ErrContextReleased.
func TestTimeoutHandlerIsolation(t *testing.T) {
	timeout := func(next http.Handler) http.Handler {
		return http.TimeoutHandler(next, 5*time.Millisecond, "timeout")
	}
	tests := []struct {
		name    string
		install func(app *Application)
	}{
		{"Use", func(app *Application) { app.Use(FromStd(timeout)) }},
		{"UseRouter", func(app *Application) { app.UseRouter(FromStd(timeout)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			app.UseRouter(RequestLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			tt.install(app)
			wake := make(chan struct{})
			stale := make(chan staleResult, 1)
			app.Get("/slow/{id}", func(c *Context) {
				<-wake
				stale <- touchStale(c)
			})
			app.Get("/fast/{id}", func(c *Context) {
				close(wake) // the stale handler acts while this request runs
				res := <-stale
				if res.writeErr != ErrContextReleased || res.readPanic != ErrContextReleased {
					t.Errorf("stale handler: write error %v, read panic %v; want ErrContextReleased for both", res.writeErr, res.readPanic)
				}
				c.WriteString("fast-" + c.Param("id"))
			})
			if w := do(app, "GET", "/slow/1", nil); w.Code != http.StatusServiceUnavailable {
				t.Fatalf("slow: %d %q, want the 503 of TimeoutHandler", w.Code, w.Body)
			}
			if w := do(app, "GET", "/fast/2", nil); w.Code != 200 || w.Body.String() != "fast-2" {
				t.Fatalf("fast: %d %q, want 200 \"fast-2\"", w.Code, w.Body)
			}
		})
	}
}

// TestLateNextRefused checks that a middleware calling next after it
// returned (it kept the request) runs nothing.
func TestLateNextRefused(t *testing.T) {
	kept := make(chan func(), 1)
	keep := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("kept"))
			kept <- func() { next.ServeHTTP(w, r) }
		})
	}
	app := quietApp()
	ran := 0
	app.Get("/k", FromStd(keep), func(c *Context) { ran++ })
	app.Get("/other", ok("other"))
	do(app, "GET", "/k", nil)
	late := <-kept
	if w := do(app, "GET", "/other", nil); w.Body.String() != "other" {
		t.Fatalf("other: %q", w.Body)
	}
	late()
	if ran != 0 {
		t.Fatalf("the chain ran %d times after its middleware returned", ran)
	}
}

// TestGoroutineKeepingContext checks that a goroutine that kept ctx past
// its handler gets ErrContextReleased from reads and writes, without a data
// race (run with -race), and that nothing it writes reaches a response.
func TestGoroutineKeepingContext(t *testing.T) {
	app := quietApp()
	wake := make(chan struct{})
	stale := make(chan staleResult, 1)
	app.Get("/bg/{id}", func(c *Context) {
		go func() {
			<-wake
			stale <- touchStale(c)
		}()
		c.WriteString("bg")
	})
	if w := do(app, "GET", "/bg/1", nil); w.Body.String() != "bg" {
		t.Fatalf("bg: %q", w.Body)
	}
	close(wake)
	res := <-stale
	if res.writeErr != ErrContextReleased || res.readPanic != ErrContextReleased {
		t.Errorf("stale goroutine: write error %v, read panic %v; want ErrContextReleased", res.writeErr, res.readPanic)
	}
	if w := do(app, "GET", "/bg/2", nil); strings.Contains(w.Body.String(), "LEAKED") {
		t.Errorf("next response carries the stale write: %q", w.Body)
	}
}

// TestFromStdStateFlowsBack checks that what the chain after a FromStd
// middleware sets (route, parameters, values, error) is seen by the
// middleware that runs before it, as without FromStd.
func TestFromStdStateFlowsBack(t *testing.T) {
	pass := func(next http.Handler) http.Handler { return next }
	var route, param, value string
	var err error
	app := quietApp()
	app.UseRouter(func(c *Context) {
		c.Next()
		if c.Route() != nil {
			route = c.Route().Pattern
		}
		param, value, err = c.Param("id"), c.Values().GetString("k"), c.Err()
	})
	app.UseRouter(FromStd(pass))
	app.Get("/items/{id}", func(c *Context) {
		c.Values().Set("k", "v")
		c.StopWithError(NewHTTPError(http.StatusConflict, "taken"))
	})
	if w := do(app, "GET", "/items/7", nil); w.Code != http.StatusConflict {
		t.Fatalf("status %d", w.Code)
	}
	if route != "/items/{id}" || param != "7" || value != "v" || StatusOf(err) != http.StatusConflict {
		t.Errorf("outer middleware saw route %q, param %q, value %q, err %v", route, param, value, err)
	}
}

// TestStaleStopLeavesPooledContext checks that a goroutine calling
// StopWithError or StopExecution on a kept ctx after its request ended
// fails with ErrContextReleased and leaves the pooled Context alone: the
// next request it serves runs its handlers and carries no error.
func TestStaleStopLeavesPooledContext(t *testing.T) {
	for _, stop := range []struct {
		name string
		fn   func(c *Context)
	}{
		{"StopWithError", func(c *Context) { c.StopWithError(errors.New("stale")) }},
		{"StopExecution", func(c *Context) { c.StopExecution() }},
		{"StopWithStatus", func(c *Context) { c.StopWithStatus(http.StatusTeapot) }},
	} {
		t.Run(stop.name, func(t *testing.T) {
			app := quietApp()
			wake := make(chan struct{})
			stale := make(chan any, 1)
			var nextErr error
			app.Get("/keep", func(c *Context) {
				go func() {
					<-wake
					defer func() { stale <- recover() }()
					stop.fn(c)
				}()
			})
			app.Get("/next", func(c *Context) {
				nextErr = c.Err()
				c.WriteString("next")
			})
			do(app, "GET", "/keep", nil)
			close(wake)
			if rec := <-stale; rec != ErrContextReleased {
				t.Errorf("stale %s: recovered %v, want ErrContextReleased", stop.name, rec)
			}
			if w := do(app, "GET", "/next", nil); w.Code != http.StatusOK || w.Body.String() != "next" || nextErr != nil {
				t.Errorf("next request: %d %q, Err %v; want 200 \"next\" and no error", w.Code, w.Body, nextErr)
			}
		})
	}
}
