// Timeouts.
//
// Timeout is core.Context.NextWithTimeout as middleware: the rest of the
// chain runs with a deadline on Request().Context(); past it, the chain's
// writes are refused (http.ErrHandlerTimeout) and the client gets 503 (or
// the configured response) at once, with the headers set before the chain
// (request ID, CORS...). The Context is kept from the pool until the
// overrunning handler returns, so nothing it does late reaches another
// request. It is the one way to set a request timeout: for every request,
// install it first with Application.UseBeforeRouting; for a group or a
// route, with Use or among the route's handlers.

package middleware

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/core"
)

// TimeoutOption configures Timeout.
type TimeoutOption func(*core.TimeoutResponse) error

// WithTimeoutResponse sets the status (4xx or 5xx), content type and body
// sent when the deadline passes (default 503, text/plain, "Service
// Unavailable: the request took too long").
func WithTimeoutResponse(status int, contentType, body string) TimeoutOption {
	return func(r *core.TimeoutResponse) error {
		if status < 400 || status > 599 {
			return fmt.Errorf("middleware: Timeout: status %d is not an error status", status)
		}
		r.Status, r.ContentType, r.Body = status, contentType, body
		return nil
	}
}

// Timeout returns middleware running the rest of the chain with a deadline
// of d, or an error for a non-positive d or an invalid option.
func Timeout(d time.Duration, opts ...TimeoutOption) (core.Handler, error) {
	if d <= 0 {
		return nil, fmt.Errorf("middleware: Timeout: duration %v is not positive", d)
	}
	var resp *core.TimeoutResponse // nil: NextWithTimeout's default response
	if len(opts) > 0 {
		resp = &core.TimeoutResponse{Status: http.StatusServiceUnavailable}
		for _, opt := range opts {
			if opt == nil {
				return nil, errors.New("middleware: Timeout: nil option")
			}
			if err := opt(resp); err != nil {
				return nil, err
			}
		}
	}
	return func(ctx core.Context) { ctx.NextWithTimeout(d, resp) }, nil
}

// MustTimeout is Timeout that panics on an invalid argument.
func MustTimeout(d time.Duration, opts ...TimeoutOption) core.Handler {
	h, err := Timeout(d, opts...)
	if err != nil {
		panic(err)
	}
	return h
}
