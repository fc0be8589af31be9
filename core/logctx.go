// The request's context in a handler's log lines.
//
// Context.Logger returns a logger bound to the request: its handler is
// wrapped so that a record logged without a context of its own (Info,
// Error... rather than InfoContext) is handled with the request's
// context.Context, as the request was when Logger was called. A handler that
// reads values from the context (trace and span IDs put there by tracing
// middleware) thus sees the request's in every line a handler logs, whichever
// method the handler used. A record logged with a context keeps it.

package core

import (
	"context"
	"log/slog"
)

// requestLogHandler passes ctx to h for records logged without a context.
type requestLogHandler struct {
	h   slog.Handler
	ctx context.Context
}

func (r requestLogHandler) context(ctx context.Context) context.Context {
	if ctx == nil || ctx == context.Background() {
		return r.ctx
	}
	return ctx
}

func (r requestLogHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return r.h.Enabled(r.context(ctx), level)
}

func (r requestLogHandler) Handle(ctx context.Context, rec slog.Record) error {
	return r.h.Handle(r.context(ctx), rec)
}

func (r requestLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestLogHandler{h: r.h.WithAttrs(attrs), ctx: r.ctx}
}

func (r requestLogHandler) WithGroup(name string) slog.Handler {
	return requestLogHandler{h: r.h.WithGroup(name), ctx: r.ctx}
}

// requestLogger returns l bound to ctx (see the file comment).
func requestLogger(l *slog.Logger, ctx context.Context) *slog.Logger {
	return slog.New(requestLogHandler{h: l.Handler(), ctx: ctx})
}
