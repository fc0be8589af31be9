// Basic and bearer authentication.
//
// BasicAuth checks the Authorization: Basic credentials against a user
// table or a validator func. The table stores SHA-256 digests of the
// passwords and compares digests with crypto/subtle, so the comparison takes
// the same time whatever the password, and an unknown user costs the same
// as a wrong password. A request without valid credentials is stopped with
// 401 and a WWW-Authenticate challenge naming the realm.
//
// BearerAuth extracts the token of Authorization: Bearer (RFC 6750) and
// hands it to a validator func; it knows nothing of token formats (JWT or
// opaque), which stay the application's choice. Missing tokens get a bare
// challenge, rejected ones error="invalid_token". WithScheme changes the
// scheme word for APIs that fixed another one (RealWorld's "Token"): the
// header and the challenge then both use it, compared case-insensitively.
//
// On success both store the identity in the request's Values (see
// BasicAuthUser and BearerToken) and continue the chain.

package middleware

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo/core"
)

// Values keys under which the authentication middleware store identities.
const (
	BasicAuthUserKey = "vireo.basic_auth_user"
	BearerTokenKey   = "vireo.bearer_token"
)

// AuthOption configures BasicAuth and BearerAuth.
type AuthOption func(*authConfig) error

type authConfig struct {
	realm     string
	users     map[string][sha256.Size]byte
	validate  func(ctx core.Context, user, password string) bool
	validateT func(ctx core.Context, token string) bool
	scheme    string // BearerAuth's scheme word; "" until WithScheme
}

// WithRealm sets the realm of the challenge (default "Restricted").
func WithRealm(realm string) AuthOption {
	return func(c *authConfig) error {
		if strings.ContainsAny(realm, "\"\\\r\n") {
			return errors.New("middleware: auth: realm with a quote, backslash or line break")
		}
		c.realm = realm
		return nil
	}
}

// WithUsers adds users and their passwords to BasicAuth's table.
func WithUsers(users map[string]string) AuthOption {
	return func(c *authConfig) error {
		for u, p := range users {
			if u == "" || strings.Contains(u, ":") {
				return errors.New("middleware: BasicAuth: user names must be non-empty and without ':'")
			}
			c.users[u] = sha256.Sum256([]byte(p))
		}
		return nil
	}
}

// WithBasicValidator makes BasicAuth ask fn about credentials the user
// table does not hold. fn should compare secrets in constant time.
func WithBasicValidator(fn func(ctx core.Context, user, password string) bool) AuthOption {
	return func(c *authConfig) error {
		if fn == nil {
			return errors.New("middleware: BasicAuth: nil validator")
		}
		c.validate = fn
		return nil
	}
}

// WithTokenValidator sets BearerAuth's validator (required).
func WithTokenValidator(fn func(ctx core.Context, token string) bool) AuthOption {
	return func(c *authConfig) error {
		if fn == nil {
			return errors.New("middleware: BearerAuth: nil validator")
		}
		c.validateT = fn
		return nil
	}
}

// WithScheme sets the scheme word BearerAuth reads in the Authorization
// header and names in its challenge (default "Bearer"), for APIs that
// fixed another word, such as RealWorld's "Authorization: Token <jwt>".
// The word is a token of RFC 9110: letters, digits and !#$%&'*+-.^_`|~.
func WithScheme(word string) AuthOption {
	return func(c *authConfig) error {
		if word == "" || strings.IndexFunc(word, func(r rune) bool { return !isTokenChar(r) }) >= 0 {
			return errors.New("middleware: BearerAuth: scheme " + strconv.Quote(word) + " is not an RFC 9110 token")
		}
		c.scheme = word
		return nil
	}
}

func isTokenChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return r < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

