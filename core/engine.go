// Engines.
//
// The request state reads its request through one interface,
// engine.Exchange (method, path, raw query, headers, body, peer, TLS), and
// writes its response to the exchange's http.ResponseWriter, so that an
// engine other than net/http can serve the same Context, middleware and
// applications. net/http is the default: stdExchange reads the server's
// *http.Request, and the state embeds one, so the default engine costs no
// allocation. Another engine (WithEngine) builds its servers from the same
// http.Server configuration Listen and Serve make, and hands each request to
// serveExchange.
//
// *http.Request on other engines. A Context method that needs net/http's
// request (Request, forms, WrapHandler, Mount, ServeFile) gets it
// from req, which asks the exchange to build it on its first call of the
// request and then bounds its body as reset bounds the server's on
// net/http; a handler that never asks pays nothing. SetRequest switches the
// reads to the request it is given, whatever the engine, as on net/http.
// Request headers, cookies included (RequestCookie, cookie.go), are read
// through the exchange and never need it.

package core

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/url"

	"github.com/vireo-go/vireo/internal/engine"
)

// Engine is the server below an Application: it accepts connections,
// parses requests and hands them to the Application. net/http is the
// default; github.com/vireo-go/vireo/fast provides the fasthttp engine.
// Engines are Vireo's own: the types of the interface's methods are in an
// internal package, so an application chooses an engine and does not
// write one.
type Engine = engine.Engine

// WithEngine makes the application serve on e (Listen, ListenTLS, Serve)
// instead of net/http. The Application stays an http.Handler either way.
// Listen's configure funcs still get the http.Server the engine is built
// from; an engine refuses, at Listen, a setting it cannot serve.
func WithEngine(e Engine) Option {
	return func(app *Application) {
		if e == nil {
			app.recordError("", "", errors.New("WithEngine: nil Engine"))
			return
		}
		app.engine = e
	}
}

// serveExchange serves a request of an engine other than net/http; it is
// ServeHTTP for an engine.Exchange.
func (app *Application) serveExchange(x engine.Exchange) {
	if !app.serving() && !app.prepare(x.Writer()) { // ready, the writer asked for only when needed
		return
	}
	// The state that served the exchange's last request, if the engine
	// keeps one (engine.Exchange.Kept); done puts it back.
	var c *state
	kept := x.Kept()
	if kept != nil {
		c, _ = (*kept).(*state)
		*kept = nil
	}
	same := c != nil && c.app == app // c served x's last request
	if !same {
		c = app.pool.Get().(*state)
	}
	c.kept = kept
	c.resetExchange(x, same)
	app.run(c)
}

// resetExchange is reset for a request of another engine: the request is
// read from x, and its *http.Request is built by req when asked for. same
// says that c served x's last request, whose writer's store c still has.
func (c *state) resetExchange(x engine.Exchange, same bool) {
	w := x.Writer()
	c.writer.reset(w)
	if !same {
		c.keptStore, _ = w.(engine.HeaderStore)
		c.keptSW, _ = w.(io.StringWriter)
	}
	c.writer.store, c.writer.sw = c.keptStore, c.keptSW
	c.writer.rate = c.app.writeRate
	c.out = &c.writer
	c.x = x
	c.request = nil
	c.index = -1
	c.own()
	if x.ContentLength() != 0 {
		c.bodyLimit, c.readRate = c.app.bodyLimit, c.app.readRate
	}
}

// buildRequest makes c.request from the exchange (see the file comment).
func (c *state) buildRequest() {
	r := c.x.Request()
	c.request = r
	if r.Body != nil && r.Body != http.NoBody {
		c.limitBody()
	}
}

// parseQuery parses a raw query as url.URL's Query does, ignoring
// malformed pairs.
func parseQuery(raw string) url.Values {
	v, _ := url.ParseQuery(raw)
	return v
}

// stdExchange is the net/http engine's exchange: the server's request (or
// the one SetRequest gave) and writer.
type stdExchange struct {
	r *http.Request
	w http.ResponseWriter
}

func (x *stdExchange) Method() string              { return x.r.Method }
func (x *stdExchange) Path() string                { return x.r.URL.Path }
func (x *stdExchange) RawPath() string             { return x.r.URL.RawPath }
func (x *stdExchange) RawQuery() string            { return x.r.URL.RawQuery }
func (x *stdExchange) ContentLength() int64        { return x.r.ContentLength }
func (x *stdExchange) RemoteAddr() string          { return x.r.RemoteAddr }
func (x *stdExchange) TLS() *tls.ConnectionState   { return x.r.TLS }
func (x *stdExchange) Host() string                { return x.r.Host }
func (x *stdExchange) Request() *http.Request      { return x.r }
func (x *stdExchange) Context() context.Context    { return x.r.Context() }
func (x *stdExchange) Writer() http.ResponseWriter { return x.w }
func (x *stdExchange) Kept() *any                  { return nil }

// Header and HeaderValues are http.Header's Get and Values with
// canonicalKey's shorter loop in place of textproto's.
func (x *stdExchange) Header(name string) string {
	if vs := x.r.Header[canonicalKey(name)]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func (x *stdExchange) HeaderValues(name string) []string { return x.r.Header[canonicalKey(name)] }

func (x *stdExchange) Body() io.ReadCloser {
	if b := x.r.Body; b != nil && b != http.NoBody {
		return b
	}
	return nil
}
