// Test helpers: an application instrumented with an SDK tracer provider
// (in-memory exporter) and meter provider (manual reader).

package otelvireo_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/otelvireo"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// rig is an instrumented application and what it exported.
type rig struct {
	app    *core.Application
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
}

var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

func newRig(t *testing.T, opts ...otelvireo.Option) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	r.mp = mp
	t.Cleanup(func() { r.tp.Shutdown(context.Background()); mp.Shutdown(context.Background()) })
	mw, err := otelvireo.New(append([]otelvireo.Option{
		otelvireo.WithTracerProvider(r.tp), otelvireo.WithMeterProvider(mp), otelvireo.WithPropagator(propagator),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	r.app = core.New(core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	r.app.UseBeforeRouting(mw)
	return r
}

// metrics collects the metrics, by name.
func (r *rig) metrics(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// attrMap returns attrs as a map of key to emitted value.
func attrMap(attrs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, a := range attrs {
		m[string(a.Key)] = a.Value.String()
	}
	return m
}
