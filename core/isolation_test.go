package core

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// staleResult is what a handler that outlived its request saw.
type staleResult struct {
	writeErr, rwErr, err error
	param, value, path   string
	alive                bool
}

// ok reports whether every access failed as a stale handle's must.
func (r staleResult) ok() bool {
	return r.writeErr == ErrContextReleased && r.rwErr == ErrContextReleased && r.err == ErrContextReleased &&
		r.param == "" && r.value == "" && r.path == "" && !r.alive
}

// touchStale writes, reads and changes everything it can through c after
// its request ended.
func touchStale(c Context) staleResult {
	var res staleResult
	_, res.writeErr = c.WriteString("LEAKED")
	_, res.rwErr = c.ResponseWriter().Write([]byte("LEAKED"))
	c.ResponseHeader().Set("X-Leak", "1")
	c.SetResponseHeader("X-Leak", "1")
	c.AddResponseHeader("X-Leak", "1")
	c.Values().Set("who", "LEAKED")
	c.SetStatus(http.StatusTeapot)
	c.StopWithError(errors.New("LEAKED"))
	c.SetViewData("who", "LEAKED")
	res.param, res.value, res.path = c.Param("id"), c.Values().GetString("who"), c.Path()
	res.err, res.alive = c.StopError(), c.Alive()
	return res
}

