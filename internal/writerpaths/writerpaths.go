// Package writerpaths registers one http.Handler on every path by which a
// Vireo handler can reach net/http's response writer: the Context's own
// writer, WrapHandler, Mount, a WrapMiddleware middleware, and each middleware that
// installs a writer of its own (compression, timeout, request logger,
// CSRF, sessions), alone and all together. Tests of what must pass
// through every writer unchanged (1xx statuses, Hijack, ResponseController,
// WebSocket upgrades) run their handler on each path the package returns.
//
// The handler is served at Path.Prefix + "/" + the name of what the test
// asks for; a mounted handler sees the path without the prefix, so a
// handler should dispatch on the last path element.
package writerpaths

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/sessions"
)

// Path is one way from the server's writer to the handler.
type Path struct {
	Name   string // what is between the server and the handler
	Prefix string // the handler answers under Prefix + "/"
}

// passStd is net/http middleware that passes w and r on unchanged: the
// inner chain of a WrapMiddleware writes through core's writer around it.
func passStd(next http.Handler) http.Handler { return next }

// wrapStd is net/http middleware with a writer of its own that only
// forwards, as many third-party middlewares have: 1xx statuses and the
// ResponseController reach the server through its Unwrap.
func wrapStd(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(forwarder{w}, r)
	})
}

type forwarder struct{ http.ResponseWriter }

func (f forwarder) Unwrap() http.ResponseWriter { return f.ResponseWriter }

// Register serves h on app under every path and returns the paths. logs
// receives the request logger's lines. The application's other settings
// (a middleware.Timeout or other UseBeforeRouting middleware installed
// before) are the caller's.
func Register(app *core.Application, h http.Handler, logs io.Writer) []Path {
	serve := func(ctx core.Context) { h.ServeHTTP(ctx.ResponseWriter(), ctx.Request()) }
	logger := middleware.RequestLogger(slog.New(slog.NewTextHandler(logs, nil)))
	sess := sessions.MustNew()
	// CSRF refuses a POST without a token; the 100-continue checks post
	// and are exempted, the other checks are GETs that it lets through.
	csrf := middleware.MustCSRF(middleware.WithCSRFSkip(func(ctx core.Context) bool {
		return strings.Contains(ctx.Request().URL.Path, "/continue")
	}))
	stack := []core.Handler{
		logger,
		middleware.MustRequestID(),
		middleware.MustCORS(middleware.WithAllowedOrigins("http://localhost:3000")),
		middleware.MustSecureHeaders(),
		middleware.MustRateLimit(middleware.WithRate(1000, 1000)),
		csrf,
		sess.Handler(),
		middleware.MustCompress(),
		middleware.MustTimeout(10 * time.Second),
		core.WrapMiddleware(wrapStd),
	}
	paths := []Path{
		{"Context.ResponseWriter", "/plain"},
		{"WrapHandler", "/fromhttp"},
		{"Mount", "/mount"},
		{"WrapMiddleware passing the writer", "/fromstd"},
		{"WrapMiddleware with a wrapping writer", "/fromstdwrap"},
		{"Compress", "/compress"},
		{"Timeout", "/timeout"},
		{"RequestLogger", "/logger"},
		{"CSRF", "/csrf"},
		{"sessions.Handler", "/sessions"},
		{"sessions.Wrap, mounted", "/sessionswrap"},
		{"the whole middleware set", "/stack"},
	}
	app.Any("/plain/{rest:path}", serve)
	app.Any("/fromhttp/{rest:path}", core.WrapHandler(h))
	app.Mount("/mount", h)
	app.Group("/fromstd", core.WrapMiddleware(passStd)).Any("/{rest:path}", serve)
	app.Group("/fromstdwrap", core.WrapMiddleware(wrapStd)).Any("/{rest:path}", serve)
	app.Group("/compress", middleware.MustCompress()).Any("/{rest:path}", serve)
	app.Group("/timeout", middleware.MustTimeout(10*time.Second)).Any("/{rest:path}", serve)
	app.Group("/logger", logger).Any("/{rest:path}", serve)
	app.Group("/csrf", csrf).Any("/{rest:path}", serve)
	app.Group("/sessions", sess.Handler()).Any("/{rest:path}", serve)
	app.Mount("/sessionswrap", sess.Wrap(h))
	app.Group("/stack", stack...).Any("/{rest:path}", serve)
	return paths
}
