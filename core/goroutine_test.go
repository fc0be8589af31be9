package core

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// TestOwnerFastPath checks which path the handle gate takes for the
// request's own goroutine: the unpinned one where curg is assembly
// (amd64, arm64 without the purego tag), the pinned one everywhere else,
// and the pinned one for any other goroutine always. test.sh runs it
// with and without -tags purego.
func TestOwnerFastPath(t *testing.T) {
	wantOwned := runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"
	if purego {
		wantOwned = false
	}
	if ownerFastPath != wantOwned {
		t.Fatalf("ownerFastPath = %v on %s (purego %v), want %v", ownerFastPath, runtime.GOARCH, purego, wantOwned)
	}
	app := New(WithStartupOutput(nil))
	var owned, elsewhere bool
	app.Get("/", func(ctx Context) {
		owned = ctx.s.owned()
		done := make(chan struct{})
		go func() {
			defer close(done)
			elsewhere = ctx.s.owned()
		}()
		<-done
		ctx.WriteString("ok")
	})
	serveOK(t, app)
	if owned != wantOwned || elsewhere {
		t.Errorf("owned by the serving goroutine %v (want %v), by another %v (want false)", owned, wantOwned, elsewhere)
	}
}

// TestWrappedChainUnowned checks that the inner chain of a net/http
// middleware has no owner, even when the middleware runs it on the
// request's goroutine: adopt disowns the inner state, so every call of
// that chain pins, wherever the middleware runs it. The pool is primed
// with states this goroutine owns, which is what the inner chain then
// gets.
func TestWrappedChainUnowned(t *testing.T) {
	app := New(WithStartupOutput(nil))
	var outer, inner bool
	app.Use(func(ctx Context) {
		outer = ctx.s.owned()
		ctx.Next()
	})
	app.Use(WrapMiddleware(func(next http.Handler) http.Handler { return next }))
	app.Get("/", func(ctx Context) {
		inner = ctx.s.owned()
		ctx.WriteString("ok")
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	a, b := app.pool.Get().(*state), app.pool.Get().(*state)
	a.own()
	b.own()
	app.pool.Put(a)
	app.pool.Put(b)
	serveOK(t, app)
	if outer != ownerFastPath || inner {
		t.Errorf("outer chain owned %v (want %v), inner chain owned %v (want false)", outer, ownerFastPath, inner)
	}
}

// serveOK serves GET / with app and fails t unless the body is "ok".
func serveOK(t *testing.T, app *Application) {
	t.Helper()
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.String() != "ok" {
		t.Fatalf("body %q", rec.Body.String())
	}
}

// TestEnterPaths checks enter's three answers, as Context methods get
// them (on amd64 from gate_amd64.s, elsewhere and under -race from
// enterSlow): the serving goroutine gets the state unpinned where the
// owner is known, another goroutine gets it pinned, and a stale handle
// gets nil, from either goroutine, and leaves no pin behind.
func TestEnterPaths(t *testing.T) {
	app := New(WithStartupOutput(nil))
	var kept Context
	var ownS, otherS *state
	var ownPin, otherPin, recorded bool
	app.Get("/", func(ctx Context) {
		kept = ctx
		recorded = ownerFastPath && ctx.s.owner.Load() == curg()
		ownS, ownPin = ctx.enter()
		ownS.exit(ownPin)
		done := make(chan struct{})
		go func() {
			defer close(done)
			otherS, otherPin = ctx.enter()
			otherS.exit(otherPin)
		}()
		<-done
		ctx.WriteString("ok")
	})
	serveOK(t, app)
	if ownS != kept.s || ownPin == ownerFastPath || recorded != ownerFastPath {
		t.Errorf("serving goroutine: state %p (want %p), pinned %v (want %v), owner recorded %v", ownS, kept.s, ownPin, !ownerFastPath, recorded)
	}
	if otherS != kept.s || !otherPin {
		t.Errorf("other goroutine: state %p (want %p), pinned %v (want true)", otherS, kept.s, otherPin)
	}
	if s, pin := kept.enter(); s != nil || pin {
		t.Errorf("stale handle, same goroutine: %p, pinned %v", s, pin)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if s, pin := kept.enter(); s != nil || pin {
			t.Errorf("stale handle, other goroutine: %p, pinned %v", s, pin)
		}
	}()
	<-done
	if n := kept.s.pins.Load(); n != 0 {
		t.Errorf("%d pins left behind", n)
	}
	if s, _ := (Context{}).enter(); s != nil {
		t.Errorf("zero Context entered: %p", s)
	}
}
