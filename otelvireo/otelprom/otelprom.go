// Package otelprom serves a MeterProvider's metrics to Prometheus: a
// metric reader for the OpenTelemetry SDK and the /metrics handler that
// Prometheus scrapes.
//
// It is built on OpenTelemetry's Prometheus exporter rather than on
// instruments of Prometheus' client library: the otelvireo middleware (and
// every other OpenTelemetry instrumentation: database drivers, otelhttp
// clients, runtime metrics) records once, through the OpenTelemetry API,
// and the same measurements go to Prometheus through this reader and to
// an OTLP collector through a periodic reader on the same MeterProvider.
// The names follow OpenTelemetry's Prometheus compatibility rules with
// underscores and unit suffixes (http.server.request.duration becomes the
// histogram http_server_request_duration_seconds, attributes become labels
// such as http_route), which every Prometheus server and promtool accept.
//
//	prom, err := otelprom.New()
//	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(prom.Reader()))
//	app.Get("/metrics", prom.Handler())
package otelprom

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"github.com/vireo-go/vireo/core"
	otelprometheus "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// Exporter is a Prometheus registry fed by an OpenTelemetry metric reader.
type Exporter struct {
	reader  *otelprometheus.Exporter
	handler core.Handler
}

// Option configures an Exporter.
type Option func(*config) error

type config struct {
	registry *prometheus.Registry
}

// WithRegistry makes the exporter register on reg and serve reg's metrics
// (default: a registry of its own with the Go runtime and process
// collectors).
func WithRegistry(reg *prometheus.Registry) Option {
	return func(c *config) error {
		if reg == nil {
			return errors.New("otelprom: WithRegistry: nil registry")
		}
		c.registry = reg
		return nil
	}
}

// New returns an Exporter. Its Reader goes to sdkmetric.WithReader, its
// Handler is mounted at /metrics.
func New(opts ...Option) (*Exporter, error) {
	var cfg config
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("otelprom: nil Option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.registry == nil {
		cfg.registry = prometheus.NewRegistry()
		cfg.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	reader, err := otelprometheus.New(
		otelprometheus.WithRegisterer(cfg.registry),
		otelprometheus.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes),
	)
	if err != nil {
		return nil, fmt.Errorf("otelprom: %w", err)
	}
	h := promhttp.HandlerFor(cfg.registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return &Exporter{reader: reader, handler: core.WrapHandler(h)}, nil
}

// MustNew is New that panics on error.
func MustNew(opts ...Option) *Exporter {
	e, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return e
}

// Reader returns the metric reader to give the MeterProvider
// (sdkmetric.WithReader); it collects when Prometheus scrapes.
func (e *Exporter) Reader() sdkmetric.Reader { return e.reader }

// Handler returns the handler of the metrics endpoint, in Prometheus' text
// or protobuf format as the scraper asks.
func (e *Exporter) Handler() core.Handler { return e.handler }
