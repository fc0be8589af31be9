// Streams: the request a HEADERS frame opens, its body as a pipe the frame
// loop fills, and the handler goroutine.
//
// The body pipe holds at most the stream's receive window (the client may
// not send more), so the frame loop never blocks on it; bytes the handler
// reads go back to the client with WINDOW_UPDATE once half a window is due
// (few frames for small bodies), and bytes that arrive after the handler
// closed the body go back at once. When a handler returns, the next stream
// waiting for a handler slot (see conn.go) starts.

package h2

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http2"
)

type stream struct {
	id            uint32
	c             *conn
	req           *http.Request
	cancel        context.CancelFunc
	body          *pipe
	contentLength int64 // declared by the client, -1 when not
	received      int64 // reader goroutine only

	// handler goroutine only (http.ResponseController)
	readTimer, writeTimer *time.Timer

	// under c.mu
	sendWindow int64
	inflow     int64
	unacked    int64
	remoteDone bool
	localDone  bool
	aborted    error
}

// abort fails the stream's body and context; c.mu is held.
func (st *stream) abort(err error) {
	if st.aborted == nil {
		st.aborted = err
	}
	st.body.abort(err)
	st.cancel()
}

// setDeadline arms *tm to run fire at t (zero: disarms it; past: fires
// now); one timer per kind and stream, reset rather than remade.
func (st *stream) setDeadline(tm **time.Timer, t time.Time, fire func()) {
	if t.IsZero() {
		if *tm != nil {
			(*tm).Stop()
		}
		return
	}
	d := time.Until(t)
	switch {
	case d <= 0:
		if *tm != nil {
			(*tm).Stop()
		}
		fire()
	case *tm == nil:
		*tm = time.AfterFunc(d, fire)
	default:
		(*tm).Reset(d)
	}
}

// connectionHeaders are the fields RFC 9113 8.2.2 forbids in HTTP/2.
var connectionHeaders = map[string]bool{
	"connection": true, "keep-alive": true, "proxy-connection": true,
	"transfer-encoding": true, "upgrade": true,
}

// newStream builds the request of a HEADERS frame; an error is a stream
// error (PROTOCOL_ERROR).
func (c *conn) newStream(f *http2.MetaHeadersFrame) (*stream, error) {
	var method, path, scheme, authority string
	for _, hf := range f.PseudoFields() {
		switch hf.Name {
		case ":method":
			method = hf.Value
		case ":path":
			path = hf.Value
		case ":scheme":
			scheme = hf.Value
		case ":authority":
			authority = hf.Value
		default:
			return nil, errors.New("h2: unsupported pseudo-header " + hf.Name)
		}
	}
	if method == "" || method == "CONNECT" {
		return nil, errors.New("h2: missing :method or CONNECT")
	}
	if scheme == "" || path == "" || path[0] != '/' && !(path == "*" && method == "OPTIONS") {
		return nil, errors.New("h2: missing or bad :scheme or :path")
	}
	regular := f.RegularFields()
	header := make(http.Header, len(regular))
	var cookies []string
	for _, hf := range regular {
		if connectionHeaders[hf.Name] || hf.Name == "te" && hf.Value != "trailers" {
			return nil, errors.New("h2: connection-specific header " + hf.Name)
		}
		if hf.Name == "cookie" {
			cookies = append(cookies, hf.Value)
			continue
		}
		key := canonicalKey(hf.Name)
		header[key] = append(header[key], hf.Value)
	}
	if len(cookies) > 0 {
		header["Cookie"] = []string{strings.Join(cookies, "; ")}
	}
	u, err := url.ParseRequestURI(path)
	if err != nil {
		return nil, err
	}
	if authority == "" {
		authority = header.Get("Host")
	}
	cl := int64(-1)
	if v := header.Get("Content-Length"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, errors.New("h2: bad content-length")
		}
		cl = n
	}
	ctx, cancel := context.WithCancel(c.ctx)
	st := &stream{
		id: f.StreamID, c: c, cancel: cancel, contentLength: cl,
		sendWindow: c.peerInitialLocked(), inflow: int64(c.srv.initialWindow),
	}
	st.body = &pipe{st: st}
	st.body.cond.L = &st.body.mu
	req := &http.Request{
		Method: method, URL: u, Proto: "HTTP/2.0", ProtoMajor: 2,
		Header: header, Host: authority, RequestURI: path,
		RemoteAddr: c.nc.RemoteAddr().String(), ContentLength: cl,
	}
	if f.StreamEnded() {
		if cl > 0 {
			cancel()
			return nil, errors.New("h2: content-length without body")
		}
		req.Body = http.NoBody
		req.ContentLength = 0
		st.remoteDone = true
	} else {
		req.Body = st.body
	}
	if tv := header["Trailer"]; len(tv) > 0 {
		req.Trailer = make(http.Header)
		for _, v := range tv {
			for _, k := range strings.Split(v, ",") {
				if k = strings.TrimSpace(k); k != "" {
					req.Trailer[http.CanonicalHeaderKey(k)] = nil
				}
			}
		}
	}
	if c.tls != nil {
		cs := c.tls.ConnectionState()
		req.TLS = &cs
	}
	st.req = req.WithContext(ctx)
	st.body.req = st.req
	return st, nil
}

