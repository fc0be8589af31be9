// Response write deadlines.
//
// A client that stops reading a response blocks the handler's writes once
// the connection's buffers are full, and holds the goroutine and the
// connection for as long as it likes. http.Server's WriteTimeout prevents
// that, but it arms a timer on every request, small ones included, whose
// writes can never block; it costs several percent of a small request.
// Vireo arms the deadline only when a response can block: before a write
// that takes the body past writeDeadlineAfter bytes, before a Flush (a
// stream) and before ReadFrom (a file). The deadline is the application's
// write timeout from that moment (WithWriteTimeout, DefaultWriteTimeout).
// net/http flushes the end of the response under it and then clears the
// connection's write deadline, so the next request on a keep-alive
// connection starts without one (HTTP/2 deadlines are per stream). A
// handler that sets its own write deadline with http.ResponseController (to
// stream longer) is left alone for the rest of the response.

package core

import (
	"net/http"
	"time"
)

// writeDeadlineAfter is the body size past which a write may block: what
// the server's buffer and the kernel's socket buffer take without the
// client reading is well above it.
const writeDeadlineAfter = 64 << 10

// Deadline states of a responseWriter.
const (
	deadlineNone    uint8 = iota // no deadline for this response yet
	deadlineArmed                // armed by the writer
	deadlineHandler              // set by the handler: left alone
)

// armDeadline sets the write deadline of the response, once.
func (rw *responseWriter) armDeadline() {
	if rw.deadline != deadlineNone || rw.writeTimeout <= 0 {
		return
	}
	rw.deadline = deadlineArmed
	_ = http.NewResponseController(rw.w).SetWriteDeadline(time.Now().Add(rw.writeTimeout))
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
// http.ResponseController.
func (rw *responseWriter) SetReadDeadline(t time.Time) error {
	if rw.w == nil {
		return ErrContextReleased
	}
	return http.NewResponseController(rw.w).SetReadDeadline(t)
}
