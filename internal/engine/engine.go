// Package engine is the seam between Vireo's request state and the server
// below it.
//
// An engine accepts connections, parses requests and hands each one to the
// Application as an Exchange: what the request state reads of the request
// (method, path, raw query, headers, body, peer address, TLS) and the writer
// its response goes to (status, headers, body; Flush and Hijack through
// http.ResponseController's optional methods). net/http is the default
// engine, implemented in core over *http.Request and the server's
// http.ResponseWriter; the fasthttp engine (module github.com/vireo-go/vireo/fast)
// is the second. The package is internal: engines are part of Vireo, an
// application only chooses one (core.WithEngine).
//
// Strings an Exchange returns must stay valid, unchanged, after the request:
// a handler may keep them (a parameter in a goroutine, a header in a log
// line). An engine whose parser reuses its buffers (fasthttp) copies them.
package engine

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
)

// Exchange is one request and its response as the engine delivers them.
// It is used by one goroutine at a time, the request's, and only until the
// Handler it was given to returns.
type Exchange interface {
	// Method returns the request method.
	Method() string
	// Path returns the percent-decoded request path.
	Path() string
	// RawPath returns the path as the client escaped it when that differs
	// from the default encoding of Path, else "" (url.URL's RawPath).
	RawPath() string
	// RawQuery returns the query string, without the '?'.
	RawQuery() string
	// Header returns the first value of the named request header, or "".
	Header(name string) string
	// HeaderValues returns every value of the named request header.
	HeaderValues(name string) []string
	// Host returns the request's host (the Host header or the URI's).
	Host() string
	// Body returns the request body, or nil when the request has none.
	Body() io.ReadCloser
	// ContentLength returns the announced body length, -1 when unknown.
	ContentLength() int64
	// RemoteAddr returns the peer's address, host:port.
	RemoteAddr() string
	// TLS returns the connection's TLS state, nil for plain connections.
	TLS() *tls.ConnectionState
	// Request returns the request as net/http's type: the server's own on
	// net/http, one built on the first call on other engines.
	Request() *http.Request
	// Context returns the request's context.Context, the one Request's
	// request carries, done once the request is over: the server's on
	// net/http; other engines make it on the first call of Context or
	// Request, without the rest of the request.
	Context() context.Context
	// Writer returns the response writer. Besides http.ResponseWriter it
	// has the methods http.ResponseController looks for (FlushError,
	// Hijack, SetReadDeadline, SetWriteDeadline, EnableFullDuplex) the
	// engine supports; the others return http.ErrNotSupported or an
	// error of the engine's.
	Writer() http.ResponseWriter
	// Kept returns where core keeps the request state it served the
	// exchange with, for the exchange's next request: an engine that
	// pools its exchanges saves core a pool round trip of its own per
	// request; such an exchange's Writer is the same for every request.
	// nil: core pools its states itself (net/http).
	Kept() *any
}

// HeaderReuser is implemented by a writer (Exchange.Writer) that reuses
// its header map for the next request it serves, as the fasthttp engine's
// does (it is pooled with the exchange); the writers of net/http make a map
// per request and need nothing. Code outside core's own writes that gets
// the map (Context.ResponseHeader, the Header of the writer
// Context.ResponseWriter returns, and so of every net/http handler and
// middleware wrapper) may keep it past the request, and a write into a map
// that serves the next request would reach another client's response.
type HeaderReuser interface {
	// HandOutHeader records that the map Header returns was handed to such
	// code: at the end of the request the writer gives the map up to it and
	// takes a fresh one for the next request, instead of clearing it for
	// reuse. Core calls it, while the request runs, before it hands the map
	// out; a request that never hands it out keeps the reuse, and its cost
	// of nothing.
	HandOutHeader()
}

// HeaderStore is implemented by a writer (Exchange.Writer) that can keep
// the response headers core sets outside its header map, as the fasthttp
// engine's does (for the map's insertions, lookup, iteration and clearing
// per request). Each method does to the headers what its comment says it
// does to a header map h; keys are canonical, and a slice of values is
// shared: the store never writes into it. The writer's Header returns the
// map with every header the store kept put in, and the store works on the
// map from then on. Core uses the store while its own writer is the one
// in front of the engine's, or while the writer in front is a store that
// forwards to it (the writer handle of Context.ResponseWriter, and
// Compress's writer around that), so that the headers change only through
// the store or through Header.
type HeaderStore interface {
	// HeaderValues returns h[key].
	HeaderValues(key string) []string
	// SetHeader does h[key] = []string{value}, without the slice.
	SetHeader(key, value string)
	// SetHeaderValues does h[key] = values, or delete(h, key) for none.
	SetHeaderValues(key string, values []string)
	// AddHeader does h[key] = append(h[key], value).
	AddHeader(key, value string)
	// SetHeaderIfUnset does h[key] = values unless h has key (even with
	// no value).
	SetHeaderIfUnset(key string, values []string)
}

// HeaderMap is the HeaderStore of a plain header map: core's for net/http's
// writers and any wrapper in front of the engine's, and an engine store's
// own once it has moved its headers into its map.
type HeaderMap http.Header

func (h HeaderMap) HeaderValues(key string) []string { return h[key] }
func (h HeaderMap) SetHeader(key, value string)      { h[key] = []string{value} }
func (h HeaderMap) AddHeader(key, value string)      { h[key] = append(h[key], value) }

func (h HeaderMap) SetHeaderValues(key string, values []string) {
	if len(values) == 0 {
		delete(h, key)
		return
	}
	h[key] = values
}

func (h HeaderMap) SetHeaderIfUnset(key string, values []string) {
	if _, ok := h[key]; !ok {
		h[key] = values
	}
}

// StoreOf returns the HeaderStore of w: w itself when it is one (a store
// that forwards, as the writer handle of Context.ResponseWriter does),
// else the store of its header map.
func StoreOf(w http.ResponseWriter) HeaderStore {
	if hs, ok := w.(HeaderStore); ok {
		return hs
	}
	return HeaderMap(w.Header())
}

// Handler serves one Exchange; the Application's.
type Handler func(x Exchange)

// Config is what a server is made from: the http.Server the application's
// defaults and configure funcs produced (Handler unset), and the
// application's body limit. An engine honours the fields it can and
// refuses, with an error from NewServer, a setting it cannot serve
// (HTTP/2, h2c).
type Config struct {
	Server    *http.Server
	BodyLimit int64 // 0: none
}

// Engine makes servers.
type Engine interface {
	// Name names the engine in errors and the startup line ("net/http",
	// "fasthttp").
	Name() string
	// NewServer returns a server that serves h as cfg says, or the reason
	// it cannot.
	NewServer(h Handler, cfg Config) (Server, error)
}

// Server serves connections until it is shut down.
type Server interface {
	// Serve accepts connections on ln until Shutdown; it then returns
	// http.ErrServerClosed.
	Serve(ln net.Listener) error
	// Shutdown stops accepting, waits for the requests in progress until
	// ctx is done and closes the connections.
	Shutdown(ctx context.Context) error
}
