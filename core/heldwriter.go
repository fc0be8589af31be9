// The response writer a handle hands out.
//
// ResponseWriter gives net/http code a writer that is itself a handle: each
// of its methods goes through the gate of the Context it was made for, so
// a writer kept past the request (by a goroutine, by a net/http middleware)
// refuses its writes with ErrContextReleased like the Context, and a
// stale one, made for no live request, is releasedWriter.
//
// Handing out the header map. An engine's writer may reuse its response
// header map for its next request (the fasthttp engine's, pooled with its
// exchange: engine.HeaderReuser), so a map that code kept past its request
// would be another client's response header. The map is handed out, and
// the engine told so (HandOutHeader: it then gives the map up at the
// request's end and takes a fresh one), exactly where code outside core's
// own writes can get it:
//
//   - Context.ResponseHeader, which returns it to the caller;
//   - the Header of the writer handle (heldWriter), which net/http code
//     gets from ResponseWriter and which WrapHandler, Mount and
//     WrapMiddleware hand to their http.Handler: every middleware wrapper
//     around the response reaches the map through it.
//
// Both call handOutHeader(w) with the writer whose Header they return (c.out,
// or the writer the handle wraps). Only when w is core's own writer
// (&c.writer, whose w is the engine's) is the map the engine's: any other w
// is a wrapper, which either has a map of its own (the timeout writer's) or
// reaches the engine's through a writer handle, whose Header handed it out
// then. Core's own writes (Content-Type, SetResponseHeader,
// SetResponseHeaders, SetCookie...) go through the header store of c.out
// (headerstore.go), and error pages through c.out.Header(): they keep
// nothing. When c.out is a wrapper, they reach the engine's headers
// through the handle it holds: its store methods when the wrapper is a
// store itself (Compress's writer forwards to them), which hand nothing
// out, else its Header, which counts as handed out, as it must (the
// wrapper has had the map). So a request that only uses core's writes and
// Compress keeps the engine's reuse and allocates nothing for its headers.

package core

import (
	"bufio"
	"net"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/internal/engine"
)

// ResponseWriter returns the response writer, for code written against
// net/http. It records status and size and supports http.Flusher,
// http.Hijacker and http.ResponseController. It is a handle like c: kept
// past the request, its writes fail with ErrContextReleased. The first call
// of a request allocates it (and the first after SetResponseWriter); to
// set headers, ResponseHeader does not.
func (c Context) ResponseWriter() http.ResponseWriter {
	return with[http.ResponseWriter](c, releasedWriter{}, func(s *state) http.ResponseWriter {
		return s.heldOut(c)
	})
}

// heldOut returns the handle writer around the current writer, made once
// per request and writer (release drops it; every live handle of a request
// is equal to c).
func (s *state) heldOut(c Context) *heldWriter {
	if s.held == nil || s.held.w != s.out {
		s.held = &heldWriter{c: c, w: s.out}
	}
	return s.held
}

var _ engine.HeaderStore = (*heldWriter)(nil)

// heldWriter is the http.ResponseWriter that ResponseWriter hands out: the
// request's writer w behind the checks of the handle c.
type heldWriter struct {
	c Context
	w http.ResponseWriter
}

// Header returns the response header map, handed out (see the file
// comment); a fresh, unused one once the request is over.
func (hw *heldWriter) Header() http.Header {
	s, pin := hw.c.enter()
	if s == nil {
		return http.Header{}
	}
	if pin {
		defer s.unpin() // a ResponseWriter's Header
	}
	return s.handOutHeader(hw.w)
}

// handOutHeader returns w's header map for code outside core's own writes,
// which may keep it: when w is core's own writer, the map is the engine's,
// and an engine that reuses it is told (see the file comment).
func (c *state) handOutHeader(w http.ResponseWriter) http.Header {
	if w == http.ResponseWriter(&c.writer) {
		if r, ok := c.writer.w.(engine.HeaderReuser); ok {
			r.HandOutHeader()
		}
	}
	return w.Header()
}

// The writer handle is an engine.HeaderStore too: a middleware's writer
// that wraps it (Compress's) reads and sets headers through it without
// taking the header map, which keeps the engine's reuse of the map (see
// the file comment). Like the other methods, they do nothing for a stale
// handle.

// HeaderValues returns the values of the response header key (canonical).
func (hw *heldWriter) HeaderValues(key string) []string {
	return with(hw.c, nil, func(s *state) []string { return s.storeOf(hw.w).HeaderValues(key) })
}

// SetHeader sets the response header key to value.
func (hw *heldWriter) SetHeader(key, value string) {
	run(hw.c, func(s *state) { s.storeOf(hw.w).SetHeader(key, value) })
}

// SetHeaderValues sets the response header key to values, or deletes it.
func (hw *heldWriter) SetHeaderValues(key string, values []string) {
	run(hw.c, func(s *state) { s.storeOf(hw.w).SetHeaderValues(key, values) })
}

// AddHeader adds value to the response header key.
func (hw *heldWriter) AddHeader(key, value string) {
	run(hw.c, func(s *state) { s.storeOf(hw.w).AddHeader(key, value) })
}

// SetHeaderIfUnset sets the response header key to values unless it is set.
func (hw *heldWriter) SetHeaderIfUnset(key string, values []string) {
	run(hw.c, func(s *state) { s.storeOf(hw.w).SetHeaderIfUnset(key, values) })
}

// Write writes p to the response, or fails with ErrContextReleased.
func (hw *heldWriter) Write(p []byte) (int, error) {
	s, pin := hw.c.enter()
	if s == nil {
		return 0, ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return hw.w.Write(p)
}

// WriteHeader sends the status line, unless the request is over.
func (hw *heldWriter) WriteHeader(code int) {
	s, pin := hw.c.enter()
	if s == nil {
		return
	}
	if pin {
		defer s.unpin()
	}
	hw.w.WriteHeader(code)
}

// Flush sends what is buffered to the client.
func (hw *heldWriter) Flush() { _ = hw.FlushError() }

// FlushError is Flush with the error, for http.ResponseController.
func (hw *heldWriter) FlushError() error {
	s, pin := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return http.NewResponseController(hw.w).Flush()
}

// Hijack takes over the connection (see http.Hijacker).
func (hw *heldWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	s, pin := hw.c.enter()
	if s == nil {
		return nil, nil, ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return http.NewResponseController(hw.w).Hijack()
}

// SetWriteDeadline sets the response's write deadline, for
// http.ResponseController.
func (hw *heldWriter) SetWriteDeadline(t time.Time) error {
	s, pin := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return http.NewResponseController(hw.w).SetWriteDeadline(t)
}

// SetReadDeadline sets the request body's read deadline, for
// http.ResponseController.
func (hw *heldWriter) SetReadDeadline(t time.Time) error {
	s, pin := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return http.NewResponseController(hw.w).SetReadDeadline(t)
}

// EnableFullDuplex lets the handler read the body while it writes, for
// http.ResponseController.
func (hw *heldWriter) EnableFullDuplex() error {
	s, pin := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return http.NewResponseController(hw.w).EnableFullDuplex()
}

// releasedWriter is what a stale Context's ResponseWriter returns: every
// write fails with ErrContextReleased.
type releasedWriter struct{}

func (releasedWriter) Header() http.Header              { return http.Header{} }
func (releasedWriter) Write([]byte) (int, error)        { return 0, ErrContextReleased }
func (releasedWriter) WriteHeader(int)                  {}
func (releasedWriter) FlushError() error                { return ErrContextReleased }
func (releasedWriter) SetWriteDeadline(time.Time) error { return ErrContextReleased }
