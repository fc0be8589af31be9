// Errors and error handlers.
//
// An error status set without a body (StopWithStatus, StopWithError, a
// handler that only calls StatusCode, or the router's own 404 and 405) is
// finished by an error handler after the chain returns. The handler is the
// one registered with OnErrorCode on the most specific group: the group that
// owns the matched route, or for unmatched requests the group with the
// longest prefix of the path, then its parents, then the application. The
// default handler writes the status text, and the reason for client errors.

package core

import (
	"errors"
	"net/http"
	"strings"
)

// HTTPError is an error with an HTTP status. Its Message is meant for the
// client; Err, if set, is the underlying cause and is only logged.
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
// (or a wrapped error's) StatusCode method, or 500.
func StatusOf(err error) int {
	var sc interface{ StatusCode() int }
	if errors.As(err, &sc) {
		if code := sc.StatusCode(); code >= 400 && code <= 599 {
			return code
		}
	}
	return http.StatusInternalServerError
}

// publicMessage returns the text of err that may be shown to a client: an
// HTTPError's message for any status, other errors' text only below 500 or
// when the application opted in with WithErrorDetails.
func publicMessage(err error, code int, details bool) string {
	if err == nil {
		return ""
	}
	var he *HTTPError
	if errors.As(err, &he) {
		if he.Message != "" {
			return he.Message
		}
		if code < 500 && he.Err != nil {
			return he.Err.Error()
		}
		return ""
	}
	if code < 500 || details {
		return err.Error()
	}
	return ""
}

// defaultErrorHandler writes "Status Text" or "Status Text: reason" as
// plain text, and a ValidationError as {"errors": {"field": "reason"}}.
func defaultErrorHandler(c *state) {
	if writeValidationError(c) {
		return
	}
	code := c.writer.status
	body := http.StatusText(code)
	if msg := publicMessage(c.err, code, c.app.errorDetails); msg != "" {
		body += ": " + msg
	}
	h := c.out.Header()
	h["Content-Type"] = textPlainUTF8
	h["X-Content-Type-Options"] = nosniff
	c.WriteString(body)
}

// errorHandlersFor finds the error handlers for code: from the matched
// route's group upward, or, for unmatched requests, from the group with the
// longest prefix of the path upward.
func (app *Application) errorHandlersFor(c *state, code int) []Handler {
	r := app.Router
	if c.route != nil {
		r = c.route.router
	} else if c.request != nil {
		path := c.request.URL.Path
		best := -1
		for _, p := range app.errorParties {
			if len(p.prefix) > best && hasPathPrefix(path, p.prefix) {
				r, best = p, len(p.prefix)
			}
		}
	}
	for ; r != nil; r = r.parent {
		if hs, ok := r.errorHandlers[code]; ok {
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
	if c.errorFired || c.Written() {
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
		defaultErrorHandler(c)
		return
	}
	c.handlers, c.index, c.stopped = hs, -1, false
	c.next(c.handle())
	if !c.Written() {
		// The custom handler wrote nothing: the client still gets the status.
		c.writer.writeHeaderNow()
	}
}
