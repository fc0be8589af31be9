// Context handles.
//
// A Context is a handle: a pointer to the pooled request state and the
// generation of that state it was made for. The state's generation goes up
// by one when its request ends (release) and when a WrapMiddleware chain
// is left running (retire), so a handle that outlives its request, kept by
// a goroutine or by net/http code, no longer matches: its reads return zero
// values, its writes and its error-returning methods ErrContextReleased,
// whatever request the state serves by then. Being a value, the handle
// costs no allocation per request, which a pointer per request would.
//
// The rule. Every Context method, and every method of what a Context hands
// out as a handle of its own (Params, Values, the ResponseWriter, an
// EventStream), runs its body between enter and exit:
//
//	s, pin := c.enter() // check the generation, pinning the state unless the caller serves it
//	if s == nil {
//		return ... // stale (or the zero Context): zero values, ErrContextReleased
//	}
//	v := ...       // the body, on s
//	s.exit(pin)    // unpin, if enter pinned
//	return v
//
// The unpin must be deferred when the body can panic, that is when it runs
// code other than reads and writes of the state's own fields: a handler or
// the rest of the chain (Next), a hook, a ResponseWriter (every write,
// status and response header goes through one, middleware's or the
// server's), an encoder, a template, a validator, a function of the
// application. A pin that a panic left behind would make release wait for
// it, releaseWait, and then give the state up. The deferred form defers the
// unpin only when enter pinned,
//
//	if pin {
//		defer s.unpin()
//	}
//
// so that the goroutine serving the request, the caller of nearly every
// call, pays a branch (an open-coded defer not taken) and no deferred call.
// The bookkeeping of that defer is still about 15 instructions a call
// (callgrind), so the forms every request runs keep the defer out of the
// owner's path altogether: a pinned call runs the body through a helper
// that defers the unpin, the owner's call runs it directly,
//
//	if pin {
//		return s.writePinned(p) // defer c.unpin(); return c.write(p)
//	}
//	return s.write(p)
//
// The generic forms below (with, with2, run, stateHandler, through
// pinned, pinned2, pinnedRun and pinnedHandler) and Write, WriteString
// and Next are written so.
//
// A body that only reads or sets the state's fields, the route parameters,
// the values and what the exchange read from the request (method, path,
// query, headers) cannot panic; such a body unpins inline, with no defer
// and no function literal (Param, the Params and Values methods, Method,
// Path, Query, RequestHeader, RequestHeaderValues, RequestCookie, Status,
// Written, IsStopped...), so that the method costs its body and the gate.
// with, with2 and run are the deferred form for a body written as a
// function literal, which any method may use. TestGateUnpinsEveryMethod
// checks that no method leaves a pin behind. Code of this package that
// already runs inside a gated call, on the state it was given (the state
// handlers, the chain), calls the state's methods directly rather than
// through a handle again.
//
// A generation check alone leaves a window: a stale handle could pass the
// check just before its request ends and then touch the state while the
// next request uses it. A call from any goroutine but the one serving the
// request therefore pins the state for its duration (pins, an atomic
// counter) before it checks the generation, and release bumps the
// generation before it waits for the pins to drain. With sequentially
// consistent atomics one side always sees the other: either the call sees
// the new generation and fails, or release sees the pin and waits for the
// call to end before it clears anything. Release only waits when a
// goroutine that kept a handle is in the middle of a call at that very
// moment.
//
// The goroutine serving the request needs no pin: release runs on it,
// after its calls, never during one. Where a state starts serving a
// request (reset, resetExchange) it records that goroutine as its owner,
// the address of the goroutine's runtime g (curg, read in assembly,
// goroutine_$GOARCH.s); adopt records none, for a WrapMiddleware chain
// that may run anywhere. enter skips the pin when the caller's g is the
// owner and the generation matches: two loads and a compare instead of two
// locked read-modify-writes. Any other goroutine - one that kept a handle,
// a chain that NextWithTimeout or a net/http middleware runs elsewhere -
// sees another g and pins. A g is compared, never dereferenced. The owner
// of a pooled state may name a goroutine that has ended, whose g a new
// goroutine now has: that goroutine skips the pin, but only a stale
// handle can bring it there, its generation fails the check, and a
// generation never comes back. A handle of the state's current request
// reaches another goroutine only after the state recorded its owner (the
// handle is made after reset, and handed over through some
// synchronisation, or -race reports the handover), so that goroutine sees
// the owner of that request. Where curg is not assembly (architectures
// other than amd64 and arm64, or the purego build tag, goroutine_other.go)
// no goroutine is an owner and every call pins.
//
// On amd64 the owner's path is itself assembly (gate_amd64.s): enter is
// one call of a leaf that compares the owner with the g in thread-local
// storage and the generation with the handle's, and jumps to enterSlow,
// the same check in Go that pins, when either differs; own is likewise
// one leaf. Written in Go, enter calls curg from a frame of its own, two
// nested calls a Context method paid on every call. The parameter reads
// (Param, Params.Get, Len and At) have their body in the leaf too,
// paramGate, paramCount and paramAt, so that the method is a one-line
// call the compiler inlines where it is called, and the owner's read is
// one call instead of the method's frame around enter's (GateParam 5.9
// -> 4.2 ns on the AMD EPYC machine of 2026-12-04). The race detector
// does not see the assembly's loads, so a -race build (and purego) runs
// the Go path, whose atomics it checks.
//
// (On the machine of the first measurements the owner's path was no
// faster than pinning every call - benchstat -count 10, Param1 214.7 ns
// against 205.1, GithubAll 73.1 us against 74.7 - and it was removed for
// a while. On the 2-core KVM machine of 2026-12-02, an Intel Xeon, a
// gated Param read, BenchmarkGateParam, is 12.1 ns pinned and 4.9 ns on
// the owner's path. On the AMD EPYC KVM machine of 2026-12-04,
// BenchmarkGateAlive went from 6.3 to 3.8 ns with enter in assembly.)

