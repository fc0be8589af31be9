// A standard net/http middleware, written without any knowledge of Vireo:
// it gives each request an ID, kept in the request's context.Context and
// echoed in the X-Request-ID response header. main.go mounts it with
// vireo.FromStd, which is how any func(http.Handler) http.Handler
// middleware (gorilla/handlers, rs/cors, chi's middleware...) is used.

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

type requestIDKey struct{}

// requestID is net/http middleware that assigns a request ID: the
// client's X-Request-ID when it sends a sane one, else a random one.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if !saneID(id) {
			var b [8]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// requestIDFrom returns the ID requestID stored in r's context.
func requestIDFrom(r *http.Request) string {
	id, _ := r.Context().Value(requestIDKey{}).(string)
	return id
}

// saneID accepts short IDs of letters, digits and dashes, so a client
// cannot inject arbitrary text into logs and pages.
func saneID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
