package otelvireo_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/otelvireo"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func ExampleNew() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())

	app := core.New()
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithTracerProvider(tp), otelvireo.WithPropagator(propagation.TraceContext{})))
	app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("user " + ctx.Param("id")) })

	for _, path := range []string{"/users/7", "/users/8", "/nowhere"} {
		app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	for _, s := range spans.GetSpans() {
		route := "(none)"
		for _, a := range s.Attributes {
			if a.Key == "http.route" {
				route = a.Value.AsString()
			}
		}
		fmt.Printf("%s | http.route %s\n", s.Name, route)
	}
	// Output:
	// GET /users/{id} | http.route /users/{id}
	// GET /users/{id} | http.route /users/{id}
	// GET | http.route (none)
}

func ExampleWrapLogHandler() {
	text := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // no time, for a stable output
			}
			return a
		},
	})
	logger := slog.New(otelvireo.WrapLogHandler(text)).With("service", "users")

	// A span context as the middleware puts it on the request's context.
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:     trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7},
		TraceFlags: trace.FlagsSampled,
	})
	logger.InfoContext(trace.ContextWithSpanContext(context.Background(), sc), "loading user")
	logger.InfoContext(context.Background(), "no span")
	// Output:
	// level=INFO msg="loading user" service=users trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7
	// level=INFO msg="no span" service=users
}
