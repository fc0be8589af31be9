package middleware

import (
	"net/http/httptest"
	"testing"
)

// BenchmarkStack is the middleware comparison's stack (request ID, CORS,
// security headers, compression) in front of a handler writing nothing,
// for a client sending an Origin, a request ID and no Accept-Encoding: the
// per-request cost of the headers alone.
func BenchmarkStack(b *testing.B) {
	app := benchApp(b, MustRequestID(), MustCORS(WithAllowedOrigins("http://localhost:3000")), MustSecureHeaders(), MustCompress())
	req := httptest.NewRequest("GET", "/data", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("X-Request-ID", "0123456789abcdef")
	runBench(b, app, req)
}
