// Secure response headers.
//
// SecureHeaders sets, on every response, the headers that close the usual
// browser-side holes. Each value is built once, when the middleware is
// made, into a shared one-element slice, so a request costs a few map
// assignments and no allocation. The defaults, all overridable:
//
//	X-Content-Type-Options: nosniff
//	X-Frame-Options: DENY
//	Content-Security-Policy: frame-ancestors 'none'   (when no CSP is given)
//	Referrer-Policy: strict-origin-when-cross-origin
//	Cross-Origin-Opener-Policy: same-origin
//	Strict-Transport-Security: max-age=63072000; includeSubDomains
//	                           (only when the request came over TLS, directly
//	                           or through a trusted proxy: Context.IsTLS)
//
// A header set to "" by its option is left out.

package middleware

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/core"
)

// SecureOption configures SecureHeaders.
type SecureOption func(*secureConfig) error

type secureConfig struct {
	frameOptions string
	csp          string
	cspSet       bool
	referrer     string
	coop         string
	hsts         string
}

// WithFrameOptions sets X-Frame-Options: "DENY" (default), "SAMEORIGIN",
// or "" to leave it out.
func WithFrameOptions(v string) SecureOption {
	return func(c *secureConfig) error {
		if v != "" && v != "DENY" && v != "SAMEORIGIN" {
			return fmt.Errorf("middleware: SecureHeaders: X-Frame-Options %q is neither DENY nor SAMEORIGIN", v)
		}
		c.frameOptions = v
		return nil
	}
}

// WithContentSecurityPolicy sets the Content-Security-Policy (default
// "frame-ancestors 'none'"; "" leaves it out).
func WithContentSecurityPolicy(policy string) SecureOption {
	return func(c *secureConfig) error {
		if strings.ContainsAny(policy, "\r\n") {
			return fmt.Errorf("middleware: SecureHeaders: CSP with a line break")
		}
		c.csp, c.cspSet = policy, true
		return nil
	}
}

// WithReferrerPolicy sets Referrer-Policy (default
// strict-origin-when-cross-origin; "" leaves it out).
func WithReferrerPolicy(policy string) SecureOption {
	return func(c *secureConfig) error {
		switch policy {
		case "", "no-referrer", "no-referrer-when-downgrade", "origin", "origin-when-cross-origin",
			"same-origin", "strict-origin", "strict-origin-when-cross-origin", "unsafe-url":
			c.referrer = policy
			return nil
		}
		return fmt.Errorf("middleware: SecureHeaders: unknown Referrer-Policy %q", policy)
	}
}

// WithCrossOriginOpenerPolicy sets Cross-Origin-Opener-Policy (default
// same-origin; "" leaves it out).
func WithCrossOriginOpenerPolicy(policy string) SecureOption {
	return func(c *secureConfig) error {
		switch policy {
		case "", "same-origin", "same-origin-allow-popups", "unsafe-none":
			c.coop = policy
			return nil
		}
		return fmt.Errorf("middleware: SecureHeaders: unknown Cross-Origin-Opener-Policy %q", policy)
	}
}

// WithHSTS sets Strict-Transport-Security, sent over TLS only: max age
// (0 leaves the header out; default two years), includeSubDomains and
// preload.
func WithHSTS(maxAge time.Duration, includeSubdomains, preload bool) SecureOption {
	return func(c *secureConfig) error {
		if maxAge < 0 {
			return fmt.Errorf("middleware: SecureHeaders: negative HSTS max age")
		}
		if maxAge == 0 {
			c.hsts = ""
			return nil
		}
		v := "max-age=" + strconv.FormatInt(int64(maxAge/time.Second), 10)
		if includeSubdomains {
			v += "; includeSubDomains"
		}
		if preload {
			v += "; preload"
		}
		c.hsts = v
		return nil
	}
}

// SecureHeaders returns middleware setting security headers, or an error
// for an invalid option. Install it with UseBeforeRouting so that error pages and
// unmatched requests get them too.
func SecureHeaders(opts ...SecureOption) (core.Handler, error) {
	cfg := secureConfig{
		frameOptions: "DENY",
		referrer:     "strict-origin-when-cross-origin",
		coop:         "same-origin",
		hsts:         "max-age=63072000; includeSubDomains",
	}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: SecureHeaders: nil option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if !cfg.cspSet {
		cfg.csp = "frame-ancestors 'none'"
	}
	headers := []core.HeaderField{core.NewHeaderField("X-Content-Type-Options", "nosniff")}
	for _, hv := range []struct{ k, v string }{
		{"X-Frame-Options", cfg.frameOptions},
		{"Content-Security-Policy", cfg.csp},
		{"Referrer-Policy", cfg.referrer},
		{"Cross-Origin-Opener-Policy", cfg.coop},
	} {
		if hv.v != "" {
			headers = append(headers, core.NewHeaderField(hv.k, hv.v))
		}
	}
	// Over TLS, the same fields and Strict-Transport-Security.
	tlsHeaders := headers
	if cfg.hsts != "" {
		tlsHeaders = append(headers[:len(headers):len(headers)], core.NewHeaderField("Strict-Transport-Security", cfg.hsts))
	}
	return func(ctx core.Context) {
		// SetResponseHeaders, not ResponseHeader's map: the fields are
		// built once, set in one call, and an engine that reuses its
		// header map (fasthttp) keeps that reuse, as the map is handed to
		// no one.
		if len(tlsHeaders) > len(headers) && ctx.IsTLS() {
			ctx.SetResponseHeaders(tlsHeaders...)
		} else {
			ctx.SetResponseHeaders(headers...)
		}
		ctx.Next()
	}, nil
}

// MustSecureHeaders is SecureHeaders that panics on an invalid option.
func MustSecureHeaders(opts ...SecureOption) core.Handler {
	h, err := SecureHeaders(opts...)
	if err != nil {
		panic(err)
	}
	return h
}
