// Request logging.
//
// RequestLogger writes one line per request once the response is
// finished: it registers a done hook (core.Context.OnDone) before the rest
// of the chain runs, and the application calls it after the chain, after
// the error page of an error status with no body and after the 500 of a
// recovered panic, so the line has the status and bytes the client got.
// The line is logged with the request's context.Context, where a tracing
// middleware (otelvireo) has put its span, so a trace-aware slog.Handler
// (otelvireo.WrapLogHandler) adds the trace and span IDs, whichever of the
// two middlewares runs first. The hooks come from a sync.Pool: a request
// costs no allocation of its own beyond what the slog.Handler does.

package middleware

import (
	"log/slog"
	"sync"
	"time"

	"github.com/vireo-go/vireo/core"
)

// RequestLogger returns middleware that logs one line per request at Info
// level, "request" with method, path, status, bytes (the body as sent:
// error pages and the 500 of a panic included), duration, remote (the
// client's IP, see core.WithTrustedProxies) and, when RequestID gave the
// request one, request_id. A nil logger means slog.Default(). Install it
// with UseBeforeRouting to log unmatched requests too.
func RequestLogger(logger *slog.Logger) core.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	rl := &requestLogger{logger: logger}
	rl.lines.New = func() any { return &logLine{rl: rl} }
	return rl.serve
}

type requestLogger struct {
	logger *slog.Logger
	lines  sync.Pool // of *logLine
}

// logLine is the done hook of one request.
type logLine struct {
	rl    *requestLogger
	start time.Time
}

func (rl *requestLogger) serve(ctx core.Context) {
	l := rl.lines.Get().(*logLine)
	l.start = time.Now()
	ctx.OnDone(l)
	ctx.Next()
}

// Done logs the finished request's line and puts l back into the pool.
func (l *logLine) Done(ctx core.Context) {
	r := ctx.Request()
	attrs := [7]slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", ctx.Status()),
		slog.Int64("bytes", ctx.BytesWritten()),
		slog.Duration("duration", time.Since(l.start)),
		slog.String("remote", ctx.ClientIP()),
	}
	n := 6
	if id := ctx.RequestID(); id != "" {
		attrs[n] = slog.String("request_id", id)
		n++
	}
	l.rl.logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs[:n]...)
	rl := l.rl
	*l = logLine{rl: rl}
	rl.lines.Put(l)
}
