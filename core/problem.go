// Error pages: the default body of an error status and the application-wide
// error handler.
//
// An error status set without a body is finished after the chain by, in
// this order: the OnErrorCode handlers of the most specific group (see
// errors.go), else the application's OnError handler, else the default
// page written here. The default page is negotiated like ASP.NET Core's
// AddProblemDetails: a client whose Accept header prefers JSON over text
// (application/json, application/problem+json) gets an RFC 9457 Problem
// Details document, application/problem+json, with type, title, status,
// detail, instance (the request path), the request ID and, for a
// ValidationError, the invalid fields under "errors"; any other client
// (a browser, curl's */*, no Accept) gets "Status Text" or
// "Status Text: detail" as text/plain.
//
// The detail is the error's public message (Context.ErrorMessage), never
// its internal cause: an HTTPError shows its Message and hides Err, other
// errors show their text only below 500, and 5xx errors show nothing
// unless WithErrorDetails is set. Every problem body carries a request ID:
// the one middleware gave the request, or one made here for the error (and
// sent as X-Request-Id), so that a client's report can be found in the log.

package core

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
)

// ProblemJSON is the media type of RFC 9457 Problem Details documents.
const ProblemJSON = "application/problem+json"

var problemJSONUTF8 = []string{ProblemJSON + "; charset=utf-8"}

// problem is an RFC 9457 Problem Details document.
type problem struct {
	Type      string            `json:"type"`
	Title     string            `json:"title"`
	Status    int               `json:"status"`
	Detail    string            `json:"detail,omitempty"`
	Instance  string            `json:"instance,omitempty"`
	RequestID string            `json:"requestId"`
	Errors    map[string]string `json:"errors,omitempty"`
}

// OnError sets the application-wide error handler: it writes the response
// of every error status set without a body (StopWithError, StopWithStatus,
// a recovered panic, the router's 404 and 405, a refused body) for which no
// OnErrorCode handler is registered, as Echo's HTTPErrorHandler does. err is
// the error the chain stopped with, or an *HTTPError of the status when
// there is none. What it shows the client should come from
// ctx.ErrorMessage, which never holds an internal cause. A nil handler is a
// registration error; a second call replaces the first.
func (app *Application) OnError(handler func(ctx Context, err error)) {
	if handler == nil {
		app.recordError("", "", errors.New("OnError: nil handler"))
		return
	}
	app.onError = handler
}

// ErrorMessage returns what may be shown to the client about the error the
// chain stopped with: an HTTPError's Message, the text of other errors
// below 500, and for 5xx errors only the status text (the whole error text
// with WithErrorDetails). Without an error it is the status text of an
// error status, else "".
func (c Context) ErrorMessage() string {
	return with(c, "", func(s *state) string {
		return s.errorMessage()
	})
}

func (c *state) errorMessage() string {
	code := c.writer.status
	if msg := publicMessage(c.err, code, c.app.errorDetails); msg != "" {
		return msg
	}
	if code >= 400 {
		return http.StatusText(code)
	}
	return ""
}

// stopError returns the error the chain stopped with, or an HTTPError of
// the status, for the OnError handler.
func (c *state) stopError() error {
	if c.err != nil {
		return c.err
	}
	return &HTTPError{Code: c.writer.status}
}

// prefersJSON reports whether the client's Accept header prefers a JSON
// document over text: ties (*/*, no Accept) go to text.
func (c *state) prefersJSON() bool {
	accept := c.x.HeaderValues("Accept")
	if len(accept) == 0 {
		return false
	}
	js := max(acceptQuality(accept, ProblemJSON), acceptQuality(accept, MIMEJSON))
	text := max(acceptQuality(accept, MIMEText), acceptQuality(accept, MIMEHTML))
	return js > text
}

// errorRequestID returns the request's ID, making one (and sending it as
// X-Request-Id) when no middleware gave it one.
func (c *state) errorRequestID() string {
	if id := c.requestID(); id != "" {
		return id
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	c.values.set(RequestIDKey, id)
	if c.out != nil {
		c.out.Header().Set("X-Request-Id", id)
	}
	return id
}

// defaultErrorHandler writes the default error page, negotiated (see the
// file comment).
func defaultErrorHandler(c *state) {
	code := c.writer.status
	detail := publicMessage(c.err, code, c.app.errorDetails)
	var ve *ValidationError
	errors.As(c.err, &ve)
	h := c.out.Header()
	h["X-Content-Type-Options"] = nosniff
	if c.x != nil && c.prefersJSON() {
		p := problem{
			Type:      "about:blank",
			Title:     http.StatusText(code),
			Status:    code,
			Detail:    detail,
			Instance:  c.x.Path(),
			RequestID: c.errorRequestID(),
		}
		if ve != nil {
			p.Errors, p.Detail = ve.Fields, "invalid fields"
		}
		body, err := json.Marshal(p)
		if err == nil {
			h["Content-Type"] = problemJSONUTF8
			c.writeString(string(body))
			return
		}
	}
	body := http.StatusText(code)
	if detail != "" {
		body += ": " + detail
	}
	h["Content-Type"] = textPlainUTF8
	c.writeString(body)
}
