// TLS and HTTP/2.
//
// ListenTLS is Listen over TLS: it loads the certificate and key, offers
// HTTP/2 and HTTP/1.1 through ALPN (net/http serves h2 on a TLS listener
// whose config offers it) and refuses TLS below 1.2. WithHTTP2 replaces
// net/http's HTTP/2 with another implementation (Vireo's own is the h2
// module, which core does not import): it is declared here as the one
// method the server needs, installing itself on the *http.Server.

package core

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
)

// HTTP2Server is an HTTP/2 implementation that serves in place of
// net/http's (h2.Server is one).
type HTTP2Server interface {
	// ConfigureServer installs the implementation on hs (its TLSNextProto
	// entry for "h2" and its shutdown hook); an error stops the server
	// from starting.
	ConfigureServer(hs *http.Server) error
}

// WithHTTP2 serves HTTP/2 with s instead of net/http's built-in HTTP/2:
// Listen, ListenTLS and Serve call s.ConfigureServer on their
// http.Server after the configure funcs, so the connections that
// negotiate "h2" go to s, and so does their graceful shutdown. A nil s is
// a registration error.
func WithHTTP2(s HTTP2Server) Option {
	return func(app *Application) {
		if s == nil {
			app.recordError("", "", errors.New("WithHTTP2: nil HTTP2Server"))
			return
		}
		app.http2 = s
	}
}

// ListenTLS listens on addr and serves HTTPS (HTTP/2 and HTTP/1.1) with
// the certificate and key in the PEM files certFile and keyFile, until
// shutdown; see Serve.
func (app *Application) ListenTLS(addr, certFile, keyFile string, configure ...func(*http.Server)) error {
	if err := app.Build(); err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   []string{"h2", "http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	setTLS := func(s *http.Server) { s.TLSConfig = cfg }
	return app.serve(tls.NewListener(ln, cfg), "https", true, append([]func(*http.Server){setTLS}, configure...))
}
