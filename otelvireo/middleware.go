// The middleware: a server span and the HTTP server metrics per request.
//
// Per request: the filter; the propagator extracts the caller's context
// from the headers; the span starts with the request's attributes (for the
// sampler to see); the
// request gets the span's context; active_requests goes up; a pooled
// record of the request is registered as the Context's done hook; the
// chain runs under a deferred recover that adds a panic to the span (and
// panics on, for the application to answer). The done hook runs once the
// response is finished: it names the span after the route, sets the status
// attributes, ends the span, records duration and body sizes with the
// cached attribute sets (attrs.go), brings active_requests down and puts
// the record back into the pool.

package otelvireo

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/vireo-go/vireo/core"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of the middleware's tracer and
// meter.
const ScopeName = "github.com/vireo-go/vireo/otelvireo"

// durationBuckets are the boundaries the semantic conventions recommend
// for http.server.request.duration, in seconds.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// sizeBuckets are boundaries for the body sizes, in bytes.
var sizeBuckets = []float64{0, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216}

type middleware struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	filter     func(*http.Request) bool

	duration     metric.Float64Histogram
	active       metric.Int64UpDownCounter
	requestSize  metric.Int64Histogram
	responseSize metric.Int64Histogram

	entries  entryCache
	requests sync.Pool // of *request
	kindOpt  trace.SpanStartOption

	// The API's no-op providers, recognized: no span is started (the
	// caller's context still reaches the handler, as a no-op tracer's
	// Start would pass it on) and no metric is recorded.
	tracingOff, metricsOff bool
}

// New returns the middleware; install it with app.UseBeforeRouting, so that
// unmatched requests are traced too, ahead of the request logger so that
// its lines carry the trace. It returns an error for a nil option or
// provider, or when an instrument cannot be created.
func New(opts ...Option) (core.Handler, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	m := &middleware{
		tracer:     cfg.tracerProvider.Tracer(ScopeName, trace.WithInstrumentationVersion(Version), trace.WithSchemaURL(semconv.SchemaURL)),
		propagator: cfg.propagator,
		filter:     cfg.filter,
		kindOpt:    trace.WithSpanKind(trace.SpanKindServer),
	}
	meter := cfg.meterProvider.Meter(ScopeName, metric.WithInstrumentationVersion(Version), metric.WithSchemaURL(semconv.SchemaURL))
	if m.duration, err = meter.Float64Histogram("http.server.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP server requests."),
		metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return nil, fmt.Errorf("otelvireo: %w", err)
	}
	if m.active, err = meter.Int64UpDownCounter("http.server.active_requests", metric.WithUnit("{request}"),
		metric.WithDescription("Number of active HTTP server requests.")); err != nil {
		return nil, fmt.Errorf("otelvireo: %w", err)
	}
	if m.requestSize, err = meter.Int64Histogram("http.server.request.body.size", metric.WithUnit("By"),
		metric.WithDescription("Size of HTTP server request bodies."),
		metric.WithExplicitBucketBoundaries(sizeBuckets...)); err != nil {
		return nil, fmt.Errorf("otelvireo: %w", err)
	}
	if m.responseSize, err = meter.Int64Histogram("http.server.response.body.size", metric.WithUnit("By"),
		metric.WithDescription("Size of HTTP server response bodies."),
		metric.WithExplicitBucketBoundaries(sizeBuckets...)); err != nil {
		return nil, fmt.Errorf("otelvireo: %w", err)
	}
	_, m.tracingOff = cfg.tracerProvider.(tracenoop.TracerProvider)
	_, m.metricsOff = cfg.meterProvider.(metricnoop.MeterProvider)
	m.requests.New = func() any { return &request{m: m} }
	return m.serve, nil
}

