// Done hooks: code that must see a request's response once it is finished.
//
// Middleware that measures a request (a tracing span, a metric, a log line)
// wants the response as the client got it: after the chain, after the error
// page the application writes for an error status with no body, and after
// the 500 it writes for a panic. Code in a middleware after Next runs before
// the last two, so Context.OnDone registers a DoneHook that the application
// calls at the very end of ServeHTTP, when the response is finished and the
// Context is still valid, just before it is released. The hooks live in a
// slice the pooled Context keeps, as the before-write hooks do, so
// registering one does not allocate once the slice has grown; a hook that
// panics is logged and does not stop the others.

package core

import (
	"runtime/debug"
)

// DoneHook is called once per request by the application after the
// response is finished: the chain has returned, the error page (an error
// status with no body) or the 500 of a recovered panic has been written,
// and the Context is still valid (Status, BytesWritten, Route, StopError
// and Request read the final state). Hooks run in registration order, also
// for a request whose connection is aborted or hijacked. A hook must not
// write to the response.
type DoneHook interface {
	Done(ctx Context)
}

// OnDone registers h to run once the response is finished: after the
// chain, the error page and the 500 of a recovered panic, while the
// Context is still valid (see DoneHook). Middleware that measures requests
// (tracing, metrics) ends its work there rather than after Next, which
// returns before the application writes those pages. It does not allocate
// once the pooled Context has held as many hooks before; h should be a
// pointer (a pointer in an interface does not allocate, a closure usually
// does). A nil h is ignored.
func (c Context) OnDone(h DoneHook) {
	run(c, func(s *state) { s.onDone(h) })
}

func (c *state) onDone(h DoneHook) {
	if h != nil {
		c.doneHooks = append(c.doneHooks, h)
	}
}

// runDoneHooks runs and forgets the done hooks.
func (c *state) runDoneHooks() {
	hooks := c.doneHooks
	ctx := c.handle()
	for i, h := range hooks {
		c.safeDone(h, ctx)
		hooks[i] = nil
	}
	c.doneHooks = hooks[:0]
}

// safeDone runs one hook, containing a panic inside it.
func (c *state) safeDone(h DoneHook, ctx Context) {
	defer func() {
		if rec := recover(); rec != nil {
			c.app.logger.Error("vireo: panic in done hook", "panic", rec, "stack", string(debug.Stack()))
		}
	}()
	h.Done(ctx)
}
