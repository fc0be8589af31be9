// Package fast is Vireo's fasthttp engine: the same Application, Context,
// middleware and applications served by github.com/valyala/fasthttp
// instead of net/http.
//
//	app := vireo.New(vireo.WithEngine(fast.Engine()))
//	app.Get("/", handler)
//	app.Listen(":8080")
//
// The engine is built from the http.Server that Listen and Serve make
// (the application's defaults, then the configure funcs), so one
// configuration serves both engines:
//
//   - ReadHeaderTimeout and ReadTimeout: fasthttp reads a whole request,
//     body included, before the handler runs, under one read timeout; it
//     is ReadTimeout when set, else ReadHeaderTimeout plus DefaultBodyTime.
//     A request not read in time gets 408 Request Timeout.
//   - WriteTimeout: fasthttp writes the buffered response after the
//     handler; it is WriteTimeout when set, else DefaultWriteTimeout.
//   - IdleTimeout as on net/http (the read timeout when zero).
//   - The engine keeps these timeouts itself, on a heartbeat, instead of
//     moving the connection's deadlines for every request (timeouts.go):
//     a connection is cut between its timeout and its timeout plus two
//     ticks, a tick being a quarter of the shortest timeout, between
//     10 ms and one second.
//   - MaxHeaderBytes: fasthttp's read buffer, which bounds the request
//     line and headers; a larger request gets 431 as on net/http. It is
//     allocated per connection, so it is capped at MaxHeaderBuffer.
//   - The body limit (WithBodyLimit, or MaxBodySize here): fasthttp holds
//     a request body in memory; a larger one gets 413 before the handler,
//     and a request announcing one with Expect: 100-continue gets the 413
//     instead of the 100. A route's BodyLimit below it applies when the
//     handler reads the body, which fasthttp has received by then.
//   - ErrorLog receives fasthttp's errors.
//   - A Server header is sent only when set, by a handler or for every
//     response by the ServerName option (fasthttp's Server.Name).
//
// What the engine cannot do, it refuses with an error from Listen and
// Serve, or from the call that asks for it:
//
//   - HTTP/2 and h2c (http.Server.Protocols asking for them, TLSNextProto):
//     refused at Listen. ListenTLS offers HTTP/1.1 only on this engine.
//   - ConnState, ConnContext and BaseContext: refused at Listen.
//   - Streaming: fasthttp sends a response after the handler returns, so
//     Flush (and http.ResponseController's Flush, SetWriteDeadline,
//     SetReadDeadline, EnableFullDuplex) returns ErrNotSupported, as does
//     Hijack (websockets need net/http).
//
// Request data handed to handlers (path, parameters, query, headers,
// cookies, the body, the *http.Request of Context.Request) is copied out of
// fasthttp's buffers, which it reuses for the next request on the
// connection, into memory that is never reused (see arena.go): a value
// kept past its request keeps its value. *http.Request and the
// http.ResponseWriter of Context.Request and Context.ResponseWriter are
// built on first use (request.go).
package fast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/engine"
	"github.com/vireo-go/vireo/internal/heartbeat"
)

// Defaults of the settings net/http has no equivalent for.
const (
	// DefaultBodyTime is added to ReadHeaderTimeout to make fasthttp's
	// ReadTimeout, which bounds a request's headers and its body together.
	DefaultBodyTime = 60 * time.Second
	// DefaultWriteTimeout bounds the writing of a response when the
	// http.Server's WriteTimeout is zero.
	DefaultWriteTimeout = 60 * time.Second
	// MaxHeaderBuffer caps the per-connection read buffer made from
	// MaxHeaderBytes.
	MaxHeaderBuffer = 64 << 10
)

// ErrNotSupported is returned by what net/http does and this engine
// cannot: Flush, Hijack, full duplex, read and write deadlines.
var ErrNotSupported = fmt.Errorf("vireo/fast: not supported by the fasthttp engine: %w", http.ErrNotSupported)

// Option configures the engine.
type Option func(*fastEngine)

// MaxBodySize sets the largest request body fasthttp reads into memory,
// in place of the application's body limit (WithBodyLimit), for routes
// whose BodyLimit is larger than the application's. 0 keeps the body
// limit; a negative size panics.
func MaxBodySize(n int) Option {
	if n < 0 {
		panic(fmt.Sprintf("vireo/fast: MaxBodySize: negative size %d", n))
	}
	return func(e *fastEngine) { e.maxBody = n }
}

