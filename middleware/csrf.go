// CSRF protection.
//
// CSRF refuses state-changing requests (every method but GET, HEAD, OPTIONS
// and TRACE) with a 403 that goes through the application's error pages
// unless they pass two checks, both on by default (a form that cannot be
// read for its token is answered as the form parsing answers: 413 over the
// body limit, 400 malformed):
//
//  1. Origin. A browser says where a request comes from: Sec-Fetch-Site
//     must be same-origin or none (typed by the user), or, from browsers
//     that do not send it, Origin must name this host. A sibling subdomain
//     is cross-origin. Requests without either header (non-browser
//     clients) pass this check. It is net/http's CrossOriginProtection;
//     WithCSRFTrustedOrigins adds origins, WithCSRFOriginCheck(false) turns
//     it off.
//  2. Token. The request sends back a token the server issued, in the
//     X-CSRF-Token header (scripts) or the csrf_token form field (forms).
//     Another site can make a browser send requests with our cookies, but
//     it cannot read our pages, so it cannot know the token.
//
// Where the expected token is kept is a CSRFStore:
//
//   - CSRFCookieStore (the default), a signed double-submit cookie: the
//     cookie holds the token and an HMAC-SHA256 of it under a server key,
//     bound to the session ID when CSRFCookieStore.SessionID gives one. A
//     cookie the server did not sign (planted by a sibling subdomain or by
//     a man in the middle on plain HTTP) is no token at all. Over HTTPS the
//     cookie is named __Host-csrf, a name browsers accept only from the
//     host itself over a secure connection, with Path=/ and no Domain.
//   - a session (synchronizer token): any type with Token and SetToken
//     over the application's sessions, as _examples/mvc-todo has. This is
//     the stronger choice: the token dies with the session.
//
// BREACH. A compressed response that holds a secret and reflects input
// leaks the secret through its size: an attacker who can make the
// victim's browser request the page with guesses in it watches the
// encrypted length shrink when a guess matches (the attack is called
// BREACH). CSRFToken therefore never returns the token itself but a fresh
// masking of it per call: a random pad followed by the token XORed with
// the pad, base64url. Every response carries different bytes, so there is
// nothing to guess, and the check unmasks what it receives before the
// constant-time comparison. Compression stays on; secrets other than the
// CSRF token that a page reflects beside input are the application's to
// keep out of compressed responses (see Compress).
//
// A token is made only when a handler asks for one with CSRFToken (to put
// it in a form), so requests that render no form create no cookie or
// session. RotateCSRFToken replaces it, at login.

package middleware

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/vireo-go/vireo/core"
)

// CSRFStore keeps the token a client must send back.
type CSRFStore interface {
	// Token returns the client's token, or "" when it has none.
	Token(ctx core.Context) string
	// SetToken gives the client a new token.
	SetToken(ctx core.Context, token string)
}

// CSRFCookieStore is the signed double-submit-cookie CSRFStore.
type CSRFCookieStore struct {
	// Name is the cookie name. Default: "__Host-csrf" over HTTPS
	// (Context.IsTLS, so behind a trusted proxy too) and "_csrf" over
	// plain HTTP, where the prefix cannot be used; "__Secure-csrf" over
	// HTTPS when Path is not "/".
	Name string
	// Path is the cookie path (default "/").
	Path string
	// Key signs the cookie (HMAC-SHA256), at least 32 bytes. Default: a
	// random key made by CSRF, which is enough for one process; instances
	// behind a load balancer share one key, so that a token issued by one
	// is accepted by the others, and a key kept across restarts keeps the
	// forms of open pages valid.
	Key []byte
	// SessionID, when set, returns the ID of the request's session ("" when
	// there is none); the signature covers it, so a cookie made for one
	// session (an attacker's own, say) is worthless in another. With
	// Vireo's sessions: func(ctx core.Context) string { return
	// sessions.Get(ctx).ID() }. A token made before a session existed, or
	// before its ID was regenerated at login, is then invalid: rotate the
	// token when the session changes.
	SessionID func(ctx core.Context) string
}

// csrfKeySize is the size of a generated key and the least a given key has.
const csrfKeySize = 32

func (s CSRFCookieStore) name(ctx core.Context) string {
	if s.Name != "" {
		return s.Name
	}
	if !ctx.IsTLS() {
		return "_csrf"
	}
	if s.Path == "" || s.Path == "/" {
		return "__Host-csrf"
	}
	return "__Secure-csrf"
}

