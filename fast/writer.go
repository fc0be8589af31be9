// The response writer of the fasthttp engine.
//
// writer is the http.ResponseWriter the Application writes to. The headers
// core sets are kept in a list of the writer's own, or in its header map
// once code asks for the map (headers.go), and copied into fasthttp's
// response header when the status goes out. The map is pooled with the
// exchange and cleared per request, and reused only while no code outside
// core's own writes got it: core calls HandOutHeader (engine.HeaderReuser)
// before it hands the map to a handler, a hook or a net/http handler,
// which may keep it past the request, and the writer then gives that map
// up at the request's end and makes a fresh one, so that a late write into
// a kept map reaches no other request's response. The body is appended to
// fasthttp's response buffer, which fasthttp sends after the handler. As
// on net/http, a body without a Content-Type gets the type
// http.DetectContentType sniffs from its first write, 1xx codes other than
// 103 are ignored (fasthttp answers Expect: 100-continue itself) and writes
// after a HEAD request's status go nowhere. What fasthttp cannot do before
// the handler returns (Flush, Hijack, deadlines, full duplex) returns
// ErrNotSupported.

package fast

import (
	"bufio"
	"net"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/internal/engine"
)

var _ engine.HeaderReuser = (*writer)(nil)

type writer struct {
	x *exchange
	headers
	status    int
	wrote     bool // the status went out
	typed     bool // the response has a Content-Type (set, or sniffed)
	bodied    bool // a byte of body was written
	handedOut bool // h was handed out (HandOutHeader): not reused
}

// reset prepares the writer for the next request (at begin and at end): a
// map that was handed out is left to its keeper, any other is cleared.
func (w *writer) reset() {
	if w.handedOut {
		w.h = make(http.Header)
		w.handedOut = false
	} else if len(w.h) > 0 {
		clear(w.h)
	}
	w.dropList()
	w.mapped = false
	w.status = 0
	w.wrote = false
	w.typed = false
	w.bodied = false
	w.defaultType = false
}

// Header returns the header map, with the headers of the list moved in
// (headers.go).
func (w *writer) Header() http.Header {
	if !w.mapped {
		w.toMap()
	}
	return w.h
}

// HandOutHeader marks the header map as handed out: reset makes a fresh
// one instead of clearing it (see the file comment).
func (w *writer) HandOutHeader() { w.handedOut = true }

// WriteHeader sends the status and the headers set so far.
func (w *writer) WriteHeader(code int) {
	if w.wrote || w.x.ctx == nil {
		return
	}
	if code >= 100 && code < 200 {
		if code == http.StatusEarlyHints {
			w.earlyHints()
		}
		return
	}
	w.status = code
	w.wrote = true
	resp := &w.x.ctx.Response
	resp.SetStatusCode(code)
	w.typed = w.sendHeaders(&resp.Header)
}

// earlyHints sends a 103 with the Link headers set so far. fasthttp's
// EarlyHints sends the Links of its response header, so they are put
// there for the call and taken out again: the final response gets them
// from the header map, once, as on net/http.
func (w *writer) earlyHints() {
	resp := &w.x.ctx.Response
	for _, v := range w.HeaderValues("Link") {
		resp.Header.Add("Link", v)
	}
	_ = w.x.ctx.EarlyHints()
	resp.Header.Del("Link")
}

// sniff sets the Content-Type from the first bytes of the body, as
// net/http does, when the handler set none.
func (w *writer) sniff(p []byte) {
	w.typed = true
	w.x.ctx.Response.Header.SetContentType(http.DetectContentType(p))
}

func (w *writer) Write(p []byte) (int, error) {
	if w.x.ctx == nil {
		return 0, http.ErrHandlerTimeout
	}
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if len(p) > 0 {
		if !w.typed {
			w.sniff(p)
		}
		w.bodied = true
	}
	w.x.ctx.Response.AppendBody(p)
	return len(p), nil
}

func (w *writer) WriteString(s string) (int, error) {
	if w.x.ctx == nil {
		return 0, http.ErrHandlerTimeout
	}
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if len(s) > 0 {
		if !w.typed {
			// DetectContentType only reads its argument: a view of s, not a copy.
			w.sniff(view(s[:min(len(s), 512)]))
		}
		w.bodied = true
	}
	w.x.ctx.Response.AppendBodyString(s)
	return len(s), nil
}

// bodyAllowed reports whether a response of status may have a body.
func bodyAllowed(status int) bool {
	return status != http.StatusNoContent && status != http.StatusNotModified
}

// FlushError sends the status; the body waits for the handler's end.
func (w *writer) FlushError() error {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return ErrNotSupported
}

func (w *writer) Hijack() (net.Conn, *bufio.ReadWriter, error) { return nil, nil, ErrNotSupported }
func (w *writer) SetReadDeadline(time.Time) error              { return ErrNotSupported }
func (w *writer) SetWriteDeadline(time.Time) error             { return ErrNotSupported }
func (w *writer) EnableFullDuplex() error                      { return ErrNotSupported }