// Concurrency sets the most requests fasthttp serves at once (its
// Concurrency; default fasthttp's, 256 * 1024).
func Concurrency(n int) Option {
	return func(e *fastEngine) { e.concurrency = n }
}

// ServerName makes the engine send a Server header of name with every
// response, as fasthttp's Server.Name does: one line written per
// response, without a header operation per request. A handler that sets
// Server replaces it. A name that is not a valid header value (a control
// character, or empty) makes Listen and Serve fail.
func ServerName(name string) Option {
	return func(e *fastEngine) {
		if !validFieldValue(name) || name == "" {
			e.err = fmt.Errorf("vireo/fast: ServerName: %q is not a valid Server header value", name)
			return
		}
		e.name = name
	}
}

// validFieldValue reports whether v has no control character other than
// horizontal tab (RFC 9110's field-value).
func validFieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// Engine returns the fasthttp engine, for core.WithEngine (vireo.WithEngine).
func Engine(opts ...Option) core.Engine {
	e := &fastEngine{}
	for _, opt := range opts {
		opt(e)
	}
	return e
}

type fastEngine struct {
	maxBody     int
	concurrency int
	name        string // the Server header's value, or none
	err         error  // an option's
}

func (e *fastEngine) Name() string { return "fasthttp" }

// NewServer makes the fasthttp server of cfg; see the package comment.
func (e *fastEngine) NewServer(h engine.Handler, cfg engine.Config) (engine.Server, error) {
	if e.err != nil {
		return nil, e.err
	}
	hs := cfg.Server
	if err := refuse(hs); err != nil {
		return nil, err
	}
	s := &server{h: h}
	s.pool.New = func() any { return newExchange() }
	read := hs.ReadTimeout
	if read == 0 {
		read = hs.ReadHeaderTimeout + DefaultBodyTime
	}
	write := hs.WriteTimeout
	if write == 0 {
		write = DefaultWriteTimeout
	}
	buf := hs.MaxHeaderBytes
	if buf <= 0 {
		buf = http.DefaultMaxHeaderBytes
	}
	buf = min(buf, MaxHeaderBuffer)
	body := e.maxBody
	if body == 0 {
		body = math.MaxInt32 // no limit; fasthttp's 0 would mean 4 MiB
		if cfg.BodyLimit > 0 && cfg.BodyLimit < math.MaxInt32 {
			body = int(cfg.BodyLimit)
		}
	}
	idle := hs.IdleTimeout
	if idle == 0 {
		idle = read // as net/http and fasthttp do
	}
	s.timeouts = newTimeouts(read, write, idle)
	// fasthttp gets no timeouts: it would move the connection's deadlines
	// for every request; the heartbeat keeps them instead (timeouts.go).
	s.srv = &fasthttp.Server{
		Handler:                      s.serve,
		ErrorHandler:                 errorAnswer,
		ExpectHandler:                expectAnswer(body),
		ConnState:                    s.connState(),
		ReadBufferSize:               buf,
		MaxRequestBodySize:           body,
		Concurrency:                  e.concurrency,
		DisablePreParseMultipartForm: true,
		Name:                         e.name,
		NoDefaultServerHeader:        e.name == "",
		NoDefaultContentType:         true,
		CloseOnShutdown:              true,
		TLSConfig:                    hs.TLSConfig,
	}
	if hs.ErrorLog != nil {
		s.srv.Logger = hs.ErrorLog
	}
	return s, nil
}

// refuse returns why the engine cannot serve hs, or nil.
func refuse(hs *http.Server) error {
	switch {
	case hs.Protocols != nil && (hs.Protocols.HTTP2() || hs.Protocols.UnencryptedHTTP2()):
		return errors.New("the fasthttp engine serves HTTP/1.1 only: Protocols asks for HTTP/2")
	case len(hs.TLSNextProto) > 0:
		return errors.New("the fasthttp engine serves HTTP/1.1 only: TLSNextProto is set")
	case hs.TLSConfig != nil && offersH2(hs.TLSConfig.NextProtos):
		return errors.New("the fasthttp engine serves HTTP/1.1 only: the TLS config offers h2")
	case hs.ConnState != nil, hs.ConnContext != nil, hs.BaseContext != nil:
		return errors.New("the fasthttp engine does not support ConnState, ConnContext or BaseContext")
	}
	return nil
}

