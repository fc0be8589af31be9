// Command observability is a Vireo service with everything a production
// deployment watches: OpenTelemetry traces and metrics named by route,
// exported over OTLP as the standard OTEL_* environment variables say,
// Prometheus metrics at /metrics, JSON (or text) logs carrying the trace
// and span IDs, liveness and readiness probes, and the runtime profiles on
// a separate, guarded listener.
//
//	cd _examples/observability
//	OTEL_TRACES_EXPORTER=none OTEL_METRICS_EXPORTER=none go run .
//	curl -i http://127.0.0.1:8080/users/42
//	curl http://127.0.0.1:8080/metrics | grep http_server_request_duration
//
// The contract, checked by its tests from outside:
//
//	GET /             200 text
//	GET /users/{id}   200 JSON {"id":"42","name":"user 42"}
//	GET /healthz      200 JSON liveness report
//	GET /readyz       200/503 JSON readiness report (the "warm-up" check)
//	GET /metrics      Prometheus text format
//
// Environment:
//
//	ADDR                     listen address (default 127.0.0.1:8080)
//	LOG_FORMAT               json (default) or text, on stderr
//	OTEL_SERVICE_NAME        service.name (default "observability-example")
//	OTEL_TRACES_EXPORTER     otlp (default), console or none
//	OTEL_METRICS_EXPORTER    otlp (default), console, prometheus or none;
//	                         /metrics is served whatever it says
//	OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL and the other
//	                         OTLP variables, OTEL_PROPAGATORS (default
//	                         tracecontext,baggage), OTEL_RESOURCE_ATTRIBUTES,
//	                         OTEL_TRACES_SAMPLER, OTEL_BSP_*, OTEL_METRIC_EXPORT_INTERVAL
//	DEBUG_ADDR, DEBUG_TOKEN  when both are set, /debug/pprof/ is served on
//	                         DEBUG_ADDR (use a loopback address) to requests
//	                         with "Authorization: Bearer $DEBUG_TOKEN"
//
// With OTEL_TRACES_EXPORTER=none and OTEL_METRICS_EXPORTER=none it needs
// no collector. On SIGINT or SIGTERM it stops taking requests, lets the
// ones in flight finish and flushes the spans and metrics still buffered.
//
// This example is a module of its own because OpenTelemetry's SDK and
// exporters are more than the framework's dependencies; its go.mod points
// at the framework and at otelvireo in this repository.
package main

import (
	"cmp"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/health"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/otelvireo"
	"github.com/vireo-go/vireo/otelvireo/otelprom"
	"github.com/vireo-go/vireo/pprof"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/propagators/autoprop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "observability:", err)
		os.Exit(1)
	}
}

func run() error {
	srv, err := newServer(context.Background())
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080"))
	if err != nil {
		return err
	}
	if srv.debug != nil {
		dln, err := net.Listen("tcp", os.Getenv("DEBUG_ADDR"))
		if err != nil {
			ln.Close()
			return err
		}
		go srv.debug.Serve(dln)
		srv.app.OnShutdown(func() { srv.debug.Shutdown(context.Background()) })
	}
	return srv.app.Serve(ln) // until SIGINT/SIGTERM; OnShutdown flushes the telemetry
}

// server is the application and what it owns.
type server struct {
	app   *core.Application
	debug *core.Application // the pprof listener's, when DEBUG_ADDR is set
	ready atomic.Bool       // the warm-up readiness check
}

