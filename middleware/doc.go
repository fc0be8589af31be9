// Package middleware holds Vireo middleware, one file a middleware:
// request logging, CORS, compression, request decompression, request IDs,
// timeouts, basic and bearer authentication, rate limiting, secure headers
// and CSRF protection.
//
// Every middleware is built by a constructor taking functional options,
// X(opts ...XOption) (core.Handler, error), with a MustX twin that panics on
// an invalid option. Install router-wide middleware (request IDs, CORS,
// secure headers, compression) with Application.UseBeforeRouting so that
// unmatched requests, preflights and error pages get it too, and the rest
// with Use, on a group or on a route.
//
//	app.UseBeforeRouting(
//		middleware.MustRequestID(),
//		middleware.MustSecureHeaders(),
//		middleware.MustCORS(middleware.WithAllowedOrigins("https://app.example.com")),
//		middleware.MustCompress(),
//		middleware.MustRateLimit(middleware.WithRate(100, 100)),
//	)
//	app.Get("/report", middleware.MustTimeout(2*time.Second), report)
//
// # Safe defaults
//
// The security middleware refuses unsafe configurations at construction
// and defaults to the strict choice, each for a reason an attacker gave:
//
//   - CORS: "*" with credentials is an error (any site could read a
//     logged-in user's responses); "*" alone answers a static "*" with no
//     Vary; the null origin is allowed only when listed exactly; Vary:
//     Origin goes on every answer that depends on the origin.
//   - CSRF: the double-submit cookie is signed with a server key (a
//     planted cookie is no token), bound to the session when one is
//     given, named __Host-csrf over HTTPS; unsafe requests from another
//     origin (Sec-Fetch-Site, Origin) are refused before the token is
//     looked at; the token is masked afresh in every response, so a
//     compressed page does not leak it (BREACH, see Compress).
//   - Decompress: the decoded size of a compressed request body is
//     bounded (core.DefaultBodyLimit by default), so a gzip bomb of a few
//     kilobytes is answered 413 after decoding at most the limit; unknown
//     encodings get 415.
//
// # Several instances
//
// Behind a load balancer, RateLimit's default store counts per instance,
// so n instances let n times the rate through; the Redis store of the
// module github.com/vireo-go/vireo/middleware/ratelimit/redis shares the
// buckets (one atomic script per request, the same headers), and fails
// closed (503) while Redis is down unless RateLimit is given WithFailOpen.
// The client address behind the balancer comes from
// core.WithTrustedProxies; CSRF tokens work across instances with the
// default cookie store when every instance has the same
// CSRFCookieStore.Key (the default key is random per process), or kept in
// a shared session (see _examples/cluster).
//
// # Cost
//
// go test -bench . -benchmem, per request through an Application whose
// handler writes nothing, on the reference machine (2-core VM, shared with
// other work, so the times are approximate; the allocations are exact):
//
//	RequestID, trusted incoming ID        ~175 ns   0 allocs
//	RequestID, generated                  ~285 ns   2 allocs (the ID and its header slice)
//	CORS, allowed exact origin            ~130 ns   0 allocs
//	CORS, preflight                       ~470 ns   0 allocs
//	SecureHeaders                         ~135 ns   0 allocs
//	the four above, no Accept-Encoding   ~1.1 µs   0 allocs (BenchmarkStack)
//	CSRF, safe method                     ~105 ns   0 allocs
//	RateLimit, RateMemoryStore            ~560 ns   0 allocs
//	BasicAuth                             ~700 ns   3 allocs
//	BearerAuth                            ~265 ns   1 alloc
//	Timeout                               ~2.5 µs  11 allocs (goroutine, context, buffer)
//	Compress, 1 KB JSON: gzip ~8 µs, zstd ~7 µs, br ~26 µs, none ~225 ns; 0 allocs beyond the handler's
//
// A request of the baseline application costs about 30 ns and no
// allocation. In the _benchmarks module, the stack request ID + CORS +
// secure headers + gzip on a 1 KB JSON response costs 202 thousand
// instructions per request on Vireo, 388 thousand on chi (chi/middleware
// and rs/cors) and 387 thousand on Echo (its built-in middleware), counted
// by callgrind (bench instructions -n 5000 middleware). Most of the
// difference is gzip itself: klauspost/compress, which Compress uses,
// compresses that body in about a third of the time of compress/gzip.
package middleware
