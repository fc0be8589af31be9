// The fasthttp request as the Application reads it.
//
// An exchange is pooled by the server and serves one request at a time. At
// begin it copies the request line's method (a constant for the standard
// methods) and URI into its arena and splits the URI into path and
// query without another copy; the path is decoded only when it has a
// percent sign. The host, headers, the peer address, the TLS state and the
// body are read when the Application asks, each copied out of fasthttp's buffers
// (arena.go), so nothing a handler keeps changes when fasthttp reuses
// them. The *http.Request is built on the first Request call (request.go).

package fast

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/valyala/fasthttp"
)

type exchange struct {
	ctx   *fasthttp.RequestCtx
	arena arena
	w     writer

	method   string
	uri      string // the request-target as sent
	path     string // decoded
	rawPath  string // url.URL's RawPath: "" unless the escaping is not the default
	rawQuery string
	host     string // copied on first use
	remote   string // built on first use

	kept   any             // the Application's request state, kept for the next request (Kept)
	req    *http.Request   // built on first use (request.go)
	rctx   context.Context // the request's context, made on first use (Context)
	cancel context.CancelFunc
}

func newExchange() *exchange {
	x := &exchange{}
	x.w.x = x
	x.w.h = make(http.Header)
	return x
}

var errBadURI = errors.New("malformed request-target")

// begin reads what every request needs from ctx.
func (x *exchange) begin(ctx *fasthttp.RequestCtx) error {
	x.ctx = ctx               // x.w was reset by end (or newExchange)
	x.host, x.remote = "", "" // made on first use
	h := &ctx.Request.Header
	x.method = method(&x.arena, h.Method())
	x.uri = x.arena.string(h.RequestURI())
	uri := x.uri
	if uri == "" || uri[0] != '/' {
		return x.absoluteURI(uri)
	}
	p, q, _ := strings.Cut(uri, "?")
	x.rawQuery = q
	if strings.IndexByte(p, '%') < 0 {
		x.path, x.rawPath = p, ""
		return nil
	}
	d, err := url.PathUnescape(p)
	if err != nil {
		return errBadURI
	}
	x.path, x.rawPath = d, p
	if (&url.URL{Path: d}).EscapedPath() == p {
		x.rawPath = ""
	}
	return nil
}

// absoluteURI handles the request-targets that are not a path: the
// absolute form (of proxies) and "*" (OPTIONS).
func (x *exchange) absoluteURI(uri string) error {
	if uri == "*" && x.method == http.MethodOptions {
		x.path, x.rawPath, x.rawQuery = "*", "", ""
		return nil
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil || u.Path == "" && u.Host == "" {
		return errBadURI
	}
	x.path, x.rawPath, x.rawQuery = u.Path, u.RawPath, u.RawQuery
	if x.path == "" {
		x.path = "/"
	}
	return nil
}

// end forgets the request: it is over, and fasthttp reuses ctx.
func (x *exchange) end() {
	if x.cancel != nil {
		x.cancel()
		x.cancel = nil
	}
	x.ctx = nil
	x.req = nil
	x.rctx = nil
	// The strings are left: begin sets each before the next request reads
	// it, and they keep alive no more than the arena's blocks.
	x.w.reset()
}

// method returns m as a string: a constant for the standard methods.
func method(a *arena, m []byte) string {
	switch string(m) { // no allocation: the compiler compares in place
	case http.MethodGet:
		return http.MethodGet
	case http.MethodPost:
		return http.MethodPost
	case http.MethodHead:
		return http.MethodHead
	case http.MethodPut:
		return http.MethodPut
	case http.MethodDelete:
		return http.MethodDelete
	case http.MethodPatch:
		return http.MethodPatch
	case http.MethodOptions:
		return http.MethodOptions
	}
	return a.string(m)
}

func (x *exchange) Method() string   { return x.method }
func (x *exchange) Path() string     { return x.path }
func (x *exchange) RawPath() string  { return x.rawPath }
func (x *exchange) RawQuery() string { return x.rawQuery }

// Host returns the request's host, copied on the first call: most
// requests never ask.
func (x *exchange) Host() string {
	if x.host == "" && x.ctx != nil {
		x.host = x.arena.string(x.ctx.Request.Header.Host())
	}
	return x.host
}

func (x *exchange) Header(name string) string {
	return x.arena.string(x.ctx.Request.Header.Peek(name))
}

func (x *exchange) HeaderValues(name string) []string {
	all := x.ctx.Request.Header.PeekAll(name)
	if len(all) == 0 {
		return nil
	}
	vs := x.arena.strings(len(all))
	for i, v := range all {
		vs[i] = x.arena.string(v)
	}
	return vs
}

// ContentLength returns the body's length: fasthttp has read all of it,
// as many bytes as a Content-Length said, none without Content-Length or
// Transfer-Encoding (-2), and a chunked body (-1) whole.
func (x *exchange) ContentLength() int64 {
	switch n := x.ctx.Request.Header.ContentLength(); {
	case n >= 0:
		return int64(n)
	case n == -2:
		return 0
	}
	return int64(len(x.ctx.Request.Body()))
}

// Body returns a reader of a copy of the body, or nil without one.
func (x *exchange) Body() io.ReadCloser {
	b := x.ctx.Request.Body()
	if len(b) == 0 {
		return nil
	}
	return io.NopCloser(bytes.NewReader(bytes.Clone(b)))
}

func (x *exchange) RemoteAddr() string {
	if x.remote == "" {
		x.remote = x.ctx.RemoteAddr().String()
	}
	return x.remote
}

func (x *exchange) TLS() *tls.ConnectionState {
	if !x.ctx.IsTLS() {
		return nil
	}
	return x.ctx.TLSConnectionState()
}

func (x *exchange) Writer() http.ResponseWriter { return &x.w }

// Kept returns where the Application keeps its request state with the
// exchange, which is pooled: one pool round trip per request instead of
// two.
func (x *exchange) Kept() *any { return &x.kept }

// Context returns the request's context, made on the first call (of
// Context or Request) and cancelled when the request ends (end).
func (x *exchange) Context() context.Context {
	if x.rctx == nil {
		x.rctx, x.cancel = context.WithCancel(context.Background())
	}
	return x.rctx
}
