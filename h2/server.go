// Package h2 is Vireo's own HTTP/2 server, an option beside net/http's
// (which stays the default), built for many concurrent small streams on
// golang.org/x/net/http2's Framer and hpack.
//
// One goroutine per connection reads frames and dispatches them; each
// request runs its handler in a goroutine of its own (handlers block, on
// request bodies and on flow control, so a worker pool would have to grow
// to the stream limit anyway). Writes do not go through a channel: a
// handler encodes its frames under the connection's lock into a shared
// output buffer, and one flusher goroutine per connection swaps that buffer
// out and writes it, so the frames of all streams that answered while the
// previous write was in the kernel leave in one syscall. A small answer
// (HEADERS and DATA with END_STREAM) costs one lock and at most one wakeup.
//
// A Vireo application chooses this path with the option
// vireo.WithHTTP2(h2.MustNew()): ListenTLS then hands every connection
// that negotiated "h2" to it. Server.ConfigureServer does the same for a
// plain *http.Server; it also takes the cleartext connections that start
// with the HTTP/2 preface (prior-knowledge h2c) when the server's
// Protocols enable UnencryptedHTTP2.
//
// Connection timeouts (each an option; net/http's HTTP/2 and Kestrel
// beside them):
//
//   - Handshake, 10 s: within it of the connection's start (after TLS) the
//     client must have sent its preface and first SETTINGS (else the
//     connection is closed) and acknowledged the server's SETTINGS, which
//     are sent at once (else GOAWAY SETTINGS_TIMEOUT). It judges what has
//     arrived: input not yet parsed is parsed first, and with none the
//     server looks at the socket once more (an eighth of the timeout), so
//     a server slowed down does not cut a prompt client. net/http waits
//     10 s for the preface and 2 s for the first SETTINGS and does not
//     time the ACK.
//   - Idle, the http.Server's IdleTimeout (Vireo's 120 s), else 120 s: a
//     connection with no stream open that long gets GOAWAY NO_ERROR and
//     is closed. net/http takes the same http.Server field; Kestrel's
//     KeepAliveTimeout is 130 s.
//   - Frame read, 10 s: a frame (a header block with its CONTINUATION
//     frames), once its first byte has arrived, must arrive whole within
//     it, so a client that trickles a frame (slowloris) holds the
//     connection 10 s at most; 10 s is core's ReadHeaderTimeout, and a
//     16 KiB frame in 10 s is 1.6 KB/s. net/http has no bound of this
//     kind (only the idle timer, which a half-sent frame on an otherwise
//     idle connection does meet); Kestrel bounds request headers by
//     RequestHeadersTimeout, 30 s.
//
// Per stream, http.ResponseController's SetReadDeadline (the body's reads
// fail with os.ErrDeadlineExceeded) and SetWriteDeadline (the stream is
// reset when its answer is not complete by then) work as with net/http's
// HTTP/2, so core's data-rate limits (WithMinRequestBodyRate,
// WithMinResponseRate) bound a trickling or non-reading client here too.
//
// Graceful shutdown: when the http.Server shuts down (Vireo's Shutdown, or
// the signal path of Listen and ListenTLS), every connection sends GOAWAY
// NO_ERROR with the last stream it accepted, refuses later streams with
// RST_STREAM REFUSED_STREAM, lets the open ones finish and then closes;
// http.Server.Shutdown returns when the last one has (or its context
// ends, leaving the streams running, as net/http's HTTP/2 does), and
// http.Server.Close ends them at once.
//
// What it does not do: server push (SETTINGS_ENABLE_PUSH 0, Pusher
// returns http.ErrNotSupported), the h2c upgrade from HTTP/1.1 (removed by
// RFC 9113; net/http does not do it either), stream priorities (PRIORITY
// frames and the HEADERS priority fields are parsed and ignored, as RFC
// 9113 deprecates the scheme; a stream that depends on itself is reset)
// and keep-alive PINGs of its own (Kestrel's are off by default too).
package h2

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Defaults of the connection timeouts (see the package documentation for
// their reasons).
const (
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultIdleTimeout      = 120 * time.Second
	DefaultFrameTimeout     = 10 * time.Second
)

// Server holds the settings of Vireo's HTTP/2 serving path; it serves any
// number of connections at once.
type Server struct {
	maxStreams       uint32 // SETTINGS_MAX_CONCURRENT_STREAMS, also the bound of running handlers
	initialWindow    int32  // SETTINGS_INITIAL_WINDOW_SIZE, and the connection receive window
	maxFrameSize     uint32 // SETTINGS_MAX_FRAME_SIZE we read
	maxHeaderList    uint32 // SETTINGS_MAX_HEADER_LIST_SIZE
	maxControl       int    // queued control frames (PING/SETTINGS acks, RST_STREAM) before the connection is closed
	maxPendingOpen   int    // streams waiting for a handler slot (after resets) before ENHANCE_YOUR_CALM
	handshakeTimeout time.Duration
	idleTimeout      time.Duration // 0: the http.Server's IdleTimeout, else DefaultIdleTimeout
	frameTimeout     time.Duration
}

// Option configures a Server.
type Option func(*Server) error

// WithMaxConcurrentStreams sets SETTINGS_MAX_CONCURRENT_STREAMS (default
// 250); it also bounds the handlers running at once on a connection.
func WithMaxConcurrentStreams(n uint32) Option {
	return func(s *Server) error {
		if n == 0 {
			return errors.New("h2: max concurrent streams must be at least 1")
		}
		s.maxStreams = n
		return nil
	}
}

// WithInitialWindowSize sets the receive window of each stream and of the
// connection (default 1 MiB): the request body bytes buffered at most.
func WithInitialWindowSize(n int32) Option {
	return func(s *Server) error {
		if n < 65535 {
			return errors.New("h2: initial window size must be at least 65535")
		}
		s.initialWindow = n
		return nil
	}
}

// WithMaxHeaderListSize sets SETTINGS_MAX_HEADER_LIST_SIZE (default 1 MiB
// as http.DefaultMaxHeaderBytes): a larger request header list, however
// small its HPACK encoding, is answered 431.
func WithMaxHeaderListSize(n uint32) Option {
	return func(s *Server) error {
		if n < 1024 {
			return errors.New("h2: max header list size must be at least 1024")
		}
		s.maxHeaderList = n
		return nil
	}
}

// WithMaxReadFrameSize sets SETTINGS_MAX_FRAME_SIZE, the largest frame the
// server accepts (default 16384, RFC 9113's minimum).
func WithMaxReadFrameSize(n uint32) Option {
	return func(s *Server) error {
		if n < 1<<14 || n > 1<<24-1 {
			return errors.New("h2: max frame size must be in [16384, 16777215]")
		}
		s.maxFrameSize = n
		return nil
	}
}

// WithHandshakeTimeout sets how long a client may take, from the
// connection's start, to send the preface and its first SETTINGS and to
// acknowledge the server's SETTINGS (default DefaultHandshakeTimeout).
func WithHandshakeTimeout(d time.Duration) Option {
	return positive("handshake", d, func(s *Server) { s.handshakeTimeout = d })
}

// WithIdleTimeout sets how long a connection with no open stream stays
// open (default: the http.Server's IdleTimeout, else DefaultIdleTimeout).
func WithIdleTimeout(d time.Duration) Option {
	return positive("idle", d, func(s *Server) { s.idleTimeout = d })
}

// WithFrameTimeout sets how long a frame that has begun to arrive may take
// to arrive whole (default DefaultFrameTimeout): the bound on a client
// that trickles its frames.
func WithFrameTimeout(d time.Duration) Option {
	return positive("frame", d, func(s *Server) { s.frameTimeout = d })
}

func positive(name string, d time.Duration, set func(*Server)) Option {
	return func(s *Server) error {
		if d <= 0 {
			return errors.New("h2: the " + name + " timeout must be positive")
		}
		set(s)
		return nil
	}
}

// New returns a Server with the options applied, or the first option's
// error.
func New(opts ...Option) (*Server, error) {
	s := &Server{
		maxStreams:       250,
		initialWindow:    1 << 20,
		maxFrameSize:     1 << 14,
		maxHeaderList:    http.DefaultMaxHeaderBytes,
		maxControl:       10000,
		handshakeTimeout: DefaultHandshakeTimeout,
		frameTimeout:     DefaultFrameTimeout,
	}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, err
		}
	}
	s.maxPendingOpen = 4 * int(s.maxStreams)
	return s, nil
}

