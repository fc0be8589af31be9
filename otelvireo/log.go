// Log lines that carry the trace.
//
// A slog.Handler wrapper reads the span context from the context.Context a
// record is logged with and adds trace_id and span_id (hex, as in
// traceparent) to the record before the wrapped handler formats it. Vireo
// logs with the request's context: middleware.RequestLogger passes it to
// LogAttrs, and the logger of ctx.Logger() hands it to its handler for
// lines logged without a context, so both carry the IDs of the request's
// span once this middleware has started it.

package otelvireo

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// The keys of the trace attributes added to log records.
const (
	TraceIDKey = "trace_id"
	SpanIDKey  = "span_id"
)

// LogFormat is the output format of NewLogHandler.
type LogFormat int

// The formats of NewLogHandler.
const (
	LogJSON LogFormat = iota // one JSON object a line (slog.JSONHandler)
	LogText                  // key=value pairs (slog.TextHandler)
)

// LogOption configures NewLogHandler.
type LogOption func(*logConfig) error

type logConfig struct {
	format LogFormat
	opts   slog.HandlerOptions
}

// WithLogFormat chooses the output format (default LogJSON).
func WithLogFormat(f LogFormat) LogOption {
	return func(c *logConfig) error {
		if f != LogJSON && f != LogText {
			return errors.New("otelvireo: WithLogFormat: unknown format")
		}
		c.format = f
		return nil
	}
}

// WithLogLevel sets the minimum level logged (default slog.LevelInfo).
func WithLogLevel(l slog.Leveler) LogOption {
	return func(c *logConfig) error {
		if l == nil {
			return errors.New("otelvireo: WithLogLevel: nil level")
		}
		c.opts.Level = l
		return nil
	}
}

// NewLogHandler returns a handler that writes records to w in the chosen
// format, each with trace_id and span_id when its context carries a valid
// span context: slog.New(h) is the logger to give core.WithLogger and
// middleware.RequestLogger.
func NewLogHandler(w io.Writer, opts ...LogOption) (slog.Handler, error) {
	var cfg logConfig
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("otelvireo: nil LogOption")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.format == LogText {
		return WrapLogHandler(slog.NewTextHandler(w, &cfg.opts)), nil
	}
	return WrapLogHandler(slog.NewJSONHandler(w, &cfg.opts)), nil
}

// WrapLogHandler returns h with trace_id and span_id added to every record
// whose context carries a valid span context.
func WrapLogHandler(h slog.Handler) slog.Handler { return traceHandler{h} }

type traceHandler struct{ next slog.Handler }

func (t traceHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return t.next.Enabled(ctx, l)
}

func (t traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone() // the record may be shared with other handlers
		r.AddAttrs(slog.String(TraceIDKey, sc.TraceID().String()), slog.String(SpanIDKey, sc.SpanID().String()))
	}
	return t.next.Handle(ctx, r)
}

func (t traceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceHandler{t.next.WithAttrs(attrs)}
}

func (t traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{t.next.WithGroup(name)}
}
