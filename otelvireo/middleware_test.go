// Tests of the spans: names and attributes by route, status, errors and
// panics, propagation, the request's context, the filter.

package otelvireo_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/health"
	"github.com/vireo-go/vireo/otelvireo"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

func TestSpans(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		path       string
		wantName   string
		wantStatus int
		wantCode   codes.Code
		want       map[string]string // attributes; "" means absent
		wantBody   string
	}{
		{"matched", "GET", "/users/7?x=1", "GET /users/{id}", 200, codes.Unset, map[string]string{
			"http.request.method": "GET", "http.route": "/users/{id}", "http.response.status_code": "200",
			"url.path": "/users/7", "url.scheme": "http", "server.address": "example.com", "server.port": "8080",
			"client.address": "192.0.2.1", "user_agent.original": "test-agent", "network.protocol.version": "1.1", "error.type": "",
		}, "user 7"},
		{"head on a get route", "HEAD", "/users/7", "HEAD /users/{id}", 200, codes.Unset, map[string]string{
			"http.request.method": "HEAD", "http.route": "/users/{id}",
		}, "user 7"}, // the recorder keeps what net/http would drop
		{"in a group", "POST", "/api/items", "POST /api/items", 201, codes.Unset, map[string]string{
			"http.route": "/api/items", "http.response.status_code": "201",
		}, "created"},
		{"unmatched", "GET", "/nowhere/42", "GET", 404, codes.Unset, map[string]string{
			"http.route": "", "http.response.status_code": "404", "url.path": "/nowhere/42",
		}, "Not Found"},
		{"method not allowed", "DELETE", "/users/7", "DELETE", 405, codes.Unset, map[string]string{
			"http.route": "", "http.response.status_code": "405",
		}, "Method Not Allowed"},
		{"unknown method", "BREW", "/users/7", "HTTP", 405, codes.Unset, map[string]string{
			"http.request.method": "_OTHER", "http.request.method_original": "BREW",
		}, "Method Not Allowed"},
		{"client error", "GET", "/fail/400", "GET /fail/{code:int}", 400, codes.Unset, map[string]string{
			"http.response.status_code": "400", "error.type": "",
		}, "Bad Request: bad input"},
		{"server error", "GET", "/fail/503", "GET /fail/{code:int}", 503, codes.Error, map[string]string{
			"http.response.status_code": "503", "error.type": "503",
		}, "custom 503 page"},
		{"panic", "GET", "/panic", "GET /panic", 500, codes.Error, map[string]string{
			"http.route": "/panic", "http.response.status_code": "500", "error.type": "500",
		}, "Internal Server Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			r.app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("user " + ctx.Param("id")) })
			r.app.Group("/api").Post("/items", func(ctx core.Context) { ctx.SetStatus(201); ctx.WriteString("created") })
			r.app.Get("/fail/{code:int}", func(ctx core.Context) {
				code, _ := ctx.Params().Int("code")
				ctx.StopWithError(core.NewHTTPError(code, "bad input"))
			})
			r.app.Get("/panic", func(ctx core.Context) { panic("boom") })
			// The error page runs while the span is still open: it adds an event.
			r.app.OnErrorCode(http.StatusServiceUnavailable, func(ctx core.Context) {
				span := trace.SpanFromContext(ctx.Request().Context())
				if !span.IsRecording() {
					t.Error("the span ended before the error page")
				}
				span.AddEvent("error page")
				ctx.WriteString("custom 503 page")
			})
			req := httptest.NewRequest(tt.method, "http://example.com:8080"+tt.path, nil)
			req.RemoteAddr = "192.0.2.1:5555"
			req.Header.Set("User-Agent", "test-agent")
			rec := httptest.NewRecorder()
			r.app.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus || rec.Body.String() != tt.wantBody {
				t.Fatalf("response %d %q, want %d %q", rec.Code, rec.Body.String(), tt.wantStatus, tt.wantBody)
			}
			spans := r.spans.GetSpans()
			if len(spans) != 1 {
				t.Fatalf("%d spans, want 1", len(spans))
			}
			s := spans[0]
			if s.Name != tt.wantName || s.SpanKind != trace.SpanKindServer || s.Status.Code != tt.wantCode {
				t.Fatalf("span %q kind %v status %v, want %q server %v", s.Name, s.SpanKind, s.Status, tt.wantName, tt.wantCode)
			}
			got := attrMap(s.Attributes)
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("attribute %s = %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
			if tt.name == "server error" && (len(s.Events) != 1 || s.Events[0].Name != "error page") {
				t.Errorf("events %v, want the error page's", s.Events)
			}
			if tt.name == "panic" {
				if len(s.Events) != 1 || s.Events[0].Name != "exception" {
					t.Fatalf("events %v, want one exception", s.Events)
				}
				ev := attrMap(s.Events[0].Attributes)
				if ev["exception.message"] != "boom" || ev["exception.type"] != "string" || !strings.Contains(ev["exception.stacktrace"], "middleware_test.go") {
					t.Errorf("exception event %v", ev)
				}
				if !strings.Contains(s.Status.Description, "panic: boom") {
					t.Errorf("status description %q", s.Status.Description)
				}
			}
		})
	}
}