// newServer builds the telemetry from the environment and the application
// on it; main serves it and the tests serve it on a port of their own.
func newServer(ctx context.Context) (*server, error) {
	tel, err := newTelemetry(ctx)
	if err != nil {
		return nil, err
	}
	format := otelvireo.LogJSON
	switch os.Getenv("LOG_FORMAT") {
	case "", "json":
	case "text":
		format = otelvireo.LogText
	default:
		return nil, fmt.Errorf("LOG_FORMAT %q: want json or text", os.Getenv("LOG_FORMAT"))
	}
	lh, err := otelvireo.NewLogHandler(os.Stderr, otelvireo.WithLogFormat(format))
	if err != nil {
		return nil, err
	}
	logger := slog.New(lh)

	s := &server{}
	app := core.New(core.WithLogger(logger))
	app.UseBeforeRouting(
		middleware.MustRequestID(),
		otelvireo.MustNew(otelvireo.WithTracerProvider(tel.tp), otelvireo.WithMeterProvider(tel.mp), otelvireo.WithPropagator(tel.propagator)),
		middleware.RequestLogger(logger),
	)
	app.Get("/", func(ctx core.Context) {
		ctx.WriteString("observability example: see /users/42, /metrics, /healthz, /readyz\n")
	})
	app.Get("/users/{id}", func(ctx core.Context) {
		id := ctx.Param("id")
		ctx.Logger().Info("loading user", "id", id) // carries trace_id and span_id
		ctx.JSON(map[string]string{"id": id, "name": "user " + id})
	})
	app.Get("/metrics", tel.prom.Handler())

	// Readiness: a user check (the service is warm once started) with a
	// timeout; a real service adds its database's PingContext and the
	// Redis session store's Ping here.
	s.ready.Store(true)
	checks, err := health.New(health.WithReadyCheck("warm-up", func(context.Context) error {
		if !s.ready.Load() {
			return errors.New("still warming up")
		}
		return nil
	}, time.Second))
	if err != nil {
		return nil, err
	}
	checks.Register(app)
	app.OnShutdown(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tel.shutdown(ctx); err != nil {
			logger.Error("flushing telemetry", "err", err)
		}
	})
	s.app = app

	if addr, token := os.Getenv("DEBUG_ADDR"), os.Getenv("DEBUG_TOKEN"); addr != "" {
		if token == "" {
			return nil, errors.New("DEBUG_ADDR is set without DEBUG_TOKEN: the profiles are served only behind a token")
		}
		s.debug = core.New(core.WithLogger(logger), core.WithStartupOutput(nil))
		guard := middleware.MustBearerAuth(middleware.WithTokenValidator(func(_ core.Context, t string) bool {
			return subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1
		}))
		if err := pprof.Register(s.debug, guard); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// telemetry is the SDK set up from the OTEL_* environment variables.
type telemetry struct {
	tp         *sdktrace.TracerProvider
	mp         *sdkmetric.MeterProvider
	prom       *otelprom.Exporter
	propagator propagation.TextMapPropagator
}

func newTelemetry(ctx context.Context) (*telemetry, error) {
	// Defaults first: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("observability-example"), semconv.ServiceVersion("1.0.0")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, err
	}
	spans, err := autoexport.NewSpanExporter(ctx) // OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_*
	if err != nil {
		return nil, err
	}
	reader, err := autoexport.NewMetricReader(ctx) // OTEL_METRICS_EXPORTER, OTEL_EXPORTER_OTLP_*
	if err != nil {
		return nil, err
	}
	prom, err := otelprom.New()
	if err != nil {
		return nil, err
	}
	t := &telemetry{
		prom:       prom,
		propagator: autoprop.NewTextMapPropagator(), // OTEL_PROPAGATORS
		mp:         sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(prom.Reader()), sdkmetric.WithReader(reader)),
	}
	topts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)} // the sampler: OTEL_TRACES_SAMPLER
	if !autoexport.IsNoneSpanExporter(spans) {
		topts = append(topts, sdktrace.WithBatcher(spans)) // OTEL_BSP_*
	}
	t.tp = sdktrace.NewTracerProvider(topts...)
	return t, nil
}

// shutdown flushes and stops the providers.
func (t *telemetry) shutdown(ctx context.Context) error {
	return errors.Join(t.tp.Shutdown(ctx), t.mp.Shutdown(ctx))
}
