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
// Server.Configure plugs the server into an *http.Server (TLSNextProto
// "h2"), so core's ListenTLS serves it: app.ListenTLS(addr, cert, key,
// srv.Configure).
package h2

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
)

// Server holds the settings of Vireo's HTTP/2 serving path; it serves any
// number of connections at once.
type Server struct {
	maxStreams     uint32 // SETTINGS_MAX_CONCURRENT_STREAMS, also the bound of running handlers
	initialWindow  int32  // SETTINGS_INITIAL_WINDOW_SIZE, and the connection receive window
	maxFrameSize   uint32 // SETTINGS_MAX_FRAME_SIZE we read
	maxHeaderList  uint32 // SETTINGS_MAX_HEADER_LIST_SIZE
	maxControl     int    // queued control frames (PING/SETTINGS acks, RST_STREAM) before the connection is closed
	maxPendingOpen int    // streams waiting for a handler slot (after resets) before ENHANCE_YOUR_CALM
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

// New returns a Server with the options applied, or the first option's
// error.
func New(opts ...Option) (*Server, error) {
	s := &Server{
		maxStreams:    250,
		initialWindow: 1 << 20,
		maxFrameSize:  1 << 14,
		maxHeaderList: http.DefaultMaxHeaderBytes,
		maxControl:    10000,
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

// Configure makes hs serve HTTP/2 through s: it sets hs.TLSNextProto["h2"]
// (which also turns net/http's own HTTP/2 off) and offers "h2" first in
// ALPN when hs has a TLS config. Pass it to core's ListenTLS or Serve.
func (s *Server) Configure(hs *http.Server) {
	if hs.TLSNextProto == nil {
		hs.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	hs.TLSNextProto["h2"] = func(_ *http.Server, c *tls.Conn, h http.Handler) {
		s.ServeConn(c, h)
	}
	if hs.TLSConfig != nil && !hasProto(hs.TLSConfig.NextProtos, "h2") {
		hs.TLSConfig.NextProtos = append([]string{"h2"}, hs.TLSConfig.NextProtos...)
	}
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
// connection ends; it closes c.
func (s *Server) ServeConn(c net.Conn, h http.Handler) {
	newConn(s, c, h).serve()
}