// TestSpanEndsAfterPanicPage checks that the 500 page of a panic is written
// while the span is still open.
func TestSpanEndsAfterPanicPage(t *testing.T) {
	r := newRig(t)
	r.app.Get("/panic", func(ctx core.Context) { panic(errors.New("bug")) })
	r.app.OnErrorCode(http.StatusInternalServerError, func(ctx core.Context) {
		trace.SpanFromContext(ctx.Request().Context()).AddEvent("500 page")
		ctx.WriteString("sorry")
	})
	rec := httptest.NewRecorder()
	r.app.ServeHTTP(rec, httptest.NewRequest("GET", "/panic", nil))
	spans := r.spans.GetSpans()
	if rec.Code != 500 || rec.Body.String() != "sorry" || len(spans) != 1 {
		t.Fatalf("%d %q, %d spans", rec.Code, rec.Body.String(), len(spans))
	}
	var names []string
	for _, e := range spans[0].Events {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "exception,500 page" {
		t.Fatalf("events %v, want the exception then the 500 page", names)
	}
	if got := attrMap(spans[0].Events[0].Attributes)["exception.type"]; got != "*errors.errorString" {
		t.Errorf("exception.type %q", got)
	}
}

func TestPropagationAndRequestContext(t *testing.T) {
	r := newRig(t)
	var inHandler trace.SpanContext
	var bag string
	r.app.Get("/users/{id}", func(ctx core.Context) {
		inHandler = trace.SpanContextFromContext(ctx.Request().Context())
		bag = baggage.FromContext(ctx.Request().Context()).Member("tenant").Value()
		ctx.WriteString("ok")
	})
	req := httptest.NewRequest("GET", "/users/1", nil)
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	req.Header.Set("tracestate", "vendor=abc")
	req.Header.Set("baggage", "tenant=acme")
	r.app.ServeHTTP(httptest.NewRecorder(), req)
	s := r.spans.GetSpans()[0]
	if s.SpanContext.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent.SpanID().String() != "00f067aa0ba902b7" || !s.Parent.IsRemote() {
		t.Fatalf("span trace %s parent %s remote %v", s.SpanContext.TraceID(), s.Parent.SpanID(), s.Parent.IsRemote())
	}
	if s.SpanContext.TraceState().Get("vendor") != "abc" {
		t.Errorf("tracestate %q", s.SpanContext.TraceState())
	}
	if inHandler.SpanID() != s.SpanContext.SpanID() || inHandler.TraceID() != s.SpanContext.TraceID() {
		t.Fatalf("the handler's context has span %s, the exported span is %s", inHandler.SpanID(), s.SpanContext.SpanID())
	}
	if bag != "acme" {
		t.Errorf("baggage member tenant = %q, want acme", bag)
	}
}

func TestFilter(t *testing.T) {
	tests := []struct {
		name      string
		opts      []otelvireo.Option
		path      string
		wantSpans int
	}{
		{"default skips liveness", nil, health.LivePath, 0},
		{"default skips readiness", nil, health.ReadyPath, 0},
		{"default traces the rest", nil, "/users/1", 1},
		{"custom", []otelvireo.Option{otelvireo.WithFilter(func(r *http.Request) bool {
			return otelvireo.DefaultFilter(r) && !strings.HasPrefix(r.URL.Path, "/users/")
		})}, "/users/1", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, tt.opts...)
			health.MustNew().Register(r.app)
			r.app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("ok") })
			rec := httptest.NewRecorder()
			r.app.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			if rec.Code != 200 || len(r.spans.GetSpans()) != tt.wantSpans {
				t.Fatalf("%d, %d spans, want 200 and %d", rec.Code, len(r.spans.GetSpans()), tt.wantSpans)
			}
			if tt.wantSpans == 0 {
				if m := r.metrics(t); len(m) != 0 {
					t.Fatalf("metrics recorded for a filtered request: %v", m)
				}
			}
		})
	}
}

