// The propagator's view of the request headers.
//
// propagation.HeaderCarrier reads a header with http.Header.Get, which
// canonicalizes the key on every call: the propagators ask for
// "traceparent", "tracestate" and "baggage" in lower case, and turning each
// into "Traceparent"... costs more than the rest of the no-op path. The
// carrier here answers those keys from their canonical forms, spelled out
// once, and every other key as HeaderCarrier does.

package otelvireo

import (
	"net/http"
	"net/textproto"
)

// headerCarrier is a propagation.TextMapCarrier over request headers.
type headerCarrier http.Header

// Get returns the first value of key.
func (h headerCarrier) Get(key string) string {
	var canonical string
	switch key {
	case "traceparent":
		canonical = "Traceparent"
	case "tracestate":
		canonical = "Tracestate"
	case "baggage":
		canonical = "Baggage"
	default:
		canonical = textproto.CanonicalMIMEHeaderKey(key)
	}
	if v := h[canonical]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Set sets key to value; extraction never calls it.
func (h headerCarrier) Set(key, value string) { http.Header(h).Set(key, value) }

// Keys lists the header names.
func (h headerCarrier) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	return keys
}