package core

// Context is a handler's handle to its request: the request, the route
// parameters, the response and the chain. It is a small value, passed and
// copied by value.
//
// A Context is valid until its handler chain has returned and the response
// is finished. After that, whatever the pooled state behind it serves next,
// its reads return zero values, StopError and the methods that return an error
// (Write and WriteString included) return ErrContextReleased, and the
// other writes do nothing: nothing of another request is ever reached
// through it. A goroutine that needs request data
// after the handler returns takes a Clone. Like an http.ResponseWriter, a
// Context is not meant for concurrent use by several goroutines while its
// request runs.
type Context struct {
	s   *state
	gen uint64
}

// enter returns c's state, or nil when c is stale (or the zero Context),
// and whether it pinned the state: it does for every caller but the
// goroutine serving the request. A non-nil state must be released with
// exit(pinned), in a defer when the call can panic (see the rule above).
func (c Context) enter() (s *state, pinned bool) { return enterState(c.s, c.gen) }

// enterSlow is enter written in Go: the whole of it where the gate has no
// assembly (gate_other.go), and the pinning path behind the assembly's
// owner check (gate_amd64.s).
func enterSlow(s *state, gen uint64) (_ *state, pinned bool) {
	if s == nil {
		return nil, false
	}
	pinned = !s.owned()
	if pinned {
		s.pins.Add(1)
	}
	if s.gen.Load() != gen {
		s.exit(pinned)
		return nil, false
	}
	return s, pinned
}

// exit ends a call that enter began, unpinning the state if enter pinned.
func (s *state) exit(pinned bool) {
	if pinned {
		s.unpin()
	}
}

// unpin ends a call that enter pinned.
func (s *state) unpin() { s.pins.Add(-1) }

// owned reports whether the calling goroutine serves s's request. Where
// curg is assembly it is never 0, so a cleared owner matches no goroutine;
// elsewhere nothing is owned.
func (s *state) owned() bool {
	return ownerFastPath && s.owner.Load() == curg()
}

// own records the calling goroutine as the one serving c's request, where
// a state starts serving one (reset, resetExchange). The store, an
// exchange on amd64, is skipped when the goroutine is the owner already,
// as it is when a connection's goroutine gets the state it had last.
func (c *state) own() { ownState(c) }

// ownSlow is own written in Go (gate_other.go; gate_amd64.s has it in
// assembly).
func ownSlow(c *state) {
	if g := curg(); c.owner.Load() != g {
		c.owner.Store(g)
	}
}

// with runs f on c's state and returns its result, or returns zero when c
// is stale (or the zero Context): the deferred form of the rule, for a
// body that may panic, written as a function literal.
func with[T any](c Context, zero T, f func(*state) T) T {
	s, pin := c.enter()
	if s == nil {
		return zero
	}
	if pin {
		return pinned(s, f)
	}
	return f(s)
}

// pinned runs f on s for a call that enter pinned, unpinning s after it,
// also when f panics.
func pinned[T any](s *state, f func(*state) T) T {
	defer s.unpin()
	return f(s)
}

// with2 is with for methods of two results.
func with2[A, B any](c Context, za A, zb B, f func(*state) (A, B)) (A, B) {
	s, pin := c.enter()
	if s == nil {
		return za, zb
	}
	if pin {
		return pinned2(s, f)
	}
	return f(s)
}

// pinned2 is pinned for two results.
func pinned2[A, B any](s *state, f func(*state) (A, B)) (A, B) {
	defer s.unpin()
	return f(s)
}

// run is with for methods without a result.
func run(c Context, f func(*state)) {
	s, pin := c.enter()
	if s == nil {
		return
	}
	if pin {
		pinnedRun(s, f)
		return
	}
	f(s)
}

// pinnedRun is pinned without a result.
func pinnedRun(s *state, f func(*state)) {
	defer s.unpin()
	f(s)
}

// stateHandler makes a Handler of a handler of this package written
// against the state: like a Context method, it runs only for a live
// handle, through the gate for its whole run (it runs the rest of the
// chain: the unpin is deferred), and it gets the handle too, to run the
// rest of the chain with.
func stateHandler(h func(c *state, ctx Context)) Handler {
	return func(ctx Context) {
		s, pin := ctx.enter()
		if s == nil {
			return
		}
		if pin {
			pinnedHandler(s, ctx, h)
			return
		}
		h(s, ctx)
	}
}

// pinnedHandler is pinnedRun for a stateHandler.
func pinnedHandler(s *state, ctx Context, h func(c *state, ctx Context)) {
	defer s.unpin()
	h(s, ctx)
}

// Alive reports whether c still belongs to a request in progress.
func (c Context) Alive() bool {
	s, pin := c.enter()
	if s == nil {
		return false
	}
	s.exit(pin)
	return true
}

// App returns the application serving the request (nil for the zero
// Context). It stays valid after the request.
func (c Context) App() *Application {
	if c.s == nil {
		return nil
	}
	return c.s.app
}

// Clone returns a Context holding a copy of the request data (request,
// parameters, values, route) that stays valid after the handler returns,
// for goroutines. The copy has no response: its writes fail with
// ErrContextReleased and it runs no chain.
func (c Context) Clone() Context {
	return with(c, Context{}, func(s *state) Context {
		return s.clone().handle()
	})
}
