// Package vireo is a web framework on net/http: a radix-tree router with
// typed parameters, pooled request contexts, middleware, views, sessions and
// MVC controllers.
//
//	app := vireo.New()
//	app.Get("/hello/{name}", func(ctx *vireo.Context) {
//		ctx.Text("Hello, " + ctx.Param("name"))
//	})
//	app.Listen("127.0.0.1:8080")
//
// This package is the facade users import: it re-exports the types of the
// core package. The MVC layer, view engines and sessions live in the mvc,
// view and sessions packages.
package vireo

import (
	"net/http"

	"github.com/vireo-go/vireo/core"
)

type (
	// Application is a Vireo application; see core.Application.
	Application = core.Application
	// Router registers routes under a prefix; see core.Router.
	Router = core.Router
	// Route is a registered route; see core.Route.
	Route = core.Route
	// Context is the state of one request; see core.Context.
	Context = core.Context
	// Handler is a handler or middleware; see core.Handler.
	Handler = core.Handler
	// Params are route parameters; see core.Params.
	Params = core.Params
	// Param is one route parameter.
	Param = core.Param
	// HTTPError is an error with an HTTP status; see core.HTTPError.
	HTTPError = core.HTTPError
	// Option configures an Application; see core.Option.
	Option = core.Option
)

// New returns a new Application; see core.New.
func New(opts ...Option) *Application { return core.New(opts...) }

// NewHTTPError returns an error with a status and a client-facing message.
func NewHTTPError(code int, message string) *HTTPError { return core.NewHTTPError(code, message) }

// FromHTTP adapts an http.Handler to a Handler.
func FromHTTP(h http.Handler) Handler { return core.FromHTTP(h) }

// FromStd adapts func(http.Handler) http.Handler middleware to a Handler.
func FromStd(mw func(http.Handler) http.Handler) Handler { return core.FromStd(mw) }

// RequestLogger is core.RequestLogger.
var RequestLogger = core.RequestLogger

// Options, re-exported so applications need a single import.
var (
	WithLogger          = core.WithLogger
	WithBodyLimit       = core.WithBodyLimit
	WithTrailingSlash   = core.WithTrailingSlash
	WithPathValues      = core.WithPathValues
	WithErrorDetails    = core.WithErrorDetails
	WithStartupOutput   = core.WithStartupOutput
	WithShutdownTimeout = core.WithShutdownTimeout
	WithTrustedProxies  = core.WithTrustedProxies
)

// Trailing-slash policies; see core.TrailingSlash.
const (
	RedirectSlash = core.RedirectSlash
	StrictSlash   = core.StrictSlash
	IgnoreSlash   = core.IgnoreSlash
)
