// Benchmarks of a request through the middleware: without it, with no-op
// providers (tracing and metrics off), and with the SDK (every span
// sampled, batched to an exporter that drops them; metrics aggregated),
// beside otelhttp around a plain ServeMux with the same SDK. Allocations
// are reported; instruction counts per request are in _benchmarks
// (`go run ./cmd/bench instructions otel`).

package otelvireo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/otelvireo"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// dropExporter drops the spans it is given.
type dropExporter struct{}

func (dropExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropExporter) Shutdown(context.Context) error                             { return nil }

// benchWriter is a ResponseWriter that keeps nothing.
type benchWriter struct{ h http.Header }

func (w *benchWriter) Header() http.Header         { return w.h }
func (w *benchWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *benchWriter) WriteHeader(int)             {}

func sdkProviders(b *testing.B) (*sdktrace.TracerProvider, *sdkmetric.MeterProvider) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(dropExporter{}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { tp.Shutdown(context.Background()); mp.Shutdown(context.Background()) })
	return tp, mp
}

func benchServe(b *testing.B, h http.Handler) {
	req := httptest.NewRequest("GET", "/api/values/5", nil)
	w := &benchWriter{h: http.Header{}}
	h.ServeHTTP(w, req)
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, req)
	}
}

func vireoApp(mw ...core.Handler) *core.Application {
	app := core.New()
	app.UseBeforeRouting(mw...)
	app.Get("/api/values/{id}", func(ctx core.Context) { ctx.WriteString("value") })
	return app
}

func BenchmarkVireo(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchServe(b, vireoApp()) })
	b.Run("empty-middleware", func(b *testing.B) { benchServe(b, vireoApp(func(ctx core.Context) { ctx.Next() })) })
	b.Run("noop", func(b *testing.B) {
		benchServe(b, vireoApp(otelvireo.MustNew(
			otelvireo.WithTracerProvider(tracenoop.NewTracerProvider()), otelvireo.WithMeterProvider(metricnoop.NewMeterProvider()))))
	})
	b.Run("sdk", func(b *testing.B) {
		tp, mp := sdkProviders(b)
		benchServe(b, vireoApp(otelvireo.MustNew(otelvireo.WithTracerProvider(tp), otelvireo.WithMeterProvider(mp))))
	})
}

func BenchmarkOtelhttpServeMux(b *testing.B) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/values/{id}", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("value")) })
	tp, mp := sdkProviders(b)
	benchServe(b, otelhttp.NewHandler(mux, "server", otelhttp.WithTracerProvider(tp), otelhttp.WithMeterProvider(mp)))
}
