// This file holds Config, the Manager's settings, and their validation.
//
// Zero values mean the safe defaults: an HttpOnly, SameSite=Lax cookie
// scoped to "/", valid for the browser session, backed by a server-side
// lifetime of DefaultLifetime that slides with use, stored in a new
// MemoryDatabase. Settings are validated once, in NewManager, so a bad
// cookie name or path is an error at startup and never a malformed header.

package sessions

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

const (
	// DefaultCookie is the cookie name used when Config.Cookie is empty.
	DefaultCookie = "vireo_sid"
	// DefaultLifetime is the server-side lifetime of a session whose cookie
	// lasts for the browser session (Config.Expires == 0): 20 minutes of
	// inactivity, the idle timeout of ASP.NET Core sessions. It bounds the
	// memory a flood of cookie-less clients can take: each of them creates
	// a session that is gone 20 minutes later.
	DefaultLifetime = 20 * time.Minute
	// DefaultMaxCookieLength is the longest cookie value read when
	// Config.MaxCookieLength is 0. A longer value is ignored (a new
	// session starts) without being decoded.
	DefaultMaxCookieLength = 4096
	// maxCandidates is how many cookies with the session's name a request
	// may offer before the rest are ignored: a browser sends several when
	// paths or domains overlap, an attacker sends many to cost lookups.
	maxCandidates = 4
)

// Encoding signs (and optionally encrypts) the cookie value.
// *securecookie.SecureCookie from github.com/gorilla/securecookie satisfies
// it: securecookie.New(hashKey, blockKey) signs with HMAC-SHA256 and, when a
// block key is given, encrypts with AES-CTR. Note that securecookie also
// refuses values older than its own MaxAge (30 days by default): raise it
// with SecureCookie.MaxAge when Config.Expires is longer.
type Encoding interface {
	Encode(name string, value any) (string, error)
	Decode(name, value string, dst any) error
}

// Config configures a Manager. Every field is optional.
type Config struct {
	// Cookie is the cookie name. Default DefaultCookie.
	Cookie string
	// Expires is the lifetime of a session and of its cookie. Zero makes
	// the cookie a browser-session cookie (no Expires/Max-Age attribute,
	// dropped when the browser closes) and the server keeps the session
	// for Lifetime. A negative value is an error.
	Expires time.Duration
	// Lifetime is the server-side lifetime of a session when Expires is
	// zero. Default DefaultLifetime. Ignored when Expires is set.
	Lifetime time.Duration
	// FixedExpiration turns sliding expiration off. By default a session's
	// lifetime restarts each time a request uses it (sliding expiration):
	// the expiry is moved forward once at least 1/16 of the lifetime has
	// passed since the last move, and a persistent cookie is re-sent then
	// with the new Expires/Max-Age. With FixedExpiration a session ends
	// its lifetime after creation, however busy.
	FixedExpiration bool
	// Path is the cookie's Path. Default "/".
	Path string
	// Domain is the cookie's Domain. Default none (the request's host only).
	Domain string
	// Secure marks the cookie Secure. It is also marked Secure on any
	// request that arrived over TLS.
	Secure bool
	// DisableHTTPOnly removes the HttpOnly attribute, which is set by
	// default so scripts cannot read the session cookie.
	DisableHTTPOnly bool
	// SameSite is the cookie's SameSite mode. Default http.SameSiteLaxMode.
	// http.SameSiteNoneMode requires Secure in browsers.
	SameSite http.SameSite
	// Encoding signs/encrypts the cookie value, typically a
	// *securecookie.SecureCookie. Nil sends the bare random ID.
	Encoding Encoding
	// MaxCookieLength is the longest cookie value considered. Default
	// DefaultMaxCookieLength.
	MaxCookieLength int
	// Database stores the sessions. Nil creates a MemoryDatabase (using
	// Now as its clock), which the Manager closes in Close. A Database
	// given here is not closed by the Manager.
	Database Database
	// Now is the clock, time.Now by default; tests inject a fake one.
	Now func() time.Time
	// Logger receives errors that cannot reach a caller (a failed save
	// after the handler has written its response). Default slog.Default().
	Logger *slog.Logger
}

// validate checks the fields that end up in a header.
func (c *Config) validate() error {
	var errs []error
	if c.Cookie != "" && !validCookieName(c.Cookie) {
		errs = append(errs, fmt.Errorf("sessions: invalid cookie name %q", c.Cookie))
	}
	if c.Expires < 0 {
		errs = append(errs, fmt.Errorf("sessions: negative Expires %v", c.Expires))
	}
	if c.Lifetime < 0 {
		errs = append(errs, fmt.Errorf("sessions: negative Lifetime %v", c.Lifetime))
	}
	if strings.ContainsAny(c.Path, ";\r\n\x00") || (c.Path != "" && c.Path[0] != '/') {
		errs = append(errs, fmt.Errorf("sessions: invalid cookie path %q", c.Path))
	}
	if c.Domain != "" && !validDomain(c.Domain) {
		errs = append(errs, fmt.Errorf("sessions: invalid cookie domain %q", c.Domain))
	}
	if c.MaxCookieLength < 0 {
		errs = append(errs, errors.New("sessions: negative MaxCookieLength"))
	}
	return errors.Join(errs...)
}

// validCookieName reports whether name is an RFC 6265 token.
func validCookieName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return name != ""
}

// validDomain accepts host names (an optional leading dot included).
func validDomain(d string) bool {
	d = strings.TrimPrefix(d, ".")
	if d == "" || len(d) > 253 {
		return false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}
