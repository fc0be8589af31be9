// The response writer.
//
// responseWriter wraps the server's http.ResponseWriter for one request. It
// records the status and the bytes written, and it holds the status back
// until the first byte of the body (or a Flush) so that a handler can still
// change its mind: an error status with no body yet lets the application run
// the error handler registered for that code. It keeps http.Flusher,
// http.Hijacker and io.ReaderFrom, and Unwrap lets http.ResponseController
// reach the server's writer for everything else (deadlines, full duplex).
//
// Before-write hooks (Context.OnBeforeWrite) run once, when the status line
// is about to go out: the last moment a handler's side effects (a session
// to save) can still change the response. A hook that fails refuses the
// response: the handler's writes are dropped and return the hook's error,
// and the error page for it is written after the chain, as for
// StopWithError. The hooks live in a slice the pooled Context keeps, so
// registering one does not allocate once the slice has grown.

package core

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"

	"github.com/vireo-go/vireo/internal/engine"
)

// ErrHijacked is returned by writes after the connection was hijacked.
var ErrHijacked = errors.New("vireo: connection hijacked")

// ErrContextReleased is returned by a Context (and the Values, Params,
// writer and EventStream it handed out) once its request is over: by StopError,
// the writes and every method that returns an error. A Clone's writes
// return it too, having no response to write to.
var ErrContextReleased = errors.New("vireo: Context used after its handler returned (use Clone to keep request data)")

type responseWriter struct {
	w           http.ResponseWriter
	status      int
	size        int64
	wroteHeader bool
	hijacked    bool
	ctx         *state            // set by OnBeforeWrite, to make the hooks' handle
	hooks       []BeforeWriteHook // run once before the status goes out
	refused     error             // a hook's error: the handler's writes are dropped

	rate     DataRate    // the minimum rate of writes that can block; see deadline.go
	deadline uint8       // deadlineNone, deadlineArmed or deadlineHandler
	flushed  int64       // size at the last Flush
	body     *bodyReader // the request's body, whose rate a handler's read deadline replaces

	store engine.HeaderStore // w, when it keeps headers outside its map (resetExchange; headerstore.go)
	sw    io.StringWriter    // w as an io.StringWriter: set by resetExchange, or asserted by the first WriteString
}

// BeforeWriteHook is called by the response writer once per response, just
// before its status line and headers are sent: at the first Write,
// WriteString, ReadFrom or Flush, or after the chain when the handler wrote
// nothing. It may still change the status and the headers. When it returns
// an error, nothing the handler writes reaches the client (its writes return
// the error) and the response becomes the error page for that error, with
// the status StatusOf gives it, exactly as after StopWithError.
type BeforeWriteHook interface {
	BeforeWrite(ctx Context) error
}

// OnBeforeWrite registers h to run before the response's status line goes
// out (see BeforeWriteHook); hooks run in registration order and the first
// error stops them. A hook registered after the response started never
// runs. It does not allocate once the pooled Context has held as many hooks
// before; h itself should be a pointer (a pointer in an interface does not
// allocate, a closure usually does).
func (c Context) OnBeforeWrite(h BeforeWriteHook) {
	run(c, func(s *state) {
		s.onBeforeWrite(h)
	})
}

func (c *state) onBeforeWrite(h BeforeWriteHook) {
	c.writer.ctx = c
	c.writer.hooks = append(c.writer.hooks, h)
}

// runHooks runs and forgets the registered hooks. It reports false when
// one refused the response.
func (rw *responseWriter) runHooks() bool {
	hooks := rw.hooks
	rw.hooks = hooks[:0] // a hook that writes must not run the hooks again
	var err error
	for i, h := range hooks {
		if err == nil {
			err = h.BeforeWrite(rw.ctx.handle())
		}
		hooks[i] = nil
	}
	if err != nil {
		rw.ctx.stopWithError(err)
		rw.refused = err
		return false
	}
	return true
}

// dropHooks forgets the hooks that did not run (a hijacked or panicking
// request), so a pooled Context keeps nothing of its request.
func (rw *responseWriter) dropHooks() {
	clear(rw.hooks)
	rw.hooks = rw.hooks[:0]
	rw.refused = nil
}

func (rw *responseWriter) reset(w http.ResponseWriter) {
	rw.w = w
	rw.store, rw.sw = nil, nil
	rw.status = http.StatusOK
	rw.size = 0
	rw.wroteHeader = false
	rw.hijacked = false
	rw.deadline = deadlineNone
	rw.flushed = 0
	rw.body = nil
	if len(rw.hooks) > 0 || rw.refused != nil {
		rw.dropHooks()
	}
}

// Header returns the response header map.
func (rw *responseWriter) Header() http.Header {
	if rw.w == nil {
		return http.Header{}
	}
	return rw.w.Header()
}

// WriteHeader records code; it reaches the client with the first write.
// Informational codes go out at once, as on net/http: 100 and 103 (which
// may repeat) with the headers set so far, and are not the final status;
// 101 Switching Protocols is final, so it runs the before-write hooks and
// is sent now, for the Hijack that follows it.
func (rw *responseWriter) WriteHeader(code int) {
	if rw.wroteHeader || rw.hijacked || rw.w == nil || rw.refused != nil {
		return
	}
	switch {
	case code == http.StatusSwitchingProtocols:
		rw.status = code
		rw.writeHeaderNow()
	case code >= 100 && code < 200:
		rw.w.WriteHeader(code)
	default:
		rw.status = code
	}
}

