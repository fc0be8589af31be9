// TLS and HTTP/2.
//
// ListenTLS is Listen over TLS. The server's TLS configuration is made
// after the configure funcs ran, from what they left in
// http.Server.TLSConfig (a GetCertificate, such as an ACME manager's, see
// the autotls module) plus the certificate and key files when they are
// named, as http.Server.ListenAndServeTLS does; it offers HTTP/2 and
// HTTP/1.1 through ALPN unless the configuration or http.Server.Protocols
// says otherwise (net/http serves h2 on a TLS listener whose config offers
// it), and refuses TLS below 1.2. A configuration without any certificate
// is an error before the server starts.
//
// WithHTTP2 replaces net/http's HTTP/2 with another implementation
// (Vireo's own is the h2 module, which core does not import): it is
// declared here as the one method the server needs, installing itself on
// the *http.Server.

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

// ListenTLS listens on addr and serves HTTPS (HTTP/2 and HTTP/1.1) until
// shutdown; see Serve. The certificate and key are the PEM files certFile
// and keyFile, or, when both are "", what a configure func set in the
// server's TLSConfig (Certificates or GetCertificate). On an engine
// other than net/http (WithEngine) it offers HTTP/1.1 only.
func (app *Application) ListenTLS(addr, certFile, keyFile string, configure ...func(*http.Server)) error {
	if err := app.Build(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return app.serve(ln, true, configure, &tlsFiles{certFile, keyFile})
}

// tlsFiles names ListenTLS's certificate and key.
type tlsFiles struct{ cert, key string }

// serverTLS returns the TLS configuration of srv: its TLSConfig (a copy)
// with the certificate of files, TLS 1.2 at least and, when it names no
// protocols, h2 (unless srv.Protocols leaves HTTP/2 out) and http/1.1.
func serverTLS(srv *http.Server, files *tlsFiles) (*tls.Config, error) {
	cfg := &tls.Config{}
	if srv.TLSConfig != nil {
		cfg = srv.TLSConfig.Clone()
	}
	if files.cert != "" || files.key != "" {
		cert, err := tls.LoadX509KeyPair(files.cert, files.key)
		if err != nil {
			return nil, err
		}
		cfg.Certificates = append(cfg.Certificates, cert)
	}
	if len(cfg.Certificates) == 0 && cfg.GetCertificate == nil && cfg.GetConfigForClient == nil {
		return nil, errors.New("vireo: ListenTLS: no certificate: name the certificate and key files, or set Certificates or GetCertificate in the server's TLSConfig")
	}
	if cfg.MinVersion < tls.VersionTLS12 {
		cfg.MinVersion = tls.VersionTLS12
	}
	if len(cfg.NextProtos) == 0 {
		if srv.Protocols == nil || srv.Protocols.HTTP2() {
			cfg.NextProtos = append(cfg.NextProtos, "h2")
		}
		cfg.NextProtos = append(cfg.NextProtos, "http/1.1")
	}
	return cfg, nil
}
