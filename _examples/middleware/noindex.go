// A standard net/http middleware, written without any knowledge of Vireo:
// it asks search engines not to index what it serves. main.go mounts it on
// the admin group with vireo.WrapMiddleware, which is how any
// func(http.Handler) http.Handler middleware (gorilla/handlers, rs/cors,
// chi's middleware...) is used.

package main

import "net/http"

// noIndex sets X-Robots-Tag: noindex, nofollow and calls next.
func noIndex(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		next.ServeHTTP(w, r)
	})
}
