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
//	s := c.enter() // pin the state, then check the generation
//	if s == nil {
//		return ... // stale (or the zero Context): zero values, ErrContextReleased
//	}
//	v := ...       // the body, on s
//	s.exit()       // unpin
//	return v
//
// exit must be deferred when the body can panic, that is when it runs code
// other than reads and writes of the state's own fields: a handler or the
// rest of the chain (Next), a hook, a ResponseWriter (every write, status
// and response header goes through one, middleware's or the server's), an
// encoder, a template, a validator, a function of the application. A pin
// that a panic left behind would make release wait for it, releaseWait,
// and then give the state up. A body that only reads or sets the state's
// fields, the route parameters, the values and what the exchange read from
// the request (method, path, query, headers) cannot panic; such a body
// unpins inline, with no defer and no function literal (Param, the Params
// and Values methods, Method, Path, Query, RequestHeader,
// RequestHeaderValues, RequestCookie, Status, Written, IsStopped...), so that the method
// costs its body and the two atomic adds. with, with2 and run are the
// deferred form for a body written as a
// function literal, which any method may use. TestGateUnpinsEveryMethod
// checks that no method leaves a pin behind. Code of this package that
// already runs inside a gated call, on the state it was given (the state
// handlers, the chain), calls the state's methods directly rather than
// through a handle again.
//
// A generation check alone leaves a window: a stale handle could pass the
// check just before its request ends and then touch the state while the
// next request uses it. Every call therefore pins the state for its
// duration (pins, an atomic counter) before it checks the generation, and
// release bumps the generation before it waits for the pins to drain. With
// sequentially consistent atomics one side always sees the other: either
// the call sees the new generation and fails, or release sees the pin and
// waits for the call to end before it clears anything. Release only waits
// when a goroutine that kept a handle is in the middle of a call at that
// very moment.
//
// (An earlier version let the goroutine serving the request skip the pin,
// recognising it by the runtime's goroutine pointer read in assembly. On
// the quiet reference machine, benchstat -count 10, it was no faster than
// pinning every call - Param1 214.7 ns against 205.1, GithubAll 73.1 us
// against 74.7 - so the dependency on a runtime internal was removed.)

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

// enter pins c's state and returns it, or returns nil when c is stale (or
// the zero Context). A non-nil result must be released with exit, in a
// defer when the call can panic (see the rule above).
func (c Context) enter() *state {
	s := c.s
	if s == nil {
		return nil
	}
	s.pins.Add(1)
	if s.gen.Load() != c.gen {
		s.pins.Add(-1)
		return nil
	}
	return s
}

// exit ends a call that enter began.
func (s *state) exit() { s.pins.Add(-1) }

// with runs f on c's state and returns its result, or returns zero when c
// is stale (or the zero Context): the deferred form of the rule, for a
// body that may panic, written as a function literal.
func with[T any](c Context, zero T, f func(*state) T) T {
	s := c.enter()
	if s == nil {
		return zero
	}
	defer s.exit()
	return f(s)
}

// with2 is with for methods of two results.
func with2[A, B any](c Context, za A, zb B, f func(*state) (A, B)) (A, B) {
	s := c.enter()
	if s == nil {
		return za, zb
	}
	defer s.exit()
	return f(s)
}

// run is with for methods without a result.
func run(c Context, f func(*state)) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	f(s)
}

// stateHandler makes a Handler of a handler of this package written
// against the state: like a Context method, it runs only for a live
// handle, pinned for its whole run (it runs the rest of the chain: exit is
// deferred), and it gets the handle too, to run the rest of the chain
// with.
func stateHandler(h func(c *state, ctx Context)) Handler {
	return func(ctx Context) {
		s := ctx.enter()
		if s == nil {
			return
		}
		defer s.exit()
		h(s, ctx)
	}
}

// Alive reports whether c still belongs to a request in progress.
func (c Context) Alive() bool {
	s := c.enter()
	if s == nil {
		return false
	}
	s.exit()
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
