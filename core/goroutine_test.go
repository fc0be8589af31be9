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
	// own's Go form (the assembly's on amd64) records the caller, which
	// then enters the state unpinned where the owner is known.
	s := kept.s
	s.owner.Store(0)
	ownSlow(s)
	if got := s.owner.Load(); ownerFastPath && got != curg() {
		t.Errorf("ownSlow recorded %#x, want the caller %#x", got, curg())
	}
}

// TestParamReadPaths checks the parameter reads that are one leaf call
// (paramGate, paramCount, paramAt: assembly on amd64) on every path of
// the gate: the serving goroutine, another goroutine (the Go form, which
// pins), a chain behind a net/http middleware (no owner: the Go form on
// the serving goroutine), and a stale handle from either goroutine, which
// reads zero values and leaves no pin behind. The keys share a length
// and a first byte, so a lookup must compare every byte.
func TestParamReadPaths(t *testing.T) {
	type read struct {
		name string
		f    func(Context) any
	}
	reads := []read{
		{"Param(ab)", func(c Context) any { return c.Param("ab") }},
		{"Param(ac)", func(c Context) any { return c.Param("ac") }},
		{"Param(a)", func(c Context) any { return c.Param("a") }},
		{"Param(abc)", func(c Context) any { return c.Param("abc") }},
		{"Param()", func(c Context) any { return c.Param("") }},
		{"Get(ac)", func(c Context) any { return c.Params().Get("ac") }},
		{"Len", func(c Context) any { return c.Params().Len() }},
		{"At(0)", func(c Context) any { return c.Params().At(0) }},
		{"At(1)", func(c Context) any { return c.Params().At(1) }},
		{"At(2)", func(c Context) any { return c.Params().At(2) }},
		{"At(-1)", func(c Context) any { return c.Params().At(-1) }},
		// The Go forms, called directly: the path of every other caller
		// behind the leaf, and the whole read without it.
		{"paramSlow(ac)", func(c Context) any { return paramSlow(c.s, c.gen, "ac") }},
		{"paramCountSlow", func(c Context) any { return paramCountSlow(c.s, c.gen) }},
		{"paramAtSlow(1)", func(c Context) any { return paramAtSlow(c.s, c.gen, 1) }},
	}
	live := []any{"x", "yz", "", "", "", "yz", 2,
		Param{"ab", "x"}, Param{"ac", "yz"}, Param{}, Param{},
		"yz", 2, Param{"ac", "yz"}}
	stale := []any{"", "", "", "", "", "", 0, Param{}, Param{}, Param{}, Param{},
		"", 0, Param{}}
	all := func(c Context) []any {
		got := make([]any, len(reads))
		for i, r := range reads {
			got[i] = r.f(c)
		}
		return got
	}
	elsewhere := func(f func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			f()
		}()
		<-done
	}
	check := func(t *testing.T, path string, got, want []any) {
		t.Helper()
		for i := range reads {
			if got[i] != want[i] {
				t.Errorf("%s: %s = %#v, want %#v", path, reads[i].name, got[i], want[i])
			}
		}
	}
	for _, wrapped := range []bool{false, true} {
		app := New(WithStartupOutput(nil))
		if wrapped {
			app.Use(WrapMiddleware(func(next http.Handler) http.Handler { return next }))
		}
		var kept Context
		var own, other []any
		app.Get("/p/{ab}/{ac}", func(ctx Context) {
			kept = ctx
			own = all(ctx)
			elsewhere(func() { other = all(ctx) })
			ctx.WriteString("ok")
		})
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/p/x/yz", nil))
		if rec.Body.String() != "ok" {
			t.Fatalf("wrapped %v: body %q", wrapped, rec.Body.String())
		}
		check(t, "serving goroutine", own, live)
		check(t, "other goroutine", other, live)
		check(t, "stale, serving goroutine", all(kept), stale)
		var staleOther []any
		elsewhere(func() { staleOther = all(kept) })
		check(t, "stale, other goroutine", staleOther, stale)
		check(t, "zero Context", all(Context{}), stale)
		if n := kept.s.pins.Load(); n != 0 {
			t.Errorf("wrapped %v: %d pins left behind", wrapped, n)
		}
	}
}
