// net/http interoperability.
//
// WrapHandler runs an http.Handler as a Vireo handler; WrapMiddleware runs a
// func(http.Handler) http.Handler middleware in a Vireo chain. The
// middleware is wrapped once, when WrapMiddleware is called, around a "next"
// handler that continues the chain, so nothing is re-wrapped per request.
//
// Each run of the middleware gets a stdCall, carried to next in the
// request's context.Context, and a second pooled request state (the inner one)
// that runs the rest of the chain with the middleware's request and writer.
// The inner Context writes through its own response writer wrapped around
// the middleware's, so everything the rest of the chain answers, error
// pages included, goes through the middleware's writer before next returns:
// a compressing writer that closes its stream after next still has the 404
// page to compress. When next returns, the inner Context's request state
// (values, error, stop flag) is copied back to the outer one.
//
// The stdCall's state makes the hand-over safe when the middleware does not
// wait for next: when the middleware returns while next is still running on
// another goroutine (http.TimeoutHandler), the inner state is retired at
// once, so the late handler's handle reads nothing and its writes fail with
// ErrContextReleased, and it is never put back into the pool, so it cannot
// reach another request; the outer Context shares no mutable field with it,
// so neither goroutine races the other. A next called after the run ended
// (a middleware that kept the request) finds the stdCall closed and does
// nothing.

package core

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
)

type contextKey struct{}

// WrapHandler returns a Handler that serves h. With WithPathValues, h can read
// route parameters with r.PathValue.
func WrapHandler(h http.Handler) Handler {
	return stateHandler(func(c *state, ctx Context) {
		h.ServeHTTP(c.heldOut(ctx), c.req())
	})
}

// States of a stdCall.
const (
	callIdle    int32 = iota // next may run
	callRunning              // next is running the rest of the chain
	callClosed               // the middleware returned: next does nothing
)

// stdCall is one run of a WrapMiddleware middleware; see the file comment.
type stdCall struct {
	state atomic.Int32
	inner *state
	h     Context // the inner chain's handle, stale once the middleware returned
	ran   bool    // next ran to its end (written by next, read after the state's hand-over)
}

// WrapMiddleware adapts net/http middleware (gorilla/handlers, rs/cors, chi
// middleware, http.TimeoutHandler...) to a Vireo Handler. The rest of the
// chain sees the request and the writer the middleware passes to its next
// handler, and its error pages are written through that writer before next
// returns. A middleware that returns before its next handler did (a
// timeout) leaves that handler a Context that reads nothing and whose writes fail
// with ErrContextReleased.
func WrapMiddleware(mw func(http.Handler) http.Handler) Handler {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		call, _ := r.Context().Value(contextKey{}).(*stdCall)
		if call == nil || !call.state.CompareAndSwap(callIdle, callRunning) {
			return // outside the middleware's run, or a second concurrent call
		}
		in := call.inner
		in.setRequest(r)
		in.writer.reset(w)
		in.out = &in.writer
		in.next(call.h)
		in.finish(call.h)
		call.ran = true
		call.state.CompareAndSwap(callRunning, callIdle)
	})
	h := mw(next)
	return stateHandler(func(c *state, ctx Context) {
		in := c.app.pool.Get().(*state)
		in.adopt(c)
		call := &stdCall{inner: in, h: in.handle()}
		r := c.req().WithContext(context.WithValue(c.req().Context(), contextKey{}, call))
		defer c.app.endStdCall(c, call)
		h.ServeHTTP(c.heldOut(ctx), r)
	})
}

// endStdCall closes call after its middleware returned (or panicked): the
// inner Context goes back to the pool with its state copied to c when next
// is over, and is abandoned, released, when next still runs elsewhere.
func (app *Application) endStdCall(c *state, call *stdCall) {
	in := call.inner
	if call.state.Swap(callClosed) == callRunning {
		in.retire() // the late handler's calls fail; in is never pooled again
		c.stopped = true
		return
	}
	if call.ran {
		c.route = in.route // routed by the inner chain under UseBeforeRouting
		c.params = append(c.params[:0], in.params...)
		c.values.entries = append(c.values.entries[:0], in.values.entries...)
		c.err, c.stopped, c.errorFired = in.err, in.stopped || c.stopped, in.errorFired || c.errorFired
		c.viewLayout = in.viewLayout
		if len(in.doneHooks) > 0 { // the outer request's end is theirs too
			c.doneHooks = append(c.doneHooks, in.doneHooks...)
			clear(in.doneHooks)
			in.doneHooks = in.doneHooks[:0]
		}
		if len(in.viewData) > 0 {
			if c.viewData == nil {
				c.viewData = make(map[string]any, len(in.viewData))
			}
			for k, v := range in.viewData {
				c.viewData[k] = v
			}
		}
	}
	app.recycle(in)
}

// adopt prepares c, fresh from the pool, to run the rest of outer's chain:
// its own copies of the request state, so that it shares no mutable field
// with outer.
func (c *state) adopt(outer *state) {
	c.setRequest(outer.req())
	c.params = append(c.params[:0], outer.params...)
	c.values.entries = append(c.values.entries[:0], outer.values.entries...)
	c.handlers, c.index, c.route = outer.handlers, outer.index, outer.route
	c.owner.Store(0) // no owner: the middleware may run the chain on any goroutine, so every call pins
	c.query = outer.query
	c.body, c.bodyLimit, c.readRate = outer.body, outer.bodyLimit, outer.readRate // outer gives the body back
	c.viewLayout = outer.viewLayout
	if len(outer.viewData) > 0 {
		if c.viewData == nil {
			c.viewData = make(map[string]any, len(outer.viewData))
		}
		for k, v := range outer.viewData {
			c.viewData[k] = v
		}
	}
	c.writer.reset(outer.out)  // replaced by the middleware's writer in next
	c.writer.rate = DataRate{} // the outer writer arms the connection's deadline
	c.out = &c.writer
}

// finish ends the inner chain of a WrapMiddleware middleware as ServeHTTP ends a
// request, but through the middleware's writer: the before-write hooks of a
// chain that wrote nothing, then the error page for an error status with no
// body, or the bare status.
func (c *state) finish(h Context) {
	if !h.Alive() || c.writer.hijacked || c.written() {
		return // released: the middleware answered without this chain
	}
	if len(c.writer.hooks) > 0 {
		c.writer.runHooks() // a failing hook turns the response into its error page
	}
	if c.writer.status >= 400 {
		c.app.safeFireError(c)
	}
	if !c.written() && c.writer.status != http.StatusOK {
		c.writer.writeHeaderNow()
	}
}

// mountHandler strips prefix from the path and serves h.
func mountHandler(prefix string, h http.Handler) Handler {
	return stateHandler(func(c *state, ctx Context) {
		r := c.req()
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		r2.URL = &u
		u.Path = strings.TrimPrefix(r.URL.Path, prefix)
		if u.Path == "" || u.Path[0] != '/' {
			u.Path = "/" + u.Path
		}
		if r.URL.RawPath != "" {
			u.RawPath = strings.TrimPrefix(r.URL.RawPath, prefix)
			if u.RawPath == "" || u.RawPath[0] != '/' {
				u.RawPath = "/" + u.RawPath
			}
		}
		h.ServeHTTP(c.heldOut(ctx), r2)
	})
}
