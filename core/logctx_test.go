// Tests of Context.Logger's binding to the request's context.Context.

package core

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type traceKey struct{}

// ctxAttrHandler adds the context's traceKey value to every record, as a
// tracing log handler adds its trace ID.
type ctxAttrHandler struct{ slog.Handler }

func (h ctxAttrHandler) Handle(ctx context.Context, r slog.Record) error {
	if v, ok := ctx.Value(traceKey{}).(string); ok {
		r.AddAttrs(slog.String("trace", v))
	}
	return h.Handler.Handle(ctx, r)
}

func (h ctxAttrHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return ctxAttrHandler{h.Handler.WithAttrs(attrs)}
}

func TestLoggerCarriesRequestContext(t *testing.T) {
	tests := []struct {
		name string
		log  func(ctx Context)
		want string
	}{
		{"no context", func(ctx Context) { ctx.Logger().Info("hello") }, "trace=abc"},
		{"with attrs", func(ctx Context) { ctx.Logger().With("k", "v").Info("hello") }, "k=v trace=abc"},
		{"own context", func(ctx Context) {
			ctx.Logger().InfoContext(context.WithValue(context.Background(), traceKey{}, "own"), "hello")
		}, "trace=own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			app := New(WithLogger(slog.New(ctxAttrHandler{slog.NewTextHandler(&buf, nil)})))
			app.UseBeforeRouting(func(ctx Context) {
				ctx.Values().Set(RequestIDKey, "req-1")
				r := ctx.Request()
				ctx.SetRequest(r.WithContext(context.WithValue(r.Context(), traceKey{}, "abc")))
				ctx.Next()
			})
			app.Get("/", func(ctx Context) { tt.log(ctx) })
			app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
			line := buf.String()
			if !strings.Contains(line, tt.want) || !strings.Contains(line, "request_id=req-1") {
				t.Fatalf("log line %q lacks %q or the request ID", line, tt.want)
			}
		})
	}
}
