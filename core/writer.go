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

func (c *state) SetResponseWriter(w http.ResponseWriter) {
	if w == nil {
		w = &c.writer
	}
	c.out = w
}

func (c *state) WriteErrorPage() {
	if c.writer.status >= 400 && !c.Written() {
		c.app.safeFireError(c)
	}
}
