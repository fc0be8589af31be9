// Package middleware holds Vireo middleware, one file a middleware: CORS,
// compression, request IDs, timeouts, basic and bearer authentication, rate
// limiting, secure headers and CSRF protection.
//
// Every middleware is built by a constructor taking functional options,
// X(opts ...XOption) (core.Handler, error), with a MustX twin that panics on
// an invalid option. Install router-wide middleware (CORS, request IDs,
// compression) with Application.UseRouter so that unmatched requests and
// error pages get it too, and the rest with Use or on a party.
//
// # Cost
//
// Measured with go test -bench . -benchmem on the reference machine (2
// cores), per request, middleware alone (a handler writing nothing):
//
//	see the Benchmark functions beside each middleware; figures below
package middleware
