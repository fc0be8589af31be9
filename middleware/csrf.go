// CSRF protection.
//
// CSRF refuses state-changing requests (every method but GET, HEAD, OPTIONS
// and TRACE) that do not send back the client's token, in the X-CSRF-Token
// header (scripts) or the csrf_token form field (forms), with a 403 that
// goes through the application's error pages. Another site can make a
// browser send requests with our cookies, but it cannot read our pages or
// cookies, so it cannot know the token. Tokens are 32 bytes from
// crypto/rand, compared in constant time.
//
// Where the expected token is kept is a CSRFStore:
//
//   - CSRFCookieStore (the default), the double-submit cookie: the token sits
//     in an HttpOnly, SameSite=Lax cookie (Secure over TLS) and the page
//     repeats it; nothing is kept on the server.
//   - a session (synchronizer token): any type with Token and SetToken
//     over the application's sessions, as _examples/mvc-todo has.
//
// A token is made only when a handler asks for one with CSRFToken (to put
// it in a form), so requests that render no form create no cookie or
// session. RotateCSRFToken replaces it, at login.

package middleware

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"

	"github.com/vireo-go/vireo/core"
)

// CSRFStore keeps the token a client must send back.
type CSRFStore interface {
	// Token returns the client's token, or "" when it has none.
	Token(ctx core.Context) string
	// SetToken gives the client a new token.
	SetToken(ctx core.Context, token string)
}

// CSRFCookieStore is the double-submit-cookie CSRFStore.
type CSRFCookieStore struct {
	Name string // cookie name (default "_csrf")
	Path string // cookie path (default "/")
}

func (s CSRFCookieStore) name() string {
	if s.Name == "" {
		return "_csrf"
	}
	return s.Name
}

// Token returns the token cookie's value.
func (s CSRFCookieStore) Token(ctx core.Context) string {
	v, _ := ctx.RequestCookie(s.name())
	return v
}

// SetToken sets the token cookie (a session cookie, HttpOnly, SameSite=Lax,
// Secure when the request came over TLS).
func (s CSRFCookieStore) SetToken(ctx core.Context, token string) {
	path := s.Path
	if path == "" {
		path = "/"
	}
	ctx.SetCookie(&http.Cookie{Name: s.name(), Value: token, Path: path, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: ctx.IsTLS()})
	ctx.Values().Set(csrfFreshKey, token) // this request's Token sees it before the cookie comes back
}

// CSRF form field and header names.
const (
	CSRFField  = "csrf_token"
	CSRFHeader = "X-CSRF-Token"
)

const (
	csrfKey      = "vireo.csrf"
	csrfFreshKey = "vireo.csrf_fresh"
)

// CSRFOption configures CSRF.
type CSRFOption func(*csrf) error

// WithCSRFStore sets where tokens are kept (default CSRFCookieStore{}).
func WithCSRFStore(s CSRFStore) CSRFOption {
	return func(m *csrf) error {
		if s == nil {
			return errors.New("middleware: CSRF: nil store")
		}
		m.store = s
		return nil
	}
}

// WithCSRFSkip exempts the requests for which fn returns true (an API
// authenticated by bearer tokens rather than cookies, say).
func WithCSRFSkip(fn func(ctx core.Context) bool) CSRFOption {
	return func(m *csrf) error {
		if fn == nil {
			return errors.New("middleware: CSRF: nil skip func")
		}
		m.skip = fn
		return nil
	}
}

type csrf struct {
	store CSRFStore
	skip  func(core.Context) bool
}

var errCSRF = core.NewHTTPError(http.StatusForbidden, "invalid or missing CSRF token")

// CSRF returns CSRF-protection middleware, or an error for an invalid
// option.
func CSRF(opts ...CSRFOption) (core.Handler, error) {
	m := &csrf{store: CSRFCookieStore{}}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: CSRF: nil option")
		}
		if err := opt(m); err != nil {
			return nil, err
		}
	}
	return m.serve, nil
}

// MustCSRF is CSRF that panics on an invalid option.
func MustCSRF(opts ...CSRFOption) core.Handler {
	h, err := CSRF(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

func (m *csrf) serve(ctx core.Context) {
	ctx.Values().Set(csrfKey, m)
	switch ctx.Method() {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		ctx.Next()
		return
	}
	if m.skip != nil && m.skip(ctx) {
		ctx.Next()
		return
	}
	sent := ctx.RequestHeader(CSRFHeader)
	if sent == "" {
		sent = ctx.PostValue(CSRFField)
	}
	want := m.store.Token(ctx)
	if sent == "" || want == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(want)) != 1 {
		ctx.StopWithError(errCSRF)
		return
	}
	ctx.Next()
}

// CSRFToken returns the client's token, making one when it has none. It
// is "" when the request did not go through CSRF.
func CSRFToken(ctx core.Context) string {
	m, _ := ctx.Values().Get(csrfKey).(*csrf)
	if m == nil {
		return ""
	}
	if tok := ctx.Values().GetString(csrfFreshKey); tok != "" {
		return tok
	}
	if tok := m.store.Token(ctx); tok != "" {
		return tok
	}
	return RotateCSRFToken(ctx)
}

// RotateCSRFToken gives the client a new token and returns it; call it
// when the user logs in, so a token seen before is worthless after.
func RotateCSRFToken(ctx core.Context) string {
	m, _ := ctx.Values().Get(csrfKey).(*csrf)
	if m == nil {
		return ""
	}
	tok := NewCSRFToken()
	m.store.SetToken(ctx, tok)
	ctx.Values().Set(csrfFreshKey, tok)
	return tok
}

// NewCSRFToken returns a fresh token: 32 bytes from crypto/rand, base64url.
func NewCSRFToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a guessable
		// token would be worse than a failed request.
		panic(fmt.Errorf("middleware: CSRF: crypto/rand: %w", err))
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}
