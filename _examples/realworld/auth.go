// Authentication: JWTs in "Authorization: Token <jwt>".
//
// Tokens are HS256 JWTs (github.com/golang-jwt/jwt/v5) whose subject is the
// user's id, valid for 30 days. Vireo's BearerAuth middleware, with the
// scheme word "Token", reads the header and answers 401 with a challenge;
// its validator parses the JWT (the algorithm pinned to HS256, expiry
// required) and leaves the user id in the request's Values. Routes where
// authentication is optional run the same middleware only when the request
// has an Authorization header: no header is an anonymous viewer, a bad one
// is still 401. Passwords are hashed with bcrypt.

package main

import (
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
)

// userIDKey is the Values key of the authenticated user's id (int64).
const userIDKey = "conduit.user_id"

const tokenLifetime = 30 * 24 * time.Hour

// tokens issues and checks JWTs with one HMAC key.
type tokens struct {
	key    []byte
	parser *jwt.Parser
	now    func() time.Time
}

func newTokens(key []byte) *tokens {
	t := &tokens{key: key, now: time.Now}
	t.parser = jwt.NewParser(jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return t.now() }))
	return t
}

// issue returns a token for the user id.
func (t *tokens) issue(id int64) (string, error) {
	now := t.now()
	return jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{
		Subject:   strconv.FormatInt(id, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(tokenLifetime)),
	}).SignedString(t.key)
}

// verify returns the user id of a valid token.
func (t *tokens) verify(token string) (int64, error) {
	var claims jwt.RegisteredClaims
	if _, err := t.parser.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.key, nil }); err != nil {
		return 0, err
	}
	id, err := strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 {
		return 0, errors.New("token: bad subject")
	}
	return id, nil
}

// middleware returns the required and the optional authentication handlers.
func (t *tokens) middleware() (required, optional vireo.Handler) {
	required = middleware.MustBearerAuth(middleware.WithScheme("Token"), middleware.WithRealm("conduit"),
		middleware.WithTokenValidator(func(ctx vireo.Context, token string) bool {
			id, err := t.verify(token)
			if err != nil {
				return false
			}
			ctx.Values().Set(userIDKey, id)
			return true
		}))
	optional = func(ctx vireo.Context) {
		if ctx.Request().Header.Get("Authorization") == "" {
			ctx.Next()
			return
		}
		required(ctx)
	}
	return required, optional
}

// viewer returns the authenticated user's id, 0 for an anonymous request.
func viewer(ctx vireo.Context) int64 {
	id, _ := ctx.Values().Get(userIDKey).(int64)
	return id
}

// hashPassword returns the bcrypt hash of a password.
func hashPassword(p string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(p), bcrypt.DefaultCost)
	return string(h), err
}

// checkPassword reports whether p matches the bcrypt hash.
func checkPassword(hash, p string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(p)) == nil
}
