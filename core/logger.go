// Request logging.

package core

import (
	"log/slog"
	"net/http"
	"time"
)

// RequestLogger returns middleware that logs one line per request (method,
// path, status, bytes, duration, client address and, when middleware gave
// the request one, its request_id) at Info level, requests that panic
// included. Install it with UseBeforeRouting to log unmatched requests too. An
// error status with no body gets its error page written before the line is
// logged, so that bytes counts the page.
func RequestLogger(logger *slog.Logger) Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return stateHandler(func(c *state, ctx Context) {
		start := time.Now()
		defer func() {
			if rec := recover(); rec != nil && !c.app.recovered(c, rec) {
				panic(http.ErrAbortHandler) // the application aborts the connection
			}
			if c.writer.status >= 400 && !c.written() {
				c.app.safeFireError(c) // the page the client gets, counted
			}
			attrs := [7]slog.Attr{
				slog.String("method", c.method()),
				slog.String("path", c.path()),
				slog.Int("status", c.writer.status),
				slog.Int64("bytes", c.writer.size),
				slog.Duration("duration", time.Since(start)),
				slog.String("remote", c.remoteAddr()),
			}
			n := 6
			if id := c.requestID(); id != "" {
				attrs[n] = slog.String("request_id", id)
				n++
			}
			logger.LogAttrs(c.req().Context(), slog.LevelInfo, "request", attrs[:n]...)
		}()
		c.next(ctx)
	})
}
