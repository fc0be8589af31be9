// Package autotls serves a Vireo application over HTTPS with certificates
// from an ACME certificate authority (Let's Encrypt, or any RFC 8555 CA),
// obtained and renewed by golang.org/x/crypto/acme/autocert. It is a
// module of its own so that an application that does not use ACME does
// not link x/crypto's ACME client and x/net's IDNA tables (2 MB).
//
// The autocert.Manager is the configuration, as autocert documents it:
//
//	m := &autocert.Manager{
//		Prompt:     autocert.AcceptTOS,
//		HostPolicy: autocert.HostWhitelist("example.com", "www.example.com"),
//		Cache:      autocert.DirCache("/var/lib/myapp/acme"),
//		Email:      "ops@example.com",
//		// Let's Encrypt's production directory is the default; try the
//		// staging one first, whose rate limits are generous:
//		Client: &acme.Client{DirectoryURL: autotls.LetsEncryptStagingURL},
//	}
//	// Port 80: ACME's http-01 challenges, every other request to https.
//	redirect := vireo.New()
//	redirect.Mount("/", m.HTTPHandler(vireo.RedirectHTTPS("example.com", "www.example.com")))
//	go redirect.Listen(":80")
//	log.Fatal(autotls.Listen(app, ":443", m))
//
// The manager answers the CA's tls-alpn-01 challenge on the HTTPS port
// itself; the port-80 handler adds http-01. The cache directory keeps the
// account key and the certificates (files named by host, mode 0600, in a
// directory made 0700): keep it across restarts, or every start asks the
// CA again and meets its rate limits (Let's Encrypt: 5 certificates for
// the same names a week). Certificates are renewed 30 days before they
// expire (Manager.RenewBefore), while serving.
package autotls

import (
	"errors"
	"net/http"

	"github.com/vireo-go/vireo/core"
	"golang.org/x/crypto/acme/autocert"
)

// LetsEncryptStagingURL is the directory of Let's Encrypt's staging
// environment, for trying a set-up; its certificates are not trusted by
// browsers. The production directory, autocert's default, is
// acme.LetsEncryptURL.
const LetsEncryptStagingURL = "https://acme-staging-v02.api.letsencrypt.org/directory"

// Listen serves app over HTTPS (HTTP/2 and HTTP/1.1) on addr with
// certificates from m, until shutdown, as ListenTLS does: configure funcs
// may change the server, m's TLS configuration is applied first. m must
// have a HostPolicy (else any name a client sends would make the manager
// ask the CA for it) and a Cache (else every start asks the CA again).
func Listen(app *core.Application, addr string, m *autocert.Manager, configure ...func(*http.Server)) error {
	switch {
	case m == nil:
		return errors.New("autotls: Listen needs an autocert.Manager")
	case m.HostPolicy == nil:
		return errors.New("autotls: the autocert.Manager needs a HostPolicy (autocert.HostWhitelist): without one, any host name a client sends makes it ask the CA for a certificate")
	case m.Cache == nil:
		return errors.New("autotls: the autocert.Manager needs a Cache (autocert.DirCache): without one, every start asks the CA for new certificates and meets its rate limits")
	}
	setTLS := func(s *http.Server) { s.TLSConfig = m.TLSConfig() }
	return app.ListenTLS(addr, "", "", append([]func(*http.Server){setTLS}, configure...)...)
}
