// Deadlines by data rate.
//
// One deadline for a whole request body or a whole response is wrong both
// ways: it cuts a large upload or download over a slow but steady link,
// and it lets a client that trickles a byte a second, or stops reading,
// hold a connection and a handler until it expires. Vireo instead requires
// a minimum data rate after a grace period, in both directions, as Kestrel
// does (240 bytes/s after 5 s by default, DefaultMinBytesPerSecond and
// DefaultDataRateGrace):
//
//   - Request bodies (bodyReader, body.go): a body that has delivered B
//     bytes must have done so within Grace + B/BytesPerSecond of waiting.
//     Before each Read the connection's read deadline is set to what is
//     left of that allowance; the clock runs only while a Read waits, so
//     the time a handler spends between reads is not counted against the
//     client. A body that falls behind fails with a 408.
//   - Responses (responseWriter): a write that can block (the body past
//     writeDeadlineAfter bytes, a Flush, a file) must complete within
//     Grace + n/BytesPerSecond, n being the bytes it may have to push
//     (what it writes plus what net/http may still buffer). The write
//     deadline is set before each such write, so a steady reader of any
//     size of response or of an endless stream is never cut, and one that
//     stops reading is, within the grace period once the buffers are full;
//     its handler's writes then fail and the request's context ends.
//     Small responses, whose writes cannot block, set no deadline at all
//     (a timer per request costs several percent of a small one). A file
//     goes out in chunks of fileChunk bytes, each with its deadline.
//
// http.Server's ReadTimeout and WriteTimeout, one deadline each for the
// whole request, are left at zero; ReadHeaderTimeout and IdleTimeout stay
// (kept on the heartbeat, heartbeat.go).
// WithMinRequestBodyRate and WithMinResponseRate set the application's
// rates; MinRequestBodyRate and MinResponseRate, as middleware, set a
// route's (an upload over slow links, a stream). A handler that sets its
// own write deadline with http.ResponseController is left alone for the
// rest of the response.

package core

import (
	"fmt"
	"net/http"
	"time"
)

// DataRate is a minimum data rate with a grace period: a transfer of n
// bytes may take Grace plus n/BytesPerSecond. The zero DataRate sets no
// deadline.
type DataRate struct {
	BytesPerSecond int64
	Grace          time.Duration
}

// The default minimum rate of request bodies and of responses: 240 bytes
// a second after 5 seconds, Kestrel's defaults. They let a large upload or
// download over the slowest mobile link finish, however long it takes, and
// cut a client that trickles or stops reading within seconds.
const (
	DefaultMinBytesPerSecond = 240
	DefaultDataRateGrace     = 5 * time.Second
)

// defaultDataRate is DataRate{DefaultMinBytesPerSecond, DefaultDataRateGrace}.
var defaultDataRate = DataRate{BytesPerSecond: DefaultMinBytesPerSecond, Grace: DefaultDataRateGrace}

// allowance is the time a transfer of n bytes may take.
func (r DataRate) allowance(n int64) time.Duration {
	return r.Grace + time.Duration(float64(n)/float64(r.BytesPerSecond)*float64(time.Second))
}

func (r DataRate) check(name string) error {
	if r.BytesPerSecond < 0 || r.Grace < 0 {
		return fmt.Errorf("%s: negative rate or grace period %+v", name, r)
	}
	if r.BytesPerSecond > 0 && r.Grace == 0 {
		return fmt.Errorf("%s: a rate needs a grace period (the first bytes take a round trip)", name)
	}
	return nil
}

// WithMinRequestBodyRate sets the minimum rate at which request bodies
// must arrive (default DefaultMinBytesPerSecond after DefaultDataRateGrace); see the Deadlines section of
// the package doc. The zero DataRate sets none: the body may then take as
// long as the client likes. A negative rate, or a rate without a grace
// period, is a registration error.
func WithMinRequestBodyRate(r DataRate) Option {
	return func(app *Application) {
		if err := r.check("WithMinRequestBodyRate"); err != nil {
			app.recordError("", "", err)
			return
		}
		app.readRate = r
	}
}

// WithMinResponseRate sets the minimum rate at which clients must take
// responses that can block (default DefaultMinBytesPerSecond after DefaultDataRateGrace); the zero
// DataRate sets none. A negative rate, or a rate without a grace period,
// is a registration error.
func WithMinResponseRate(r DataRate) Option {
	return func(app *Application) {
		if err := r.check("WithMinResponseRate"); err != nil {
			app.recordError("", "", err)
			return
		}
		app.writeRate = r
	}
}

// MinRequestBodyRate returns middleware that sets the minimum request
// body rate of the routes it is installed on, in place of the
// application's: a lower one for uploads from slow devices, say. It
// panics on a negative rate or a rate without a grace period.
func MinRequestBodyRate(r DataRate) Handler {
	if err := r.check("MinRequestBodyRate"); err != nil {
		panic("vireo: " + err.Error())
	}
	return stateHandler(func(c *state, ctx Context) {
		c.readRate = r
		if c.body != nil {
			c.body.rate = r
		}
		c.next(ctx)
	})
}

// MinResponseRate returns middleware that sets the minimum response rate
// of the routes it is installed on, in place of the application's. It
// panics on a negative rate or a rate without a grace period.
func MinResponseRate(r DataRate) Handler {
	if err := r.check("MinResponseRate"); err != nil {
		panic("vireo: " + err.Error())
	}
	return stateHandler(func(c *state, ctx Context) {
		c.writer.rate = r
		c.next(ctx)
	})
}

// writeDeadlineAfter is the body size past which a write may block: what
// the server's buffer and the kernel's socket buffer take without the
// client reading is well above it.
const writeDeadlineAfter = 64 << 10

// writeSlack is what net/http may hold in its buffers beyond the bytes of
// the current write: they go out with it.
const writeSlack = 8 << 10

// fileChunk is the size of the chunks a file is sent in, each under its
// own deadline.
const fileChunk = 1 << 20

// Deadline states of a responseWriter.
const (
	deadlineNone    uint8 = iota // no deadline for this response yet
	deadlineArmed                // set by the writer
	deadlineHandler              // set by the handler: left alone
)

// armDeadline sets the write deadline for a write of n bytes.
func (rw *responseWriter) armDeadline(n int64) {
	if rw.deadline == deadlineHandler || rw.rate.BytesPerSecond <= 0 {
		return
	}
	rw.deadline = deadlineArmed
	_ = http.NewResponseController(rw.w).SetWriteDeadline(time.Now().Add(rw.rate.allowance(n + writeSlack)))
}

// SetWriteDeadline sets the write deadline of the connection, for
// http.ResponseController; the writer then arms none of its own.
func (rw *responseWriter) SetWriteDeadline(t time.Time) error {
	if rw.w == nil {
		return ErrContextReleased
	}
	rw.deadline = deadlineHandler
	return http.NewResponseController(rw.w).SetWriteDeadline(t)
}

// SetReadDeadline sets the read deadline of the connection, for
// http.ResponseController; the request body then keeps to it instead of
// the minimum rate.
func (rw *responseWriter) SetReadDeadline(t time.Time) error {
	if rw.w == nil {
		return ErrContextReleased
	}
	if rw.body != nil {
		rw.body.rate = DataRate{}
	}
	return http.NewResponseController(rw.w).SetReadDeadline(t)
}
