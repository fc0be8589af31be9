// Errors and error handlers.
//
// An error status set without a body (StopWithStatus, StopWithError, a
// handler that only calls StatusCode, or the router's own 404 and 405) is
// finished by an error handler after the chain returns. The handler is the
// one registered with OnErrorCode on the most specific group: the group that
// owns the matched route, or for unmatched requests the group with the
// longest prefix of the path, then its parents, then the application.
// Without one, the application's OnError handler or the default page
// (problem.go) writes it.

package core

import (
	"errors"
	"net/http"
	"strings"
)

// HTTPError is an error with an HTTP status. Its Message is meant for the
// client (the error pages and Context.ErrorMessage show it); Err, if set,
// is the internal cause: Error and the log show it, clients never do.
type HTTPError struct {
	Code    int
	Message string
	Err     error
}

// NewHTTPError returns an HTTPError with the given status and client-facing
// message.
func NewHTTPError(code int, message string) *HTTPError {
	return &HTTPError{Code: code, Message: message}
}

// Error returns the message, and the cause when there is one.
func (e *HTTPError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Code)
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

// StatusCode returns the HTTP status of the error.
func (e *HTTPError) StatusCode() int { return e.Code }

// Unwrap returns the cause.
func (e *HTTPError) Unwrap() error { return e.Err }

// StatusOf returns the HTTP status an error stands for: the result of its
// (or a wrapped error's) StatusCode method, 413 for an *http.MaxBytesError
// (a body over the limit read through Request().FormFile, FormValue...),
// or 500.
func StatusOf(err error) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge // a body over the limit, read through net/http
	}
	var sc interface{ StatusCode() int }
	if errors.As(err, &sc) {
		if code := sc.StatusCode(); code >= 400 && code <= 599 {
			return code
		}
	}
	return http.StatusInternalServerError
}

// publicMessage returns the text of err that may be shown to a client:
// an HTTPError's Message for any status (never its cause Err), other
// errors' text only below 500, and with details (WithErrorDetails) the
// whole text.
func publicMessage(err error, code int, details bool) string {
	if err == nil {
		return ""
	}
	if details {
		return err.Error()
	}
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Message
	}
	if code < 500 {
		return err.Error()
	}
	return ""
}

// errorHandlersFor finds the error handlers for code: from the matched
// route's group upward, or, for unmatched requests, from the group with the
// longest prefix of the path upward, then behind that group's middleware,
// which did not run for the request.
func (app *Application) errorHandlersFor(c *state, code int) []Handler {
	r := app.Router
	if c.route != nil {
		r = c.route.router
	} else if c.x != nil {
		path := c.x.Path()
		best := -1
		for _, p := range app.errorParties {
			if len(p.prefix) > best && hasPathPrefix(path, p.prefix) {
				r, best = p, len(p.prefix)
			}
		}
	}
	for ; r != nil; r = r.parent {
		if hs, ok := r.errorHandlers[code]; ok {
			if c.route == nil && r.errorChains != nil {
				return r.errorChains[code]
			}
			return hs
		}
	}
	return nil
}

func hasPathPrefix(path, prefix string) bool {
	if prefix == "" || prefix == "/" {
		return true
	}
	return path == prefix || strings.HasPrefix(path, prefix) && (prefix[len(prefix)-1] == '/' || path[len(prefix)] == '/')
}

// fireError runs the error handler for the current status. It runs at most
// once per request, after the chain, and only while nothing was written.
func (c *state) fireError() {
	if c.errorFired || c.written() {
		return
	}
	c.errorFired = true
	c.writer.refused = nil // a refused response gets its error page now
	// The page replaces the body the handler meant to send: drop the
	// headers that describe that body, as net/http's Error and ServeContent
	// do. Content-Encoding stays: a net/http middleware may have set it for
	// the compressing writer the page goes through.
	h := c.out.Header()
	for _, k := range [...]string{"Content-Length", "Content-Range", "Content-Disposition", "Etag", "Last-Modified", "Cache-Control"} {
		delete(h, k)
	}
	code := c.writer.status
	hs := c.app.errorHandlersFor(c, code)
	if hs == nil {
		if c.app.onError == nil {
			defaultErrorHandler(c)
			return
		}
		if c.route == nil && c.app.onErrorChain != nil {
			hs = c.app.onErrorChain
		} else {
			c.app.onError(c.handle(), c.stopError())
			hs = nil
		}
	}
	if hs != nil {
		c.handlers, c.index, c.stopped = hs, -1, false
		c.next(c.handle())
	}
	if !c.written() {
		// The custom handler wrote nothing: the client still gets the status.
		c.writer.writeHeaderNow()
	}
}