func (c *conn) peerInitialLocked() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peerInitial
}

// runHandler serves one stream; a panic resets the stream, never the server.
func (c *conn) runHandler(st *stream) {
	w := &responseWriter{c: c, st: st, header: make(http.Header), head: st.req.Method == http.MethodHead}
	defer c.handlerDone(st, w)
	c.h.ServeHTTP(w, st.req)
}

func (c *conn) handlerDone(st *stream, w *responseWriter) {
	if r := recover(); r != nil {
		if r != http.ErrAbortHandler {
			log.Printf("h2: panic serving stream %d: %v", st.id, r)
		}
		c.resetStream(st.id, http2.ErrCodeInternal)
	} else {
		w.finish()
	}
	if st.readTimer != nil {
		st.readTimer.Stop()
	}
	if st.writeTimer != nil { // after finish: its last flush is under the deadline too
		st.writeTimer.Stop()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	st.localDone = true
	if c.streams[st.id] == st {
		if st.remoteDone {
			delete(c.streams, st.id)
		} else if !c.closed {
			// The answer is complete; the rest of the request body is not
			// wanted (RFC 9113 8.1).
			c.fr.WriteRSTStream(st.id, http2.ErrCodeNo)
			c.closeStream(st, errClosed)
			c.kick()
		}
	}
	st.cancel()
	c.running--
	for len(c.waiting) > 0 {
		next := c.waiting[0]
		c.waiting[0] = nil
		c.waiting = c.waiting[1:]
		if next.aborted == nil {
			c.running++
			go c.runHandler(next)
			break
		}
	}
	if !c.activeLocked() {
		c.idleSince = time.Now()
		if c.draining {
			c.signalLocked(sigDrained)
		}
	}
}

var errBodyClosed = errors.New("h2: request body closed")

// pipe is a request body: the frame loop writes, the handler reads.
type pipe struct {
	st      *stream
	req     *http.Request
	mu      sync.Mutex
	cond    sync.Cond
	buf     []byte
	err     error
	trailer http.Header
}

// write appends data; false means nobody will read it.
func (p *pipe) write(data []byte) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return false
	}
	p.buf = append(p.buf, data...)
	p.cond.Signal()
	return true
}

func (p *pipe) closeWithTrailer(tr http.Header) {
	p.mu.Lock()
	if p.err == nil {
		p.err, p.trailer = io.EOF, tr
	}
	p.cond.Signal()
	p.mu.Unlock()
}

func (p *pipe) abort(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.cond.Signal()
	p.mu.Unlock()
}

// Read reads the request body; at its end the trailers are in
// Request.Trailer.
func (p *pipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	for len(p.buf) == 0 && p.err == nil {
		p.cond.Wait()
	}
	if len(p.buf) == 0 {
		err := p.err
		if err == io.EOF && p.trailer != nil {
			if p.req.Trailer == nil {
				p.req.Trailer = make(http.Header)
			}
			for k, v := range p.trailer {
				p.req.Trailer[k] = v
			}
			p.trailer = nil
		}
		p.mu.Unlock()
		return 0, err
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = p.buf[:0:0]
	}
	p.mu.Unlock()
	p.st.c.giveBackStream(p.st, int64(n))
	return n, nil
}

// Close drops what is buffered and what is still to come.
func (p *pipe) Close() error {
	p.mu.Lock()
	n := len(p.buf)
	p.buf = nil
	if p.err == nil {
		p.err = errBodyClosed
	}
	p.mu.Unlock()
	if n > 0 {
		p.st.c.giveBackStream(p.st, int64(n))
	}
	return nil
}
