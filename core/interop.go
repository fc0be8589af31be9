// net/http interoperability.
//
// FromHTTP runs an http.Handler as a Vireo handler; FromStd runs a
// func(http.Handler) http.Handler middleware in a Vireo chain. The
// middleware is wrapped once, when FromStd is called, around a "next"
// handler that continues the chain: the request reaches it carrying the
// Context in its context.Context, so nothing is re-wrapped per request.
// Whatever the middleware changes (a new request, a wrapped writer) is what
// the rest of the chain sees.

package core

import (
	"context"
	"net/http"
	"strings"
)

type contextKey struct{}

// FromHTTP returns a Handler that serves h. With WithPathValues, h can read
// route parameters with r.PathValue.
func FromHTTP(h http.Handler) Handler {
	return func(c *Context) {
		h.ServeHTTP(c.out, c.request)
	}
}

// FromStd adapts net/http middleware (gorilla/handlers, rs/cors, chi
// middleware...) to a Vireo Handler.
func FromStd(mw func(http.Handler) http.Handler) Handler {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(contextKey{}).(*Context)
		if c == nil || !c.live {
			return // the middleware called next outside the request
		}
		// The rest of the chain sees the middleware's request and writer;
		// the writer is restored for the middleware's own code after next.
		prevOut := c.out
		c.request, c.out = r, w
		c.Next()
		c.out = prevOut
	})
	h := mw(next)
	return func(c *Context) {
		r := c.request.WithContext(context.WithValue(c.request.Context(), contextKey{}, c))
		h.ServeHTTP(c.out, r)
	}
}

// mountHandler strips prefix from the path and serves h.
func mountHandler(prefix string, h http.Handler) Handler {
	return func(c *Context) {
		r := c.request
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		r2.URL = &u
		u.Path = strings.TrimPrefix(r.URL.Path, prefix)
		if u.Path == "" || u.Path[0] != '/' {
			u.Path = "/" + u.Path
		}
		if r.URL.RawPath != "" {
			u.RawPath = strings.TrimPrefix(r.URL.RawPath, prefix)
			if u.RawPath == "" || u.RawPath[0] != '/' {
				u.RawPath = "/" + u.RawPath
			}
		}
		h.ServeHTTP(c.out, r2)
	}
}
