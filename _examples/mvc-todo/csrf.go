// CSRF protection with a synchronizer token, by middleware.CSRF.
//
// Each session holds a random token. Every page gets a function
// .CSRFToken that returns it, and every form calls it
// ({{ call .CSRFToken }}) and sends it back in a hidden csrf_token field (or an
// X-CSRF-Token header, for scripts). middleware.CSRF refuses a POST, PUT,
// PATCH or DELETE whose token is missing or differs from the session's
// with 403 before any handler runs, comparing in constant time. Another
// site can make a browser post to us with our cookies, but it cannot read
// our pages, so it cannot know the token.
//
// The middleware keeps the token wherever its CSRFStore says; here that
// is the session (sessionTokens), rather than the default double-submit
// cookie, so that a token is worth nothing once the session is gone. The
// token is replaced at login, so a token seen before login (by a script
// planted on a shared computer, say) is worthless afterwards, and a logout
// destroys the session and its token.
//
// Pages never show the token itself: middleware.CSRFToken masks it afresh
// for every call (a random pad and the token XORed with it), so that a
// compressed page does not leak it to a BREACH attacker; error pages,
// rendered outside the middleware, mask it with middleware.MaskCSRFToken.
//
// The token is made when a template first calls .CSRFToken, not when a
// request arrives: a page without a form (a 404, a redirect) creates no
// session, so anonymous traffic cannot fill the session store.

package main

import (
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/sessions"
)

// csrfField is the session key of the token (and, as middleware.CSRFField,
// the form field).
const csrfField = middleware.CSRFField

// sessionTokens is the middleware's CSRFStore over the request's session.
type sessionTokens struct{}

// Token returns the session's token, "" when it has none yet.
func (sessionTokens) Token(ctx vireo.Context) string {
	return sessions.Get(ctx).GetString(csrfField, "")
}

// SetToken stores a new token in the session.
func (sessionTokens) SetToken(ctx vireo.Context, token string) {
	sessions.Get(ctx).Set(csrfField, token)
}

// csrfProtect returns the CSRF middleware of the pages: it checks unsafe
// requests and gives every page the function that returns its token.
func csrfProtect() vireo.Handler {
	check := middleware.MustCSRF(middleware.WithCSRFStore(sessionTokens{}))
	return func(ctx vireo.Context) {
		ctx.SetViewData("CSRFToken", lazyToken(ctx))
		check(ctx) // continues the chain when the request passes
	}
}

// lazyToken returns the .CSRFToken of a page: a function that makes the
// token on its first call. Templates call it while the request is being
// answered; it must not be kept past that.
func lazyToken(ctx vireo.Context) func() string {
	return func() string { return csrfTokenOf(ctx) }
}

// csrfTokenOf returns the request's token, creating it on first use.
func csrfTokenOf(ctx vireo.Context) string {
	if tok := middleware.CSRFToken(ctx); tok != "" {
		return tok
	}
	// Outside the CSRF middleware (error pages of unmatched paths): the
	// same token, straight from the session, masked as the middleware
	// masks it.
	return middleware.MaskCSRFToken(csrfToken(sessions.Get(ctx)))
}

// csrfToken returns the session's token, creating it on first use.
func csrfToken(sess *sessions.Session) string {
	if tok := sess.GetString(csrfField, ""); tok != "" {
		return tok
	}
	return rotateCSRFToken(sess)
}

// rotateCSRFToken gives the session a new token (at login) and returns it.
func rotateCSRFToken(sess *sessions.Session) string {
	tok := middleware.NewCSRFToken()
	sess.Set(csrfField, tok)
	return tok
}
