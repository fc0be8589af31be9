// Replaceable response writers.
//
// Middleware that transforms the response body (compression, buffering for
// a timeout) installs its own http.ResponseWriter around the current one
// with SetResponseWriter; every writer of the Context (Write, Text, JSON,
// the error page...) and ResponseWriter then go through it until the
// middleware puts the previous one back. The Context's own record of the
// status and size stays underneath, so a wrapper must pass WriteHeader on.
//
// The error page of a request normally runs after the whole chain has
// returned, which is too late for a wrapper that finishes its stream when
// its Next returns. WriteErrorPage lets such a middleware run the error
// handler while its writer is still installed; it runs at most once per
// request either way.

package core

import "net/http"

// SetResponseWriter makes w the writer the rest of the request writes to,
// ResponseWriter's setter: middleware takes ResponseWriter, installs a
// writer that wraps it, and puts it back when its Next returns (nil puts
// back the Context's own). w must pass WriteHeader on so that Status and
// the error handlers see the status.
func (c Context) SetResponseWriter(w http.ResponseWriter) {
	run(c, func(s *state) {
		if hw, ok := w.(*heldWriter); ok && hw.c == c {
			w = hw.w // a writer of this request put back: no second layer of checks
		}
		s.setResponseWriter(w)
	})
}

func (c *state) setResponseWriter(w http.ResponseWriter) {
	if w == nil {
		w = &c.writer
	}
	c.out = w
}

// WriteErrorPage runs the error handler for the current status now, when
// the status is an error (400 or more), nothing has been written and the
// handler has not run yet for this request. Middleware that installs a
// writer with SetResponseWriter calls it after Next, before finishing its
// writer, so that error pages (404, 500, StopWithError) go through it like
// any other body.
func (c Context) WriteErrorPage() {
	run(c, func(s *state) {
		s.writeErrorPage()
	})
}

func (c *state) writeErrorPage() {
	if c.writer.status >= 400 && !c.written() {
		c.app.safeFireError(c)
	}
}
