// Request IDs.
//
// The core does not make request IDs (middleware.RequestID does); it only
// fixes where one is kept, so that everything that logs or shows a request
// finds the same one: the request-scoped Values under RequestIDKey, as a
// string or, to spare an allocation, a *string. RequestLogger adds it to its
// line, Context.Logger to every line a handler logs, and error handlers
// read it with Context.RequestID.

package core

import "log/slog"

// RequestIDKey is the Values key of the request ID.
const RequestIDKey = "vireo.request_id"

func (c *state) RequestID() string {
	switch v := c.values.get(RequestIDKey).(type) {
	case string:
		return v
	case *string:
		return *v
	}
	return ""
}

func (c *state) Logger() *slog.Logger {
	l := c.app.logger
	if id := c.RequestID(); id != "" {
		l = l.With(slog.String("request_id", id))
	}
	return requestLogger(l, c.request.Context())
}
