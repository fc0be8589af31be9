// Request IDs.
//
// The core does not make request IDs (middleware.RequestID does); it only
// fixes where one is kept, so that everything that logs or shows a request
// finds the same one: the request-scoped Values under RequestIDKey, as a
// string or, to spare an allocation, a *string. middleware.RequestLogger adds it to its
// line, Context.Logger to every line a handler logs, and error handlers
// read it with Context.RequestID.

package core

import "log/slog"

// RequestIDKey is the Values key of the request ID.
const RequestIDKey = "vireo.request_id"

// RequestID returns the request's ID, or "" when no middleware gave it one.
func (c Context) RequestID() string {
	return with(c, "", func(s *state) string {
		return s.requestID()
	})
}

func (c *state) requestID() string {
	switch v := c.values.get(RequestIDKey).(type) {
	case string:
		return v
	case *string:
		return *v
	}
	return ""
}

// Logger returns the application's logger with the request ID attached
// (see RequestID) and bound to the request's context.Context: a line logged
// without a context (Info rather than InfoContext) reaches the log handler
// with the request's, so handlers that read it (trace IDs) see it. Once the
// request is over, it returns the application's logger.
func (c Context) Logger() *slog.Logger {
	if l := with(c, nil, func(s *state) *slog.Logger { return s.logger() }); l != nil {
		return l
	}
	if c.s == nil {
		return slog.Default()
	}
	return c.s.app.logger
}

func (c *state) logger() *slog.Logger {
	l := c.app.logger
	if id := c.requestID(); id != "" {
		l = l.With(slog.String("request_id", id))
	}
	return requestLogger(l, c.request.Context())
}