// mac returns the base64url HMAC of token under the store's key, bound to
// the request's session ID.
func (s CSRFCookieStore) mac(ctx core.Context, token string) string {
	h := hmac.New(sha256.New, s.Key)
	h.Write([]byte("vireo-csrf\x00"))
	if s.SessionID != nil {
		h.Write([]byte(s.SessionID(ctx)))
	}
	h.Write([]byte{0})
	h.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// Token returns the token of the cookie, or "" when there is none or its
// signature is not the server's.
func (s CSRFCookieStore) Token(ctx core.Context) string {
	v, _ := ctx.RequestCookie(s.name(ctx))
	token, sig, ok := strings.Cut(v, ".")
	if !ok || token == "" || len(s.Key) == 0 || !hmac.Equal([]byte(sig), []byte(s.mac(ctx, token))) {
		return ""
	}
	return token
}

// SetToken sets the cookie to the token and its signature (a session
// cookie, HttpOnly, SameSite=Lax, Secure when the request came over HTTPS).
func (s CSRFCookieStore) SetToken(ctx core.Context, token string) {
	path := s.Path
	if path == "" {
		path = "/"
	}
	ctx.SetCookie(&http.Cookie{Name: s.name(ctx), Value: token + "." + s.mac(ctx, token), Path: path, HttpOnly: true,
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

// WithCSRFOriginCheck turns the origin check (Sec-Fetch-Site, Origin) on
// or off; it is on by default. Turn it off only where pages of other
// origins post to this one by design and cannot be listed with
// WithCSRFTrustedOrigins.
func WithCSRFOriginCheck(on bool) CSRFOption {
	return func(m *csrf) error {
		m.originCheck = on
		return nil
	}
}

// WithCSRFTrustedOrigins lets requests from these origins
// ("https://admin.example.com": scheme, host and optional port, nothing
// else) pass the origin check; the token is still required.
func WithCSRFTrustedOrigins(origins ...string) CSRFOption {
	return func(m *csrf) error {
		for _, o := range origins {
			if err := m.origins.AddTrustedOrigin(o); err != nil {
				return fmt.Errorf("middleware: CSRF: %w", err)
			}
		}
		return nil
	}
}

type csrf struct {
	store       CSRFStore
	skip        func(core.Context) bool
	originCheck bool
	origins     *http.CrossOriginProtection
}

var (
	errCSRF       = core.NewHTTPError(http.StatusForbidden, "invalid or missing CSRF token")
	errCSRFOrigin = core.NewHTTPError(http.StatusForbidden, "CSRF: cross-origin request refused")
)

// CSRF returns CSRF-protection middleware, or an error for an invalid
// option (a nil option or store, a CSRFCookieStore key under 32 bytes, an
// invalid trusted origin).
func CSRF(opts ...CSRFOption) (core.Handler, error) {
	m := &csrf{store: CSRFCookieStore{}, originCheck: true, origins: http.NewCrossOriginProtection()}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: CSRF: nil option")
		}
		if err := opt(m); err != nil {
			return nil, err
		}
	}
	switch s := m.store.(type) {
	case CSRFCookieStore:
		if err := s.withKey(); err != nil {
			return nil, err
		}
		m.store = s
	case *CSRFCookieStore:
		cp := *s
		if err := cp.withKey(); err != nil {
			return nil, err
		}
		m.store = cp
	}
	return m.serve, nil
}

// withKey checks the store's key, making a random one when there is none.
func (s *CSRFCookieStore) withKey() error {
	if s.Key == nil {
		s.Key = make([]byte, csrfKeySize)
		rand.Read(s.Key)
		return nil
	}
	if len(s.Key) < csrfKeySize {
		return fmt.Errorf("middleware: CSRF: cookie key of %d bytes, at least %d needed", len(s.Key), csrfKeySize)
	}
	s.Key = append([]byte(nil), s.Key...) // the caller's slice may change later
	return nil
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
	if m.originCheck && m.origins.Check(ctx.Request()) != nil {
		ctx.StopWithError(errCSRFOrigin)
		return
	}
	sent := ctx.RequestHeader(CSRFHeader)
	if sent == "" {
		sent = ctx.PostValue(CSRFField)
		if ctx.IsStopped() {
			return // the form was over the body limit (413) or malformed (400)
		}
	}
	want := m.store.Token(ctx)
	if want == "" || !csrfMatch(sent, want) {
		ctx.StopWithError(errCSRF)
		return
	}
	ctx.Next()
}

// csrfMatch reports whether sent is a masking of want (see MaskCSRFToken),
// in time independent of the token's content.
func csrfMatch(sent, want string) bool {
	b, err := base64.RawURLEncoding.DecodeString(sent)
	if err != nil || len(b) != 2*len(want) {
		return false
	}
	pad, masked := b[:len(want)], b[len(want):]
	for i := range masked {
		masked[i] ^= pad[i]
	}
	return subtle.ConstantTimeCompare(masked, []byte(want)) == 1
}

// CSRFToken returns the client's token, masked afresh for this call (see
// the file comment on BREACH), making a token when the client has none. Put
// it in a form's csrf_token field or a script's X-CSRF-Token header. It is
// "" when the request did not go through CSRF.
func CSRFToken(ctx core.Context) string {
	m, _ := ctx.Values().Get(csrfKey).(*csrf)
	if m == nil {
		return ""
	}
	if tok := ctx.Values().GetString(csrfFreshKey); tok != "" {
		return MaskCSRFToken(tok)
	}
	if tok := m.store.Token(ctx); tok != "" {
		return MaskCSRFToken(tok)
	}
	return RotateCSRFToken(ctx)
}

// RotateCSRFToken gives the client a new token and returns it, masked as
// CSRFToken does; call it when the user logs in, so a token seen before is
// worthless after.
func RotateCSRFToken(ctx core.Context) string {
	m, _ := ctx.Values().Get(csrfKey).(*csrf)
	if m == nil {
		return ""
	}
	tok := NewCSRFToken()
	m.store.SetToken(ctx, tok)
	ctx.Values().Set(csrfFreshKey, tok)
	return MaskCSRFToken(tok)
}

// NewCSRFToken returns a fresh token: 32 bytes from crypto/rand, base64url.
// It is what a CSRFStore keeps; pages get it through CSRFToken, masked.
func NewCSRFToken() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand crashes the program rather than return a guessable value)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// MaskCSRFToken returns token as a page may show it: a fresh random pad of
// its length followed by the token XORed with the pad, base64url. CSRF
// accepts any masking of the stored token. CSRFToken masks already; call
// MaskCSRFToken only for a page rendered outside the middleware (an error
// page of an unmatched path) from a token read from the store.
func MaskCSRFToken(token string) string {
	b := make([]byte, 2*len(token))
	pad := b[:len(token)]
	rand.Read(pad)
	for i := 0; i < len(token); i++ {
		b[len(token)+i] = pad[i] ^ token[i]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
