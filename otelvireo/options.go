// Options of the middleware: providers, propagator and filter.

package otelvireo

import (
	"errors"
	"net/http"

	"github.com/vireo-go/vireo/health"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Option configures the middleware New returns.
type Option func(*config) error

type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	propagator     propagation.TextMapPropagator
	filter         func(*http.Request) bool
}

func newConfig(opts []Option) (*config, error) {
	cfg := &config{filter: DefaultFilter}
	var errs []error
	for _, opt := range opts {
		if opt == nil {
			errs = append(errs, errors.New("otelvireo: nil Option"))
			continue
		}
		if err := opt(cfg); err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.tracerProvider == nil {
		cfg.tracerProvider = otel.GetTracerProvider()
	}
	if cfg.meterProvider == nil {
		cfg.meterProvider = otel.GetMeterProvider()
	}
	if cfg.propagator == nil {
		cfg.propagator = otel.GetTextMapPropagator()
	}
	return cfg, errors.Join(errs...)
}

// WithTracerProvider sets the provider of the middleware's tracer (default:
// the global one, otel.GetTracerProvider). A no-op provider turns tracing
// off; the metrics stay.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) error {
		if tp == nil {
			return errors.New("otelvireo: WithTracerProvider: nil provider")
		}
		c.tracerProvider = tp
		return nil
	}
}

// WithMeterProvider sets the provider of the middleware's meter (default:
// the global one, otel.GetMeterProvider). A no-op provider turns the
// metrics off; the spans stay.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) error {
		if mp == nil {
			return errors.New("otelvireo: WithMeterProvider: nil provider")
		}
		c.meterProvider = mp
		return nil
	}
}

// WithPropagator sets the propagator that extracts the caller's trace
// context from the request headers (default: the global one,
// otel.GetTextMapPropagator; set it to
// propagation.NewCompositeTextMapPropagator(propagation.TraceContext{},
// propagation.Baggage{}) for W3C trace context and baggage).
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) error {
		if p == nil {
			return errors.New("otelvireo: WithPropagator: nil propagator")
		}
		c.propagator = p
		return nil
	}
}

// WithFilter sets the function that decides whether a request is traced
// and measured (true: it is). It replaces DefaultFilter; call DefaultFilter
// from f to keep excluding the health endpoints.
func WithFilter(f func(*http.Request) bool) Option {
	return func(c *config) error {
		if f == nil {
			return errors.New("otelvireo: WithFilter: nil filter")
		}
		c.filter = f
		return nil
	}
}

// DefaultFilter is the filter of a middleware without WithFilter: it
// rejects the liveness and readiness probes (paths health.LivePath and
// health.ReadyPath), which would otherwise make most of the spans of an
// idle service.
func DefaultFilter(r *http.Request) bool {
	p := r.URL.Path
	return p != health.LivePath && p != health.ReadyPath
}
