// Application options.

package core

import (
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"time"
)

// DefaultBodyLimit is the default maximum request body read by ReadJSON,
// ReadXML, ReadForm, ReadBody, FormValue and PostValue: 4 MiB. The readers
// hold a body in memory (a JSON document and what it decodes to, about
// twice its size), so the limit is what one request may cost: at 4 MiB, 128
// concurrent requests of the maximum size stay within about 1 GiB. JSON and
// form APIs rarely need a tenth of it (Express's JSON parser stops at
// 100 KB); Kestrel's 28.6 MiB default also covers streamed uploads, for
// which an application raises the limit with WithBodyLimit.
const DefaultBodyLimit = 4 << 20

// TrailingSlash is the policy for a request whose path differs from a
// registered route only by a trailing slash.
type TrailingSlash uint8

const (
	// RedirectSlash redirects to the registered form (301 for GET and HEAD,
	// 308 otherwise). It is the default.
	RedirectSlash TrailingSlash = iota
	// StrictSlash answers 404: /users and /users/ are different paths.
	StrictSlash
	// IgnoreSlash serves the registered route for both forms.
	IgnoreSlash
)

// Option configures an Application.
type Option func(*Application)

// WithLogger sets the logger for errors and panics (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(app *Application) {
		if l != nil {
			app.logger = l
		}
	}
}

// WithBodyLimit sets the maximum request body size read by the Context's
// body readers; larger bodies get 413. 0 means no limit; a negative size is
// a registration error.
func WithBodyLimit(n int64) Option {
	return func(app *Application) {
		if n < 0 {
			app.recordError("", "", fmt.Errorf("WithBodyLimit: negative size %d", n))
			return
		}
		app.bodyLimit = n
	}
}

// WithTrailingSlash sets the trailing-slash policy.
func WithTrailingSlash(policy TrailingSlash) Option {
	return func(app *Application) { app.trailingSlash = policy }
}

// WithPathValues makes route parameters visible through
// http.Request.PathValue, for net/http handlers mounted with WrapHandler. It
// costs an allocation per request with parameters, so it is off by default.
func WithPathValues() Option {
	return func(app *Application) { app.pathValues = true }
}

// WithErrorDetails sends the text of internal (5xx) errors to clients. Off
// by default: internal errors are logged, and clients see only the status.
func WithErrorDetails() Option {
	return func(app *Application) { app.errorDetails = true }
}

// WithStartupOutput sets where Listen prints its startup lines (default
// os.Stdout; nil silences them).
func WithStartupOutput(w io.Writer) Option {
	return func(app *Application) { app.startupOut = w }
}

// WithShutdownTimeout sets how long graceful shutdown waits for in-flight
// requests after SIGINT or SIGTERM (default 15s). A negative duration is a
// registration error.
func WithShutdownTimeout(d time.Duration) Option {
	return func(app *Application) {
		if d < 0 {
			app.recordError("", "", fmt.Errorf("WithShutdownTimeout: negative duration %v", d))
			return
		}
		app.shutdownTimeout = d
	}
}

// WithTrustedProxies makes ClientIP, Scheme and Host believe the proxy
// headers of one family when, and only when, the connection comes from one
// of the given networks (CIDR such as "10.0.0.0/8", or single addresses).
// header names the family the proxies write: "X-Forwarded-For" or
// "X-Real-IP" (with X-Forwarded-Proto and X-Forwarded-Host), or
// "Forwarded" (RFC 7239: for, proto and host). Headers of the other family
// are ignored, since a proxy passes them on as the client sent them.
func WithTrustedProxies(header string, networks ...string) Option {
	return func(app *Application) {
		app.proxyHeader = header
		for _, n := range networks {
			var pfx netip.Prefix
			var err error
			if strings.Contains(n, "/") {
				pfx, err = netip.ParsePrefix(n)
			} else {
				var a netip.Addr
				a, err = netip.ParseAddr(n)
				if err == nil {
					pfx = netip.PrefixFrom(a, a.BitLen())
				}
			}
			if err != nil {
				app.recordError("", "", fmt.Errorf("WithTrustedProxies: %w", err))
				continue
			}
			app.trustedProxies = append(app.trustedProxies, &netPrefix{pfx.Masked()})
		}
	}
}

type netPrefix struct{ netip.Prefix }

// WithH2C makes Listen and Serve accept HTTP/2 without TLS ("h2c") from
// clients that know the server speaks it (prior knowledge, RFC 9113
// section 3.3), beside HTTP/1.1 on the same port: net/http's
// http.Protocols with UnencryptedHTTP2. It is off by default, as in
// net/http: h2c is for a server behind a proxy or in a mesh that talks
// HTTP/2 to it over a trusted network; browsers never use it. The
// HTTP/1.1 Upgrade: h2c path (removed from RFC 9113) is not supported by
// net/http: such a request is answered over HTTP/1.1.
func WithH2C() Option {
	return func(app *Application) { app.h2c = true }
}