func TestRouteLevelMiddlewareNamesAtStart(t *testing.T) {
	r := newRig(t)
	app := core.New()
	app.Use(otelvireo.MustNew(otelvireo.WithTracerProvider(r.tp)))
	app.Get("/items/{id}", func(ctx core.Context) {
		if s, ok := trace.SpanFromContext(ctx.Request().Context()).(interface{ Name() string }); ok && s.Name() != "GET /items/{id}" {
			t.Errorf("span named %q while the handler runs", s.Name())
		}
	})
	app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/items/3", nil))
	if s := r.spans.GetSpans(); len(s) != 1 || s[0].Name != "GET /items/{id}" {
		t.Fatalf("spans %v", s)
	}
}

func TestNewRejectsNil(t *testing.T) {
	for _, opt := range []otelvireo.Option{nil, otelvireo.WithTracerProvider(nil), otelvireo.WithMeterProvider(nil), otelvireo.WithPropagator(nil), otelvireo.WithFilter(nil)} {
		if h, err := otelvireo.New(opt); err == nil || h != nil {
			t.Errorf("New accepted a nil: %v", err)
		}
	}
}

// TestNoopProviders checks the middleware with the API's no-op providers:
// no span of its own, the caller's trace context still reaches the handler
// (as a no-op tracer passes it on), an outer span is left alone, and with
// metrics on they are still recorded.
func TestNoopProviders(t *testing.T) {
	outer := newRig(t) // its tracer plays an outer instrumentation
	tests := []struct {
		name        string
		metricsOn   bool
		traceparent string
		outerSpan   bool
	}{
		{"both off", false, "", false},
		{"both off, caller's context", false, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"tracing off, metrics on", true, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"tracing off under an outer span", true, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			opts := []otelvireo.Option{otelvireo.WithTracerProvider(tracenoop.NewTracerProvider()), otelvireo.WithPropagator(propagator)}
			if !tt.metricsOn {
				opts = append(opts, otelvireo.WithMeterProvider(metricnoop.NewMeterProvider()))
			} else {
				opts = append(opts, otelvireo.WithMeterProvider(r.mp))
			}
			app := core.New()
			app.UseBeforeRouting(otelvireo.MustNew(opts...))
			var seen trace.SpanContext
			app.Get("/x/{id}", func(ctx core.Context) { seen = trace.SpanContextFromContext(ctx.Request().Context()) })
			req := httptest.NewRequest("GET", "/x/1", nil)
			if tt.traceparent != "" {
				req.Header.Set("traceparent", tt.traceparent)
			}
			var outerSpan trace.Span
			if tt.outerSpan {
				var c context.Context
				c, outerSpan = outer.tp.Tracer("outer").Start(context.Background(), "outer")
				req = req.WithContext(c)
			}
			app.ServeHTTP(httptest.NewRecorder(), req)
			if tt.traceparent != "" && seen.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
				t.Errorf("the handler's context has trace %s, want the caller's", seen.TraceID())
			}
			if tt.traceparent == "" && !tt.outerSpan && seen.IsValid() {
				t.Errorf("a span context %v appeared from nowhere", seen)
			}
			if tt.outerSpan {
				if !outerSpan.IsRecording() {
					t.Fatal("the middleware ended the outer span")
				}
				outerSpan.End()
				if s := outer.spans.GetSpans(); len(s) != 1 || s[0].Name != "outer" || len(s[0].Attributes) != 0 {
					t.Fatalf("the outer span was changed: %v", s)
				}
			}
			if tt.metricsOn {
				if _, ok := r.metrics(t)["http.server.request.duration"]; !ok {
					t.Error("no duration recorded with metrics on")
				}
			}
		})
	}
}

// pathSampler drops the spans of paths under /internal/, deciding on the
// attributes the span starts with.
type pathSampler struct{ seen []string }

func (s *pathSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	for _, a := range p.Attributes {
		if a.Key == "url.path" {
			s.seen = append(s.seen, p.Name+" "+a.Value.AsString())
			if strings.HasPrefix(a.Value.AsString(), "/internal/") {
				return sdktrace.SamplingResult{Decision: sdktrace.Drop}
			}
		}
	}
	return sdktrace.SamplingResult{Decision: sdktrace.RecordAndSample}
}

func (*pathSampler) Description() string { return "pathSampler" }

func TestSamplerSeesRequestAttributes(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	sampler := &pathSampler{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans), sdktrace.WithSampler(sampler))
	defer tp.Shutdown(context.Background())
	app := core.New()
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithTracerProvider(tp)))
	app.Get("/internal/{x}", func(ctx core.Context) { ctx.WriteString("i") })
	app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("u") })
	for _, p := range []string{"/internal/stats", "/users/1"} {
		app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}
	if got := strings.Join(sampler.seen, ","); got != "GET /internal/stats,GET /users/1" {
		t.Fatalf("the sampler saw %q", got)
	}
	if s := spans.GetSpans(); len(s) != 1 || s[0].Name != "GET /users/{id}" {
		t.Fatalf("spans %v, want only the sampled one", s)
	}
}
