// TLS and HTTP/2.
//
// ListenTLS is Listen over TLS: it loads the certificate and key, offers
// HTTP/2 and HTTP/1.1 through ALPN (net/http serves h2 on a TLS listener
// whose config offers it) and refuses TLS below 1.2.

package core

import (
	"crypto/tls"
	"net"
	"net/http"
)

// ListenTLS listens on addr and serves HTTPS (HTTP/2 and HTTP/1.1) with
// the certificate and key in the PEM files certFile and keyFile, until
// shutdown; see Serve. On an engine other than net/http (WithEngine) it
// offers HTTP/1.1 only.
func (app *Application) ListenTLS(addr, certFile, keyFile string, configure ...func(*http.Server)) error {
	if err := app.Build(); err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	protos := []string{"h2", "http/1.1"}
	if app.engine != nil {
		protos = protos[1:] // HTTP/2 is net/http's (see WithEngine)
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{cert},
		NextProtos:   protos,
		MinVersion:   tls.VersionTLS12,
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	setTLS := func(s *http.Server) { s.TLSConfig = cfg }
	return app.serve(tls.NewListener(ln, cfg), "https", true, append([]func(*http.Server){setTLS}, configure...))
}