func newAuthConfig(opts []AuthOption) (authConfig, error) {
	cfg := authConfig{realm: "Restricted", users: map[string][sha256.Size]byte{}}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("middleware: auth: nil option")
		}
		if err := opt(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

var unknownUserDigest = sha256.Sum256([]byte("vireo: no such user"))

// BasicAuth returns middleware requiring HTTP basic authentication, or an
// error when it has neither users nor a validator, or an invalid option.
func BasicAuth(opts ...AuthOption) (core.Handler, error) {
	cfg, err := newAuthConfig(opts)
	if err != nil {
		return nil, err
	}
	if len(cfg.users) == 0 && cfg.validate == nil {
		return nil, errors.New("middleware: BasicAuth: no users and no validator")
	}
	if cfg.validateT != nil || cfg.scheme != "" {
		return nil, errors.New("middleware: BasicAuth: WithTokenValidator and WithScheme are BearerAuth's options")
	}
	challenge := core.NewHeaderField("Www-Authenticate", `Basic realm="`+cfg.realm+`", charset="UTF-8"`)
	return func(ctx core.Context) {
		user, pass, ok := ctx.Request().BasicAuth()
		if ok {
			want, known := cfg.users[user]
			if !known {
				want = unknownUserDigest
			}
			got := sha256.Sum256([]byte(pass))
			ok = subtle.ConstantTimeCompare(got[:], want[:]) == 1 && known
			if !ok && cfg.validate != nil {
				ok = cfg.validate(ctx, user, pass)
			}
		}
		if !ok {
			ctx.SetResponseHeaders(challenge)
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.Values().Set(BasicAuthUserKey, user)
		ctx.Next()
	}, nil
}

// MustBasicAuth is BasicAuth that panics on an invalid configuration.
func MustBasicAuth(opts ...AuthOption) core.Handler {
	h, err := BasicAuth(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// BasicAuthUser returns the user BasicAuth authenticated, or "".
func BasicAuthUser(ctx core.Context) string { return ctx.Values().GetString(BasicAuthUserKey) }

// BearerAuth returns middleware requiring a bearer token accepted by the
// WithTokenValidator func, or an error when there is none.
func BearerAuth(opts ...AuthOption) (core.Handler, error) {
	cfg, err := newAuthConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.validateT == nil {
		return nil, errors.New("middleware: BearerAuth: WithTokenValidator is required")
	}
	if len(cfg.users) > 0 || cfg.validate != nil {
		return nil, errors.New("middleware: BearerAuth: WithUsers and WithBasicValidator are BasicAuth's options")
	}
	scheme := cfg.scheme
	if scheme == "" {
		scheme = "Bearer"
	}
	missing := core.NewHeaderField("Www-Authenticate", scheme+` realm="`+cfg.realm+`"`)
	invalid := core.NewHeaderField("Www-Authenticate", scheme+` realm="`+cfg.realm+`", error="invalid_token"`)
	return func(ctx core.Context) {
		token, ok := ExtractToken(ctx.Request(), scheme)
		if !ok {
			ctx.SetResponseHeaders(missing)
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		if !cfg.validateT(ctx, token) {
			ctx.SetResponseHeaders(invalid)
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.Values().Set(BearerTokenKey, token)
		ctx.Next()
	}, nil
}

// MustBearerAuth is BearerAuth that panics on an invalid configuration.
func MustBearerAuth(opts ...AuthOption) core.Handler {
	h, err := BearerAuth(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// ExtractBearer returns the token of an Authorization: Bearer header (the
// scheme is case-insensitive) and whether there was a non-empty one.
func ExtractBearer(r *http.Request) (string, bool) { return ExtractToken(r, "Bearer") }

// ExtractToken returns the token of an Authorization header of the given
// scheme word (compared case-insensitively), as "Token <jwt>" for scheme
// "Token", and whether there was a non-empty one.
func ExtractToken(r *http.Request, scheme string) (string, bool) {
	auth := r.Header.Get("Authorization")
	if len(auth) <= len(scheme)+1 || auth[len(scheme)] != ' ' || !strings.EqualFold(auth[:len(scheme)], scheme) {
		return "", false
	}
	token := strings.TrimSpace(auth[len(scheme)+1:])
	return token, token != "" && !strings.ContainsAny(token, " \t")
}

// BearerToken returns the token BearerAuth accepted, or "".
func BearerToken(ctx core.Context) string { return ctx.Values().GetString(BearerTokenKey) }
