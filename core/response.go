// The response writer.
//
// responseWriter wraps the server's http.ResponseWriter for one request. It
// records the status and the bytes written, and it holds the status back
// until the first byte of the body (or a Flush) so that a handler can still
// change its mind: an error status with no body yet lets the application run
// the error handler registered for that code. It keeps http.Flusher,
// http.Hijacker and io.ReaderFrom, and Unwrap lets http.ResponseController
// reach the server's writer for everything else (deadlines, full duplex).

package core

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
)

// ErrHijacked is returned by writes after the connection was hijacked.
var ErrHijacked = errors.New("vireo: connection hijacked")

// ErrContextReleased is returned by writes through a Context whose handler
// has returned, or through a Clone, which has no response to write to.
var ErrContextReleased = errors.New("vireo: Context used after its handler returned (use Clone to keep request data)")

type responseWriter struct {
	w           http.ResponseWriter
	status      int
	size        int64
	wroteHeader bool
	hijacked    bool
}

func (rw *responseWriter) reset(w http.ResponseWriter) {
	rw.w = w
	rw.status = http.StatusOK
	rw.size = 0
	rw.wroteHeader = false
	rw.hijacked = false
}

// Header returns the response header map.
func (rw *responseWriter) Header() http.Header {
	if rw.w == nil {
		return http.Header{}
	}
	return rw.w.Header()
}

// WriteHeader records code; it reaches the client with the first write.
// Informational codes (1xx but 101) go out at once, as net/http allows.
func (rw *responseWriter) WriteHeader(code int) {
	if rw.wroteHeader || rw.hijacked || rw.w == nil {
		return
	}
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		rw.w.WriteHeader(code)
		return
	}
	rw.status = code
}

func (rw *responseWriter) writeHeaderNow() {
	if !rw.wroteHeader {
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
	rw.writeHeaderNow()
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
	rw.writeHeaderNow()
	n, err := io.WriteString(rw.w, s)
	rw.size += int64(n)
	return n, err
}

// ReadFrom lets io.Copy use the server's sendfile path for static files.
func (rw *responseWriter) ReadFrom(r io.Reader) (int64, error) {
	if rw.w == nil {
		return 0, ErrContextReleased
	}
	if rw.hijacked {
		return 0, ErrHijacked
	}
	rw.writeHeaderNow()
	var n int64
	var err error
	if rf, ok := rw.w.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(writerOnly{rw.w}, r)
	}
	rw.size += n
	return n, err
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
	rw.writeHeaderNow()
	return http.NewResponseController(rw.w).Flush()
}

// Hijack hands the connection to the caller (websockets, proxies). The
// response is then the caller's: Vireo writes nothing more.
func (rw *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if rw.w == nil {
		return nil, nil, ErrContextReleased
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