func offersH2(protos []string) bool {
	for _, p := range protos {
		if p == "h2" || p == "h2c" {
			return true
		}
	}
	return false
}

// errorAnswer answers a request fasthttp could not parse as net/http
// does: 431 for headers over the limit, 413 for a body over the limit,
// 408 for a timeout, 501 for a Transfer-Encoding other than chunked
// (framing.go), else 400; the connection closes after it.
func errorAnswer(ctx *fasthttp.RequestCtx, err error) {
	var small *fasthttp.ErrSmallBuffer
	var ne net.Error
	switch {
	case errors.As(err, &small):
		ctx.Error("431 Request Header Fields Too Large", http.StatusRequestHeaderFieldsTooLarge)
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		ctx.Error("413 Request Entity Too Large", http.StatusRequestEntityTooLarge)
	case errors.As(err, &ne) && ne.Timeout():
		ctx.Error("408 Request Timeout", http.StatusRequestTimeout)
	case unsupportedTE(err):
		ctx.Error("Unsupported transfer encoding", http.StatusNotImplemented)
	default:
		ctx.Error("400 Bad Request", http.StatusBadRequest)
	}
	ctx.SetConnectionClose()
}

// expectAnswer answers Expect: 100-continue: 413 (and no 100, so the
// client does not send the body) when the announced body is over limit,
// as the Application answers on net/http, else 100.
func expectAnswer(limit int) func(*fasthttp.RequestCtx) int {
	return func(ctx *fasthttp.RequestCtx) int {
		if ctx.Request.Header.ContentLength() > limit {
			return http.StatusRequestEntityTooLarge
		}
		return http.StatusContinue
	}
}

// server is one fasthttp server serving an Application.
type server struct {
	srv      *fasthttp.Server
	h        engine.Handler
	pool     sync.Pool // *exchange
	timeouts *timeouts
	closed   atomic.Bool
}

// Serve serves ln until Shutdown, then returns http.ErrServerClosed.
func (s *server) Serve(ln net.Listener) error {
	ln, done := s.timeouts.serve(ln)
	defer done()
	err := s.srv.Serve(ln)
	if s.closed.Load() {
		return http.ErrServerClosed
	}
	return err
}

// Shutdown stops accepting and waits for the requests in progress.
func (s *server) Shutdown(ctx context.Context) error {
	s.closed.Store(true)
	return s.srv.ShutdownWithContext(ctx)
}

// serve is the fasthttp handler: one request through the Application, on
// the exchange of its connection (conn.go).
func (s *server) serve(ctx *fasthttp.RequestCtx) {
	ln := linkOf(ctx.Conn())
	var x *exchange
	if ln != nil {
		if x = ln.x; x == nil {
			x = s.pool.Get().(*exchange)
			ln.x = x
		}
	} else {
		x = s.pool.Get().(*exchange) // a connection of another listener
	}
	if err := x.begin(ctx); err != nil {
		s.putBack(x, ln)
		ctx.Error("400 Bad Request: "+err.Error(), http.StatusBadRequest)
		ctx.SetConnectionClose()
		return
	}
	if ln != nil {
		ln.Set(heartbeat.None, 0) // the handler runs as long as it needs
	}
	defer s.finish(x, ln)
	s.h(x)
}

// putBack ends x's request and returns x to the pool unless its
// connection keeps it.
func (s *server) putBack(x *exchange, ln *link) {
	x.end()
	if ln == nil {
		s.pool.Put(x)
	}
}

// finish ends x's request, also when the Application aborted it with
// http.ErrAbortHandler (the client gets no well-formed end: the
// connection is closed, as net/http does).
func (s *server) finish(x *exchange, ln *link) {
	rec := recover()
	if ln != nil {
		ln.Set(heartbeat.Write, s.timeouts.write) // fasthttp writes the response next
	}
	ctx := x.ctx
	if rec == nil {
		if !x.w.wrote {
			x.w.WriteHeader(http.StatusOK) // as net/http: the headers of a response with no body
		}
		x.w.finishContentType()
	}
	s.putBack(x, ln)
	if rec != nil {
		if rec != http.ErrAbortHandler && s.srv.Logger != nil {
			s.srv.Logger.Printf("vireo/fast: panic serving a request: %v", rec)
		}
		ctx.Response.Reset()
		ctx.SetConnectionClose()
		_ = ctx.Conn().Close()
	}
}
