// Request timeouts.
//
// This is Vireo's one request-timeout mechanism. Applications set a
// timeout with middleware.Timeout, which calls NextWithTimeout: for every
// request with app.UseBeforeRouting(middleware.MustTimeout(d)) (routed and
// unmatched requests alike), for a group or a route with Use or among the
// route's handlers. The server's own limits (header timeout, idle timeout,
// minimum data rates) are connection limits, not request deadlines.
//
// NextWithTimeout runs the rest of the chain in a goroutine, with a
// deadline on the request's context.Context and the Context's writer
// replaced by a buffer (timeoutWriter) whose every operation holds one
// mutex. When the chain returns in time, the buffered status, headers and
// body are copied to the real writer and the request goes on as usual
// (error pages included). When the deadline comes first, the buffer is
// closed under the mutex (later writes fail with http.ErrHandlerTimeout),
// the timeout response is written straight to the server's writer and
// flushed, with Connection: close, so the client has its whole answer at
// the deadline; then the request's goroutine waits for the chain to return
// before it marks the response written and gives the Context back.
//
// Waiting is what keeps an overrunning handler away from other requests:
// the Context is not returned to the pool while the handler can still
// reach it, so its late reads see its own request and its late writes are
// refused; and during the wait the request's goroutine touches nothing the
// handler can touch (the handler has the buffer, its own header map, the
// request), so there is no data race. The cost of an overrun is a goroutine
// and a connection held until the handler returns, as with
// http.TimeoutHandler; handlers should watch Request().Context().Done().

package core

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// TimeoutResponse is the answer sent when a handler overruns its deadline.
type TimeoutResponse struct {
	Status      int    // 0 means 503
	ContentType string // "" means text/plain; charset=utf-8
	Body        string // sent as is
}

// defaultTimeoutResponse is the response used when none is given.
var defaultTimeoutResponse = TimeoutResponse{
	Status:      http.StatusServiceUnavailable,
	ContentType: "text/plain; charset=utf-8",
	Body:        "Service Unavailable: the request took too long",
}

// NextWithTimeout runs the rest of the chain like Next, with a deadline of
// d on Request().Context(); it is what middleware.Timeout, the way to set
// a request timeout, calls. It reports whether the deadline passed first;
// then the client got resp at the deadline (when resp is nil: 503,
// text/plain, "Service Unavailable: the request took too long") and the
// chain's writes were refused with http.ErrHandlerTimeout. The chain runs
// in a goroutine of its own and its response is buffered until it returns,
// so it cannot stream; after a timeout the Context stays out of the pool
// until the chain returns, so a late handler never reaches another request.
func (c Context) NextWithTimeout(d time.Duration, resp *TimeoutResponse) (timedOut bool) {
	return with(c, false, func(s *state) bool {
		return s.nextWithTimeout(d, resp)
	})
}

func (c *state) nextWithTimeout(d time.Duration, resp *TimeoutResponse) (timedOut bool) {
	if resp == nil {
		resp = &defaultTimeoutResponse
	}
	orig := c.request
	tctx, cancel := context.WithTimeout(orig.Context(), d)
	defer cancel()
	c.request = orig.WithContext(tctx)

	server := c.writer.w
	prev := c.out
	tw := &timeoutWriter{c: c, out: prev, deadline: tctx, h: c.writer.Header().Clone(), status: http.StatusOK}
	c.out = tw

	// The chain reports whether the deadline had passed when it returned:
	// a chain that finishes late has timed out, even if the select below
	// sees it finish before it sees the deadline.
	type result struct {
		rec  any
		late bool
	}
	done := make(chan result, 1)
	go func() {
		defer func() { done <- result{recover(), tctx.Err() != nil} }()
		c.next(c.handle())
	}()

	var res result
	finished := false
	select {
	case res = <-done:
		finished = true
	case <-tctx.Done():
	}
	tw.mu.Lock()
	if !finished {
		select {
		case res = <-done:
			finished = true
		default:
		}
	}
	switched := tw.switched
	timedOut = (!finished || res.late) && !switched
	tw.timedOut = timedOut // the chain's further writes are refused
	tw.mu.Unlock()
	if switched {
		// The chain took the connection over (101, Hijack): the response
		// is its own, however long it runs; wait for it to return.
		if !finished {
			res = <-done
		}
		c.out, c.request = prev, orig
		if res.rec != nil {
			panic(res.rec)
		}
		return false
	}
	if timedOut {
		n := writeTimeout(server, resp)
		if !finished {
			res = <-done // the handler may still reach the Context: wait for it
		}
		c.out, c.request = prev, orig
		c.writer.status = resp.Status
		c.writer.wroteHeader = true
		c.writer.size += int64(n)
		if res.rec != nil {
			panic(res.rec)
		}
		return true
	}
	c.out, c.request = prev, orig
	if res.rec != nil {
		panic(res.rec)
	}
	tw.copyTo(c)
	return false
}

