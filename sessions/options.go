// This file holds the Manager's functional options and their validation.
//
// Why options: the whole framework configures with functional options
// (core.New, view.NewHTML, redis.New), so a setting reads the same
// everywhere, a zero value never has to mean "default", and adding one later
// breaks no caller. Without options a Manager uses the safe defaults: an
// HttpOnly, SameSite=Lax cookie scoped to "/", valid for the browser
// session, backed by a server-side lifetime of DefaultLifetime that slides
// with use, stored in a new MemoryDatabase. New validates every option once,
// so a bad cookie name or path is an error at startup and never a malformed
// header.

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
	// DefaultCookie is the cookie name used without WithCookie.
	DefaultCookie = "vireo_sid"
	// DefaultLifetime is the server-side lifetime of a session whose cookie
	// lasts for the browser session (no WithExpires): 20 minutes of
	// inactivity, the idle timeout of ASP.NET Core sessions. It bounds the
	// memory sessions of clients that never come back can take.
	DefaultLifetime = 20 * time.Minute
	// DefaultMaxCookieLength is the longest cookie value read without
	// WithMaxCookieLength. A longer value is ignored (as if absent) without
	// being decoded.
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
// with SecureCookie.MaxAge when WithExpires is longer.
type Encoding interface {
	Encode(name string, value any) (string, error)
	Decode(name, value string, dst any) error
}

// Option configures a Manager; pass options to New or MustNew.
type Option func(*settings)

// settings is what the options fill in.
type settings struct {
	cookie          string
	expires         time.Duration
	lifetime        time.Duration
	fixedExpiration bool
	path            string
	domain          string
	secure          bool
	httpOnly        bool
	sameSite        http.SameSite
	encoding        Encoding
	maxCookieLength int
	db              Database
	now             func() time.Time
	logger          *slog.Logger
	errs            []error
}

// WithCookie sets the cookie name (an RFC 6265 token). Default
// DefaultCookie.
func WithCookie(name string) Option {
	return func(s *settings) {
		if !validCookieName(name) {
			s.errs = append(s.errs, fmt.Errorf("sessions: invalid cookie name %q", name))
		}
		s.cookie = name
	}
}

// WithExpires sets the lifetime of a session and of its cookie, which then
// carries Expires and Max-Age. Without it the cookie is a browser-session
// cookie (dropped when the browser closes) and the server keeps the session
// for the WithLifetime lifetime. A negative value is an error.
func WithExpires(d time.Duration) Option {
	return func(s *settings) {
		if d < 0 {
			s.errs = append(s.errs, fmt.Errorf("sessions: negative expiry %v", d))
		}
		s.expires = d
	}
}

// WithLifetime sets the server-side lifetime of a session whose cookie
// lasts for the browser session. Default DefaultLifetime; ignored with
// WithExpires. A negative value is an error.
func WithLifetime(d time.Duration) Option {
	return func(s *settings) {
		if d < 0 {
			s.errs = append(s.errs, fmt.Errorf("sessions: negative lifetime %v", d))
		}
		s.lifetime = d
	}
}

// WithFixedExpiration turns sliding expiration off: a session then ends its
// lifetime after creation, however busy. By default a session's lifetime
// restarts when a request uses it, once at least 1/16 of the lifetime has
// passed since the last move (a persistent cookie is re-sent then).
func WithFixedExpiration() Option {
	return func(s *settings) { s.fixedExpiration = true }
}

// WithPath sets the cookie's Path, which must start with "/". Default "/".
func WithPath(path string) Option {
	return func(s *settings) {
		if path == "" || path[0] != '/' || strings.ContainsAny(path, ";\r\n\x00") {
			s.errs = append(s.errs, fmt.Errorf("sessions: invalid cookie path %q", path))
		}
		s.path = path
	}
}

// WithDomain sets the cookie's Domain. Default none: the request's host
// only.
func WithDomain(domain string) Option {
	return func(s *settings) {
		if !validDomain(domain) {
			s.errs = append(s.errs, fmt.Errorf("sessions: invalid cookie domain %q", domain))
		}
		s.domain = domain
	}
}

// WithSecure marks the cookie Secure on every response. Without it the
// cookie is Secure on requests whose client connection is HTTPS
// (Context.IsTLS: over TLS, or through a trusted proxy that says so).
func WithSecure() Option {
	return func(s *settings) { s.secure = true }
}

// WithHTTPOnly sets whether the cookie is HttpOnly (hidden from scripts).
// Default true.
func WithHTTPOnly(on bool) Option {
	return func(s *settings) { s.httpOnly = on }
}

// WithSameSite sets the cookie's SameSite mode. Default
// http.SameSiteLaxMode; http.SameSiteNoneMode requires WithSecure in
// browsers.
func WithSameSite(mode http.SameSite) Option {
	return func(s *settings) {
		if mode < http.SameSiteDefaultMode || mode > http.SameSiteNoneMode {
			s.errs = append(s.errs, fmt.Errorf("sessions: invalid SameSite mode %d", mode))
		}
		s.sameSite = mode
	}
}

// WithEncoding signs (and optionally encrypts) the cookie value, typically
// with a *securecookie.SecureCookie. Default: the bare random ID.
func WithEncoding(enc Encoding) Option {
	return func(s *settings) {
		if enc == nil {
			s.errs = append(s.errs, errors.New("sessions: nil Encoding"))
		}
		s.encoding = enc
	}
}

// WithMaxCookieLength sets the longest cookie value considered. Default
// DefaultMaxCookieLength.
func WithMaxCookieLength(n int) Option {
	return func(s *settings) {
		if n <= 0 {
			s.errs = append(s.errs, fmt.Errorf("sessions: cookie length limit %d is not positive", n))
		}
		s.maxCookieLength = n
	}
}

// WithDatabase sets the store of the sessions. Default: a MemoryDatabase
// the Manager creates (with its clock) and closes in Close; a Database
// given here is left open for its owner to close.
func WithDatabase(db Database) Option {
	return func(s *settings) {
		if db == nil {
			s.errs = append(s.errs, errors.New("sessions: nil Database"))
		}
		s.db = db
	}
}

// WithClock sets the clock, time.Now by default; tests inject a fake one.
func WithClock(now func() time.Time) Option {
	return func(s *settings) {
		if now == nil {
			s.errs = append(s.errs, errors.New("sessions: nil clock"))
		}
		s.now = now
	}
}

// WithLogger sets the logger of errors that cannot reach a caller (a
// session written after its response went out cannot report a failed
// save). Default slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) {
		if l == nil {
			s.errs = append(s.errs, errors.New("sessions: nil Logger"))
		}
		s.logger = l
	}
}

// newSettings applies opts over the defaults and returns every invalid
// option's error, joined.
func newSettings(opts []Option) (*settings, error) {
	s := &settings{
		cookie:          DefaultCookie,
		lifetime:        DefaultLifetime,
		path:            "/",
		httpOnly:        true,
		sameSite:        http.SameSiteLaxMode,
		maxCookieLength: DefaultMaxCookieLength,
		now:             time.Now,
	}
	for _, o := range opts {
		if o == nil {
			s.errs = append(s.errs, errors.New("sessions: nil Option"))
			continue
		}
		o(s)
	}
	if s.sameSite == http.SameSiteDefaultMode {
		s.sameSite = http.SameSiteLaxMode
	}
	if s.lifetime == 0 {
		s.lifetime = DefaultLifetime
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	return s, errors.Join(s.errs...)
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
