// Command vireo-otel is the otel comparison on Vireo: the simple app's
// GET /api/values/{id} behind the otelvireo middleware (installed with
// UseBeforeRouting), tracing and metrics on: every request gets a sampled server
// span, batched (sdktrace.WithBatcher) to an exporter that drops it, and
// records the HTTP server metrics into the SDK's aggregation (a manual
// reader, never collected). chi-otel sets up the same SDK.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/otelvireo"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// dropExporter drops the spans it is given: the measurement is the
// instrumentation's, not an exporter's network work.
type dropExporter struct{}

func (dropExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropExporter) Shutdown(context.Context) error                             { return nil }

// newApp returns the instrumented application; main serves it, the
// benchmark beside it counts its allocations.
func newApp() *vireo.Application {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(dropExporter{}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

	app := vireo.New()
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithTracerProvider(tp), otelvireo.WithMeterProvider(mp), otelvireo.WithPropagator(prop)))
	app.Get("/api/values/{id}", func(ctx vireo.Context) {
		ctx.Text("value")
	})
	return app
}

func main() {
	if err := newApp().Listen("127.0.0.1:" + port()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func port() string {
	if p := os.Getenv("PORT"); p != "" {
		return p
	}
	return "5000"
}
