// CSRF protection with a synchronizer token.
//
// Each session holds a random token (32 bytes from crypto/rand). Every
// page gets it as .CSRFToken and every form sends it back in a hidden
// csrf_token field (or an X-CSRF-Token header, for scripts). A POST, PUT,
// PATCH or DELETE whose token is missing or differs from the session's is
// refused with 403 before any handler runs. Another site can make a
// browser post to us with our cookies, but it cannot read our pages, so
// it cannot know the token. The comparison is constant-time so response
// timing does not reveal how many leading bytes of a guess were right.
//
// The token is replaced at login, so a token seen before login (by a
// script planted on a shared computer, say) is worthless afterwards, and a
// logout destroys the session and its token.

package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/sessions"
)

// csrfField is both the form field and the session key of the token.
const csrfField = "csrf_token"

// newCSRFToken returns a fresh random token.
func newCSRFToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; if it ever
		// does, serving forms with a guessable token would be worse.
		panic("csrf: crypto/rand: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// csrfToken returns the session's token, creating it on first use.
func csrfToken(sess *sessions.Session) string {
	if tok := sess.GetString(csrfField, ""); tok != "" {
		return tok
	}
	tok := newCSRFToken()
	sess.Set(csrfField, tok)
	return tok
}

// rotateCSRFToken gives the session a new token (at login).
func rotateCSRFToken(sess *sessions.Session) {
	sess.Set(csrfField, newCSRFToken())
}

// validCSRF reports whether sent matches the session's token. An empty
// token never matches, even if the session has none yet.
func validCSRF(sess *sessions.Session, sent string) bool {
	want := sess.GetString(csrfField, "")
	if want == "" || sent == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(sent), []byte(want)) == 1
}

// csrfProtect is middleware: it gives the page its token and refuses
// state-changing requests without the right one.
func csrfProtect(ctx *vireo.Context) {
	sess := sessions.Get(ctx)
	ctx.ViewData("CSRFToken", csrfToken(sess))
	switch ctx.Method() {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		ctx.Next()
		return
	}
	sent := ctx.RequestHeader("X-CSRF-Token")
	if sent == "" {
		sent = ctx.PostValue(csrfField)
	}
	if !validCSRF(sess, sent) {
		ctx.StopWithError(vireo.NewHTTPError(http.StatusForbidden, "invalid or missing CSRF token"))
		return
	}
	ctx.Next()
}