// writeTimeout writes resp to the server's writer and flushes it.
func writeTimeout(w http.ResponseWriter, resp *TimeoutResponse) int {
	status := resp.Status
	if status == 0 {
		status = http.StatusServiceUnavailable
	}
	h := w.Header()
	for _, k := range [...]string{"Content-Encoding", "Etag", "Last-Modified", "Accept-Ranges", "Set-Cookie"} {
		delete(h, k)
	}
	ct := resp.ContentType
	if ct == "" {
		ct = "text/plain; charset=utf-8"
	}
	h.Set("Content-Type", ct)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	h.Set("Connection", "close")
	w.WriteHeader(status)
	n, _ := w.Write([]byte(resp.Body))
	_ = http.NewResponseController(w).Flush()
	return n
}

// timeoutWriter is the writer of a chain running under NextWithTimeout.
type timeoutWriter struct {
	mu       sync.Mutex
	c        *state
	out      http.ResponseWriter // the writer installed before, the response's way out
	deadline context.Context
	h        http.Header
	buf      bytes.Buffer
	status   int
	wrote    bool
	timedOut bool
	switched bool // a 101 went out or the connection was hijacked: no timeout answer
}

// Header returns the chain's own header map, copied to the response when
// the chain returns in time.
func (tw *timeoutWriter) Header() http.Header { return tw.h }

// WriteHeader records the status. Informational statuses go out at once,
// as on net/http, with the chain's headers so far: 100 and 103 leave the
// response's own header map as it was; 101 Switching Protocols is the
// final answer, so the chain's headers become the response's, and the
// timeout no longer applies to the response.
func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.deadline.Err() != nil || tw.wrote || tw.switched {
		return
	}
	if code >= 200 {
		tw.status = code
		tw.c.writer.status = code // what Status reports; nothing is sent
		return
	}
	h := tw.out.Header()
	var saved http.Header
	if code != http.StatusSwitchingProtocols {
		saved = h.Clone()
	}
	clear(h)
	for k, v := range tw.h {
		h[k] = v
	}
	tw.out.WriteHeader(code)
	if code == http.StatusSwitchingProtocols {
		tw.switched = true
		return
	}
	clear(h)
	for k, v := range saved {
		h[k] = v
	}
}

// Hijack hands the connection to the chain (see http.Hijacker), unless
// the deadline has passed: from then on the response is the chain's, and
// no timeout answer is written on the connection.
func (tw *timeoutWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.deadline.Err() != nil {
		return nil, nil, http.ErrHandlerTimeout
	}
	if tw.wrote {
		return nil, nil, fmt.Errorf("vireo: Hijack after the body was written under a request timeout: %w", http.ErrNotSupported)
	}
	conn, brw, err := http.NewResponseController(tw.out).Hijack()
	if err == nil {
		tw.switched = true
	}
	return conn, brw, err
}

// Unwrap returns the writer the response goes out through, for the
// deadlines and full duplex of http.ResponseController; once the deadline
// has passed, a writer whose every call fails.
func (tw *timeoutWriter) Unwrap() http.ResponseWriter {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.deadline.Err() != nil {
		return releasedWriter{}
	}
	return tw.out
}

// Write buffers p, or fails with http.ErrHandlerTimeout once the deadline
// has passed.
func (tw *timeoutWriter) Write(p []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.deadline.Err() != nil {
		return 0, http.ErrHandlerTimeout
	}
	tw.wrote = true
	return tw.buf.Write(p)
}

// WriteString is Write for strings.
func (tw *timeoutWriter) WriteString(s string) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.deadline.Err() != nil {
		return 0, http.ErrHandlerTimeout
	}
	tw.wrote = true
	return tw.buf.WriteString(s)
}

// FlushError fails: a response under a deadline is sent whole.
func (tw *timeoutWriter) FlushError() error {
	return fmt.Errorf("vireo: cannot flush a response under a request timeout: %w", http.ErrNotSupported)
}

// copyTo sends what the chain wrote, after it returned in time, through
// the writer that was installed before NextWithTimeout (a compressing
// writer of an outer middleware, say).
func (tw *timeoutWriter) copyTo(c *state) {
	h := c.out.Header()
	clear(h)
	for k, v := range tw.h {
		h[k] = v
	}
	if !tw.wrote {
		return // the usual end of request: error page or bare status
	}
	c.out.WriteHeader(tw.status)
	c.out.Write(tw.buf.Bytes())
}