// MustNew is New that panics on error.
func MustNew(opts ...Option) core.Handler {
	h, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// request is one request in flight: the done hook of its Context.
type request struct {
	m        *middleware
	ctx      context.Context // the span's
	span     trace.Span
	start    time.Time
	method   string // normalized
	https    bool
	reqSize  int64 // the declared Content-Length, -1 when unknown
	panicked any
	attrs    [10]attribute.KeyValue
	opts     [2]trace.SpanStartOption // of Start, kept to spare the variadic slice
}

func (m *middleware) serve(ctx core.Context) {
	r := ctx.Request()
	if r == nil || !m.filter(r) {
		ctx.Next()
		return
	}
	parent := m.propagator.Extract(r.Context(), headerCarrier(r.Header))
	if m.tracingOff && m.metricsOff {
		if parent != r.Context() {
			ctx.SetRequest(r.WithContext(parent))
		}
		ctx.Next()
		return
	}
	rq := m.requests.Get().(*request)
	rq.start = time.Now()
	rq.method = normalMethod(r.Method)
	rq.https = ctx.Scheme() == "https"
	rq.reqSize = r.ContentLength
	if m.tracingOff {
		rq.ctx = parent // rq.span stays nil: there is no span of ours
		if parent != r.Context() {
			ctx.SetRequest(r.WithContext(parent))
		}
	} else {
		rq.startSpan(ctx, r, parent)
	}
	if !m.metricsOff {
		m.active.Add(rq.ctx, 1, m.entries.get(entryKey{method: rq.method, https: rq.https}).addition...)
	}
	ctx.OnDone(rq)
	defer rq.recordPanic()
	ctx.Next()
}

// startSpan starts the request's span, child of parent, and makes its
// context the request's.
func (rq *request) startSpan(ctx core.Context, r *http.Request, parent context.Context) {
	m := rq.m
	name := rq.method
	if name == otherMethod {
		name = "HTTP"
	}
	if rt := ctx.Route(); rt != nil { // installed with Use: the route is known
		name = m.entries.get(entryKey{route: rt, method: rq.method, https: rq.https, status: http.StatusOK}).name
	}
	// The request's attributes go in at the start, where a sampler sees
	// them, as the semantic conventions ask.
	rq.opts[0], rq.opts[1] = m.kindOpt, trace.WithAttributes(rq.requestAttrs(ctx, r)...)
	spanCtx, span := m.tracer.Start(parent, name, rq.opts[:]...)
	rq.opts[1] = nil
	rq.ctx, rq.span = spanCtx, span
	ctx.SetRequest(r.WithContext(spanCtx))
}

// requestAttrs fills rq.attrs with the span attributes the request brings.
func (rq *request) requestAttrs(ctx core.Context, r *http.Request) []attribute.KeyValue {
	a := rq.attrs[:0]
	a = append(a, semconv.HTTPRequestMethodKey.String(rq.method))
	if rq.method == otherMethod {
		a = append(a, semconv.HTTPRequestMethodOriginalKey.String(r.Method))
	}
	scheme := "http"
	if rq.https {
		scheme = "https"
	}
	a = append(a, semconv.URLPathKey.String(r.URL.Path), semconv.URLSchemeKey.String(scheme))
	if host := ctx.Host(); host != "" {
		h, p, err := net.SplitHostPort(host)
		if err != nil {
			h, p = host, ""
		}
		a = append(a, semconv.ServerAddressKey.String(h))
		if port, err := strconv.Atoi(p); err == nil {
			a = append(a, semconv.ServerPortKey.Int(port))
		}
	}
	if addr := ctx.ClientIP(); addr != "" {
		a = append(a, semconv.ClientAddressKey.String(addr))
	}
	if ua := r.UserAgent(); ua != "" {
		a = append(a, semconv.UserAgentOriginalKey.String(ua))
	}
	switch r.ProtoMajor {
	case 1:
		if r.ProtoMinor == 0 {
			a = append(a, semconv.NetworkProtocolVersionKey.String("1.0"))
		} else {
			a = append(a, semconv.NetworkProtocolVersionKey.String("1.1"))
		}
	case 2:
		a = append(a, semconv.NetworkProtocolVersionKey.String("2"))
	case 3:
		a = append(a, semconv.NetworkProtocolVersionKey.String("3"))
	}
	return a
}

// recordPanic adds a panic of the chain to the span as an exception event
// and panics on with the same value, for the application to log and answer
// with a 500 (the done hook then ends the span).
func (rq *request) recordPanic() {
	rec := recover()
	if rec == nil {
		return
	}
	rq.panicked = rec
	if rec != http.ErrAbortHandler && rq.span != nil && rq.span.IsRecording() {
		rq.span.AddEvent(semconv.ExceptionEventName, trace.WithAttributes(
			semconv.ExceptionTypeKey.String(fmt.Sprintf("%T", rec)),
			semconv.ExceptionMessageKey.String(fmt.Sprint(rec)),
			semconv.ExceptionStacktraceKey.String(string(debug.Stack())),
		))
	}
	panic(rec)
}

// Done ends the span and records the metrics of the finished response,
// then puts rq back into the pool.
func (rq *request) Done(ctx core.Context) {
	m := rq.m
	status := ctx.Status()
	route := ctx.Route()
	e := m.entries.get(entryKey{route: route, method: rq.method, https: rq.https, status: status})
	if rq.span != nil {
		rq.endSpan(e, route != nil, status)
	}
	if !m.metricsOff {
		spanCtx := rq.ctx
		m.duration.Record(spanCtx, time.Since(rq.start).Seconds(), e.measure...)
		if rq.reqSize >= 0 {
			m.requestSize.Record(spanCtx, rq.reqSize, e.measure...)
		}
		m.responseSize.Record(spanCtx, ctx.BytesWritten(), e.measure...)
		m.active.Add(spanCtx, -1, m.entries.get(entryKey{method: rq.method, https: rq.https}).addition...)
	}
	*rq = request{m: m}
	m.requests.Put(rq)
}

// endSpan names the span after its route, sets the response attributes
// and ends it.
func (rq *request) endSpan(e *entry, routed bool, status int) {
	span := rq.span
	if span.IsRecording() {
		if routed {
			span.SetName(e.name)
		}
		span.SetAttributes(e.spanEnd...)
		switch {
		case rq.panicked != nil:
			span.SetStatus(codes.Error, fmt.Sprint("panic: ", rq.panicked))
		case status >= 500:
			span.SetStatus(codes.Error, "")
		}
	}
	span.End()
}
