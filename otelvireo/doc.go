// Package otelvireo instruments a Vireo application with OpenTelemetry:
// a server span and the HTTP server metrics of the semantic conventions
// for every request, named and labelled by the route pattern Vireo matched
// ("GET /users/{id}"), never by the raw path, so that spans group by
// endpoint and the number of metric series stays bounded whatever paths
// clients send.
//
//	mw, err := otelvireo.New() // the global tracer and meter providers, propagator
//	app.UseBeforeRouting(mw)  // before routing: unmatched requests get a span too
//
// The middleware extracts the W3C trace context (traceparent, tracestate)
// and baggage through the propagator, starts a span of kind server, and
// makes the span's context the request's, so that ctx.Request().Context()
// carries it to outgoing calls (an otelhttp transport, a database driver)
// and to the log lines of the handler (see NewLogHandler). The span ends,
// and the metrics are recorded, once the response is finished
// (core.Context.OnDone): after the error page of an error status and after
// the 500 the application writes for a panic, which the span records as
// an exception event with its stack.
//
// The span starts before routing, named after the method alone ("GET");
// once the route is known it is renamed "GET /users/{id}" and gets
// http.route. Unmatched requests keep the method name and no http.route.
// A sampler therefore sees the method, url.path and the other request
// attributes, not the route.
//
// Metrics (the meter "github.com/vireo-go/vireo/otelvireo"):
//
//	http.server.request.duration      histogram, s, the recommended buckets
//	http.server.active_requests       up-down counter, {request}
//	http.server.request.body.size     histogram, By (the declared Content-Length)
//	http.server.response.body.size    histogram, By (the body bytes written)
//
// The first, third and fourth carry http.request.method, url.scheme,
// http.response.status_code, http.route (matched requests only) and
// error.type (5xx); active_requests carries the method and the scheme.
// Methods outside the standard ones are reported as "_OTHER", as the
// conventions ask. The attribute sets are built once per route, method,
// scheme and status and reused, so a request records its metrics without
// building attributes.
//
// The API's no-op providers (trace/noop, metric/noop) are recognized: with
// a no-op tracer provider no span is started and the caller's extracted
// context is what the handler gets, as a no-op tracer would pass it on;
// with both no-op the middleware only extracts the caller's context, and
// costs no allocation.
//
// Requests the filter rejects are neither traced nor measured; the default
// filter rejects the health endpoints (health.LivePath, health.ReadyPath).
//
// Prometheus: the otelprom package serves these metrics at /metrics.
//
// Cost, measured in _benchmarks (`go run ./cmd/bench instructions -apps
// vireo,vireo-otel-noop,vireo-otel,chi,chi-otel simple otel`: user-space
// instructions per request under callgrind, GET /api/values/5): with every
// span sampled and batched and the four metrics recorded, a request costs
// about 78,800 instructions against 39,700 for the same app without the
// middleware, and chi inside otelhttp.NewHandler with the same SDK about
// 114,000 (41,500 without); 11 allocations (3 KB) a request against
// otelhttp's 42 (6.7 KB). With the no-op providers the middleware is within
// the run-to-run spread of the plain app (39,788 against 39,739).
package otelvireo