// MustNew is New that panics on an error.
func MustNew(opts ...Option) *Server {
	s, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// nextProtoH2C is net/http's TLSNextProto key for cleartext connections
// that start with the HTTP/2 preface (Protocols.SetUnencryptedHTTP2).
const nextProtoH2C = "unencrypted_http2"

// ConfigureServer makes hs serve HTTP/2 through s: the connections that
// negotiate "h2" in ALPN (TLSNextProto["h2"], which also turns net/http's
// own HTTP/2 off), and, when hs.Protocols enable UnencryptedHTTP2, the
// cleartext ones that start with the preface. It offers "h2" first in ALPN
// when hs has a TLS config, and registers a shutdown hook: when hs shuts
// down, its connections end gracefully (GOAWAY, open streams finish). It
// is an error when hs already has another HTTP/2 implementation. Vireo
// applications use vireo.WithHTTP2, which calls it.
func (s *Server) ConfigureServer(hs *http.Server) error {
	if hs.TLSNextProto["h2"] != nil {
		return errors.New("h2: the http.Server already has an HTTP/2 implementation (TLSNextProto[\"h2\"])")
	}
	if hs.TLSNextProto == nil {
		hs.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	g := &connGroup{conns: map[*conn]struct{}{}}
	hs.RegisterOnShutdown(g.shutdown)
	hs.TLSNextProto["h2"] = func(hs *http.Server, c *tls.Conn, h http.Handler) {
		s.serve(c, h, hs, g, false)
	}
	hs.TLSNextProto[nextProtoH2C] = func(hs *http.Server, c *tls.Conn, h http.Handler) {
		// net/http read the preface and wraps the plain connection.
		if u, ok := c.NetConn().(interface{ UnencryptedNetConn() net.Conn }); ok {
			s.serve(u.UnencryptedNetConn(), h, hs, g, true)
		}
	}
	if hs.TLSConfig != nil && !hasProto(hs.TLSConfig.NextProtos, "h2") {
		hs.TLSConfig.NextProtos = append([]string{"h2"}, hs.TLSConfig.NextProtos...)
	}
	return nil
}

func hasProto(list []string, p string) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// ServeConn serves HTTP/2 on c (a TLS connection that negotiated "h2", or
// a cleartext connection whose client starts with the preface) until the
// connection ends, under the timeouts of s; it closes c. A connection
// served this way has no server to shut down with it: the graceful end
// on shutdown comes with ConfigureServer.
func (s *Server) ServeConn(c net.Conn, h http.Handler) {
	s.serve(c, h, nil, nil, false)
}

func (s *Server) serve(nc net.Conn, h http.Handler, hs *http.Server, g *connGroup, sawPreface bool) {
	idle := s.idleTimeout
	if idle == 0 && hs != nil {
		idle = hs.IdleTimeout
	}
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	c := newConn(s, nc, h, idle)
	c.sawPreface = sawPreface
	if g != nil && !g.add(c) {
		c.sigs.Store(sigShutdown) // the server shuts down: GOAWAY at once
	}
	c.serve()
	if g != nil {
		g.remove(c)
	}
}

// connGroup holds the connections served for one http.Server, for its
// shutdown hook.
type connGroup struct {
	mu    sync.Mutex
	conns map[*conn]struct{}
	shut  bool
}

func (g *connGroup) add(c *conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conns[c] = struct{}{}
	return !g.shut
}

func (g *connGroup) remove(c *conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
}

// shutdown starts the graceful end of every connection.
func (g *connGroup) shutdown() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shut = true
	for c := range g.conns {
		c.signal(sigShutdown)
	}
}