// TestTimeoutHandlerIsolation is the regression test of issue 12 item 1: a
// handler still running after http.TimeoutHandler (mounted with WrapMiddleware)
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
		{"Use", func(app *Application) { app.Use(WrapMiddleware(timeout)) }},
		{"UseBeforeRouting", func(app *Application) { app.UseBeforeRouting(WrapMiddleware(timeout)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			app.UseBeforeRouting(func(c Context) { c.OnDone(doneReader{}); c.Next() }) // reads the response at the very end, as a request logger does
			tt.install(app)
			wake := make(chan struct{})
			stale := make(chan staleResult, 1)
			app.Get("/slow/{id}", func(c Context) {
				<-wake
				stale <- touchStale(c)
			})
			app.Get("/fast/{id}", func(c Context) {
				close(wake) // the stale handler acts while this request runs
				res := <-stale
				if !res.ok() {
					t.Errorf("stale handler saw %+v; want ErrContextReleased and zero values", res)
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
	app.Get("/k", WrapMiddleware(keep), func(c Context) { ran++ })
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
	app.Get("/bg/{id}", func(c Context) {
		if c.Param("id") == "1" { // only the first request's ctx is kept: /bg/2's is live
			go func() {
				<-wake
				stale <- touchStale(c)
			}()
		}
		c.WriteString("bg")
	})
	if w := do(app, "GET", "/bg/1", nil); w.Body.String() != "bg" {
		t.Fatalf("bg: %q", w.Body)
	}
	close(wake)
	res := <-stale
	if !res.ok() {
		t.Errorf("stale goroutine saw %+v; want ErrContextReleased and zero values", res)
	}
	if w := do(app, "GET", "/bg/2", nil); strings.Contains(w.Body.String(), "LEAKED") {
		t.Errorf("next response carries the stale write: %q", w.Body)
	}
}

// TestWrapMiddlewareStateFlowsBack checks that what the chain after a WrapMiddleware
// middleware sets (route, parameters, values, error) is seen by the
// middleware that runs before it, as without WrapMiddleware.
func TestWrapMiddlewareStateFlowsBack(t *testing.T) {
	pass := func(next http.Handler) http.Handler { return next }
	var route, param, value string
	var err error
	app := quietApp()
	app.UseBeforeRouting(func(c Context) {
		c.Next()
		if c.Route() != nil {
			route = c.Route().Pattern
		}
		param, value, err = c.Param("id"), c.Values().GetString("k"), c.StopError()
	})
	app.UseBeforeRouting(WrapMiddleware(pass))
	app.Get("/items/{id}", func(c Context) {
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
// StopWithError or Stop on a kept ctx after its request ended
// does nothing (it does not panic either) and leaves the pooled state
// alone: the next request it serves runs its handlers and carries no error.
func TestStaleStopLeavesPooledContext(t *testing.T) {
	for _, stop := range []struct {
		name string
		fn   func(c Context)
	}{
		{"StopWithError", func(c Context) { c.StopWithError(errors.New("stale")) }},
		{"Stop", func(c Context) { c.Stop() }},
		{"StopWithStatus", func(c Context) { c.StopWithStatus(http.StatusTeapot) }},
	} {
		t.Run(stop.name, func(t *testing.T) {
			app := quietApp()
			wake := make(chan struct{})
			stale := make(chan any, 1)
			var nextErr error
			app.Get("/keep", func(c Context) {
				go func() {
					<-wake
					defer func() { stale <- recover() }()
					stop.fn(c)
				}()
			})
			app.Get("/next", func(c Context) {
				nextErr = c.StopError()
				c.WriteString("next")
			})
			do(app, "GET", "/keep", nil)
			close(wake)
			if rec := <-stale; rec != nil {
				t.Errorf("stale %s panicked: %v", stop.name, rec)
			}
			if w := do(app, "GET", "/next", nil); w.Code != http.StatusOK || w.Body.String() != "next" || nextErr != nil {
				t.Errorf("next request: %d %q, Err %v; want 200 \"next\" and no error", w.Code, w.Body, nextErr)
			}
		})
	}
}

// TestKeptContextAcrossReuse is the regression test of issue 12 item 1 for
// a goroutine that keeps ctx: it acts while the pooled state behind ctx
// serves the next request, and must neither see nor change that request.
// (Before handles carried a generation, the stale write landed in the next
// response and the stale Param read the next request's parameter.)
func TestKeptContextAcrossReuse(t *testing.T) {
	app := quietApp()
	var kept Context
	app.Get("/keep/{id}", func(c Context) {
		c.Values().Set("who", "keeper")
		kept = c
		c.WriteString("kept")
	})
	reused := false
	var res staleResult
	app.Get("/next/{id}", func(c Context) {
		c.Values().Set("who", "next")
		if c.s == kept.s { // the same pooled state: act from the stale handle now
			reused = true
			done := make(chan staleResult)
			go func() { done <- touchStale(kept) }()
			res = <-done
		}
		c.WriteString("next-" + c.Param("id") + "-" + c.Values().GetString("who"))
	})
	// sync.Pool gives the state back on the same P, but may drop it (it
	// does at random under -race): try until the state is reused.
	for i := 0; i < 100 && !reused; i++ {
		do(app, "GET", "/keep/1", nil)
		w := do(app, "GET", "/next/2", nil)
		if w.Code != http.StatusOK || w.Body.String() != "next-2-next" || w.Header().Get("X-Leak") != "" {
			t.Fatalf("next request: %d %q %v; want 200 \"next-2-next\" and no X-Leak", w.Code, w.Body, w.Header())
		}
	}
	if !reused {
		t.Fatal("the pool never handed the state back in 100 tries")
	}
	if !res.ok() {
		t.Errorf("stale handle during the next request saw %+v; want ErrContextReleased and zero values", res)
	}
}

// TestKeptContextsUnderLoad, handlers leaving goroutines that hammer
// their ctx while other requests reuse the pooled states, is an HTTP-level
// test: it runs on both engines as KeptContextsUnderLoad of
// internal/conformance (TestConformance).

// TestReleaseWaitsForKeptCall checks the pin protocol: a kept handle whose
// call is in progress when its request ends holds the state until the call
// returns, so the call finishes on its own request's data and ServeHTTP
// does not return (net/http does not reuse the response) before it.
func TestReleaseWaitsForKeptCall(t *testing.T) {
	app := quietApp()
	inCall, unblock := make(chan struct{}), make(chan struct{})
	saw := make(chan string, 1)
	app.Get("/r", func(c Context) {
		c.Values().Set("who", "mine")
		go c.Values().Range(func(k string, v any) bool {
			close(inCall)
			<-unblock // the request ends meanwhile
			saw <- k + "=" + v.(string)
			return true
		})
		<-inCall
	})
	served := make(chan struct{})
	go func() { do(app, "GET", "/r", nil); close(served) }()
	select {
	case <-served:
		t.Fatal("ServeHTTP returned while a kept handle's call was in progress")
	case <-time.After(30 * time.Millisecond):
	}
	close(unblock)
	if got := <-saw; got != "who=mine" {
		t.Fatalf("the call saw %q, want who=mine", got)
	}
	<-served
}

// TestReleaseGivesUpOnStuckCall checks the bound of that wait: a call
// still in progress after releaseWait lets the request end, and the state
// it holds is never pooled again.
func TestReleaseGivesUpOnStuckCall(t *testing.T) {
	app := quietApp()
	inCall, unblock := make(chan struct{}), make(chan struct{})
	var kept Context
	app.Get("/stuck", func(c Context) {
		kept = c
		c.Values().Set("k", "v")
		go c.Values().Range(func(string, any) bool { close(inCall); <-unblock; return true })
		<-inCall
	})
	app.Get("/next", func(c Context) {
		if c.s == kept.s {
			t.Error("a state held by a stuck call was reused")
		}
		c.WriteString("next")
	})
	start := time.Now()
	do(app, "GET", "/stuck", nil)
	if d := time.Since(start); d < releaseWait {
		t.Fatalf("the request ended after %v, before releaseWait", d)
	}
	for i := 0; i < 20; i++ {
		if w := do(app, "GET", "/next", nil); w.Body.String() != "next" {
			t.Fatalf("next: %q", w.Body)
		}
	}
	close(unblock)
}

// TestKeptResponseWriter checks the writer ResponseWriter hands out: kept
// past the request, it writes nothing into the next response; put back with
// SetResponseWriter, it adds no second layer.
func TestKeptResponseWriter(t *testing.T) {
	app := quietApp()
	var kept http.ResponseWriter
	app.Get("/keep", func(c Context) {
		kept = c.ResponseWriter()
		c.SetResponseWriter(kept)
		if c.s.out != http.ResponseWriter(&c.s.writer) {
			t.Error("SetResponseWriter(ResponseWriter()) wrapped the writer again")
		}
		kept.Write([]byte("kept"))
	})
	var lateErr error
	app.Get("/next", func(c Context) {
		_, lateErr = kept.Write([]byte("LEAKED"))
		kept.Header().Set("X-Leak", "1")
		kept.WriteHeader(http.StatusTeapot)
		c.WriteString("next")
	})
	if w := do(app, "GET", "/keep", nil); w.Body.String() != "kept" {
		t.Fatalf("keep: %q", w.Body)
	}
	w := do(app, "GET", "/next", nil)
	if w.Code != http.StatusOK || w.Body.String() != "next" || w.Header().Get("X-Leak") != "" {
		t.Fatalf("next: %d %q %v", w.Code, w.Body, w.Header())
	}
	if lateErr != ErrContextReleased {
		t.Fatalf("late write: %v, want ErrContextReleased", lateErr)
	}
	if err := http.NewResponseController(kept).Flush(); err != ErrContextReleased {
		t.Fatalf("late flush: %v, want ErrContextReleased", err)
	}
}

// TestZeroContext checks that the zero Context is a stale handle, not a
// nil dereference.
func TestZeroContext(t *testing.T) {
	var c Context
	if c.Alive() || c.Param("x") != "" || c.Request() != nil || c.App() != nil || c.StopError() != ErrContextReleased {
		t.Fatal("the zero Context reads something")
	}
	if _, err := c.WriteString("x"); err != ErrContextReleased {
		t.Fatalf("write: %v", err)
	}
	c.Next()
	c.JSON(1)
	c.Values().Set("k", 1)
	if c.Logger() == nil || !c.IsStopped() {
		t.Fatal("Logger or IsStopped")
	}
}

// doneReader is a done hook reading what a request logger reads.
type doneReader struct{}

func (doneReader) Done(c Context) { _, _, _ = c.Status(), c.BytesWritten(), c.Request().URL.Path }
