// Command vireo-otel-noop is the otel comparison on Vireo with tracing and
// metrics off: the otelvireo middleware with the OpenTelemetry API's no-op
// tracer and meter providers in front of the simple app's handler. Its
// count against the vireo app is what the middleware costs when it is
// installed but switched off.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/otelvireo"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

func main() {
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	app := vireo.New()
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithTracerProvider(tracenoop.NewTracerProvider()),
		otelvireo.WithMeterProvider(metricnoop.NewMeterProvider()), otelvireo.WithPropagator(prop)))
	app.Get("/api/values/{id}", func(ctx vireo.Context) {
		ctx.Text("value")
	})
	if err := app.Listen("127.0.0.1:" + port()); err != nil {
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
