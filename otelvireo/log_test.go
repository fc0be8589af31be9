// Tests of the trace IDs in log lines: the request logger's line and a
// handler's ctx.Logger() lines carry the span's trace_id and span_id beside
// the request ID, in JSON or text.

package otelvireo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/otelvireo"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestLogLinesCarryTrace(t *testing.T) {
	tests := []struct {
		name          string
		loggerFirst   bool // RequestLogger installed before the tracing middleware
		panicHandler  bool
		wantRequestID bool
	}{
		{"tracing first", false, false, true},
		{"logger first", true, false, true},
		{"panic", false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
			defer tp.Shutdown(context.Background())
			var buf bytes.Buffer
			h, err := otelvireo.NewLogHandler(&buf)
			if err != nil {
				t.Fatal(err)
			}
			logger := slog.New(h)
			app := core.New(core.WithLogger(logger))
			mw := otelvireo.MustNew(otelvireo.WithTracerProvider(tp), otelvireo.WithPropagator(propagator))
			if tt.loggerFirst {
				app.UseBeforeRouting(middleware.MustRequestID(), middleware.RequestLogger(logger), mw)
			} else {
				app.UseBeforeRouting(middleware.MustRequestID(), mw, middleware.RequestLogger(logger))
			}
			app.Get("/users/{id}", func(ctx core.Context) {
				ctx.Logger().Info("loading user", "id", ctx.Param("id"))
				if tt.panicHandler {
					panic("boom")
				}
				ctx.WriteString("ok")
			})
			app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/users/9", nil))
			s := spans.GetSpans()
			if len(s) != 1 {
				t.Fatalf("%d spans", len(s))
			}
			traceID, spanID := s[0].SpanContext.TraceID().String(), s[0].SpanContext.SpanID().String()
			lines := map[string]map[string]any{}
			sc := bufio.NewScanner(&buf)
			for sc.Scan() {
				var m map[string]any
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatalf("not JSON: %q", sc.Text())
				}
				lines[m["msg"].(string)] = m
			}
			for _, msg := range []string{"loading user", "request"} {
				m := lines[msg]
				if m == nil {
					t.Fatalf("no %q line in %s", msg, buf.String())
				}
				if m["trace_id"] != traceID || m["span_id"] != spanID || m["request_id"] == nil || m["request_id"] == "" {
					t.Errorf("%q line %v, want trace_id %s span_id %s and a request_id", msg, m, traceID, spanID)
				}
			}
			if tt.panicHandler {
				if m := lines["vireo: panic recovered"]; m == nil {
					t.Errorf("no panic line: %s", buf.String())
				}
			}
		})
	}
}

func TestLogFormats(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	defer tp.Shutdown(context.Background())
	ctx, span := tp.Tracer("t").Start(context.Background(), "op")
	defer span.End()
	traceID := span.SpanContext().TraceID().String()
	tests := []struct {
		name string
		opts []otelvireo.LogOption
		want string
	}{
		{"json default", nil, `"trace_id":"` + traceID + `"`},
		{"json", []otelvireo.LogOption{otelvireo.WithLogFormat(otelvireo.LogJSON)}, `"trace_id":"` + traceID + `"`},
		{"text", []otelvireo.LogOption{otelvireo.WithLogFormat(otelvireo.LogText)}, `trace_id=` + traceID + ` span_id=`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			h, err := otelvireo.NewLogHandler(&buf, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			slog.New(h).With("k", "v").InfoContext(ctx, "hello")
			slog.New(h).InfoContext(context.Background(), "no span")
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], tt.want) || strings.Contains(lines[1], "trace_id") {
				t.Fatalf("lines %q, want the first with %s and the second without", lines, tt.want)
			}
		})
	}
}

func TestLogLevelAndBadOptions(t *testing.T) {
	var buf bytes.Buffer
	h, err := otelvireo.NewLogHandler(&buf, otelvireo.WithLogLevel(slog.LevelWarn))
	if err != nil {
		t.Fatal(err)
	}
	slog.New(h).Info("dropped")
	slog.New(h).Warn("kept")
	if strings.Contains(buf.String(), "dropped") || !strings.Contains(buf.String(), "kept") {
		t.Fatalf("log %q", buf.String())
	}
	for _, opt := range []otelvireo.LogOption{nil, otelvireo.WithLogFormat(7), otelvireo.WithLogLevel(nil)} {
		if _, err := otelvireo.NewLogHandler(&buf, opt); err == nil {
			t.Error("NewLogHandler accepted a bad option")
		}
	}
}
