// Command vireo-otel-noop is the otel comparison on Vireo with tracing and
// metrics off: the otelvireo middleware with the OpenTelemetry API's no-op
// tracer and meter providers, and the propagator OpenTelemetry has when no
// SDK is set up (the global one, a no-op), in front of the simple app's
// handler. Its count against the vireo app is what the middleware costs
// when it is installed but switched off.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/otelvireo"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

func main() {
	app := vireo.New()
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithTracerProvider(tracenoop.NewTracerProvider()),
		otelvireo.WithMeterProvider(metricnoop.NewMeterProvider())))
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