func (rw *responseWriter) writeHeaderNow() {
	if !rw.wroteHeader && rw.refused == nil {
		if len(rw.hooks) > 0 && !rw.runHooks() {
			return
		}
		rw.wroteHeader = true
		rw.w.WriteHeader(rw.status)
	}
}

// Write writes p to the body, sending the status first.
func (rw *responseWriter) Write(p []byte) (int, error) {
	if rw.w == nil {
		return 0, ErrContextReleased
	}
	if rw.hijacked {
		return 0, ErrHijacked
	}
	if !rw.wroteHeader {
		rw.writeHeaderNow()
	}
	if rw.refused != nil {
		return 0, rw.refused
	}
	if rw.size+int64(len(p)) > writeDeadlineAfter {
		rw.armDeadline(int64(len(p)))
	}
	n, err := rw.w.Write(p)
	rw.size += int64(n)
	return n, err
}

// WriteString writes s to the body without converting it to a byte slice
// when the server's writer can take strings (net/http's can).
func (rw *responseWriter) WriteString(s string) (int, error) {
	if rw.w == nil {
		return 0, ErrContextReleased
	}
	if rw.hijacked {
		return 0, ErrHijacked
	}
	if !rw.wroteHeader {
		rw.writeHeaderNow()
	}
	if rw.refused != nil {
		return 0, rw.refused
	}
	if rw.size+int64(len(s)) > writeDeadlineAfter {
		rw.armDeadline(int64(len(s)))
	}
	if rw.sw == nil {
		// The assertion once a response: a handler that writes in
		// pieces pays it on the first piece only.
		rw.sw, _ = rw.w.(io.StringWriter)
	}
	var n int
	var err error
	if rw.sw != nil {
		n, err = rw.sw.WriteString(s)
	} else {
		n, err = rw.w.Write([]byte(s))
	}
	rw.size += int64(n)
	return n, err
}

// writeStringTo is io.WriteString for response writers. The assertion is
// made here rather than by io.WriteString, whose one site sees every type
// of the program: there its type cache missed and every call went to the
// runtime (about 160 instructions a request under callgrind); here it
// sees the servers' and middleware's writers only.
func writeStringTo(w http.ResponseWriter, s string) (int, error) {
	if sw, ok := w.(io.StringWriter); ok {
		return sw.WriteString(s)
	}
	return w.Write([]byte(s))
}

// ReadFrom lets io.Copy use the server's sendfile path for static files.
func (rw *responseWriter) ReadFrom(r io.Reader) (int64, error) {
	if rw.w == nil {
		return 0, ErrContextReleased
	}
	if rw.hijacked {
		return 0, ErrHijacked
	}
	if rw.writeHeaderNow(); rw.refused != nil {
		return 0, rw.refused
	}
	// The file goes out in chunks, each under its own deadline; a chunk of
	// an *os.File still goes through sendfile (io.LimitedReader).
	rf, _ := rw.w.(io.ReaderFrom)
	var total int64
	chunk := &io.LimitedReader{R: r}
	for {
		rw.armDeadline(fileChunk)
		chunk.N = fileChunk
		var n int64
		var err error
		if rf != nil {
			n, err = rf.ReadFrom(chunk)
		} else {
			n, err = io.Copy(writerOnly{rw.w}, chunk)
		}
		total += n
		rw.size += n
		if err != nil || n < fileChunk {
			return total, err
		}
	}
}

// writerOnly hides a writer's ReadFrom so io.Copy cannot recurse into it.
type writerOnly struct{ io.Writer }

// Flush sends the status and any buffered body to the client.
func (rw *responseWriter) Flush() {
	_ = rw.FlushError()
}

// FlushError is Flush that reports failure; http.ResponseController uses it.
func (rw *responseWriter) FlushError() error {
	if rw.w == nil {
		return ErrContextReleased
	}
	if rw.hijacked {
		return ErrHijacked
	}
	if rw.writeHeaderNow(); rw.refused != nil {
		return rw.refused
	}
	rw.armDeadline(rw.size - rw.flushed)
	rw.flushed = rw.size
	return http.NewResponseController(rw.w).Flush()
}

// Hijack hands the connection to the caller (websockets, proxies). A 101
// written before is on the connection by then (net/http flushes it); the
// before-write hooks run first when no status was sent (a session is
// saved even though the caller writes its own response), and one that
// refuses the response makes Hijack fail with its error. The connection
// is then the caller's: Vireo writes nothing more.
func (rw *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if rw.w == nil {
		return nil, nil, ErrContextReleased
	}
	if rw.hijacked {
		return nil, nil, ErrHijacked
	}
	if rw.refused == nil && !rw.wroteHeader && len(rw.hooks) > 0 {
		rw.runHooks()
	}
	if rw.refused != nil {
		return nil, nil, rw.refused
	}
	conn, brw, err := http.NewResponseController(rw.w).Hijack()
	if err == nil {
		rw.hijacked = true
	}
	return conn, brw, err
}

// Unwrap returns the server's writer, for http.ResponseController.
func (rw *responseWriter) Unwrap() http.ResponseWriter {
	return rw.w
}
