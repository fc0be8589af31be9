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
// Every Context method goes through one gate, with (run for methods without
// a result, with2 for two): it checks the handle and runs the method's
// body, a function literal of the state, only for a live handle.
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

// with runs f on c's state and returns its result, or returns zero when c
// is stale (or the zero Context). It is the gate of every Context method
// with a result.
func with[T any](c Context, zero T, f func(*state) T) T {
	s := c.s
	if s == nil {
		return zero
	}
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() != c.gen {
		return zero
	}
	return f(s)
}

// with2 is with for methods of two results.
func with2[A, B any](c Context, za A, zb B, f func(*state) (A, B)) (A, B) {
	s := c.s
	if s == nil {
		return za, zb
	}
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() != c.gen {
		return za, zb
	}
	return f(s)
}

// run is with for methods without a result.
func run(c Context, f func(*state)) {
	s := c.s
	if s == nil {
		return
	}
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() == c.gen {
		f(s)
	}
}

// enter pins c's state and returns it, or returns nil when c is stale (or
// the zero Context), for code that cannot take the gate (a writer's
// methods). A non-nil result must be released with exit.
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

// stateHandler makes a Handler of a handler of this package written
// against the state: like a Context method, it runs only for a live
// handle, through the gate, and it gets the handle too, to run the rest of
// the chain with.
func stateHandler(h func(c *state, ctx Context)) Handler {
	return func(ctx Context) {
		run(ctx, func(s *state) { h(s, ctx) })
	}
}

// Alive reports whether c still belongs to a request in progress.
func (c Context) Alive() bool {
	return with(c, false, func(s *state) bool {
		return true
	})
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
