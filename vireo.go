// Package vireo is a web framework on net/http: a radix-tree router with
// typed parameters, pooled request contexts, middleware, views, sessions and
// MVC controllers.
//
//	app := vireo.New()
//	app.Get("/hello/{name}", func(ctx vireo.Context) {
//		ctx.Text("Hello, " + ctx.Param("name"))
//	})
//	app.Listen("127.0.0.1:8080")
//
// This package is the facade applications import, so that one import is
// enough: it re-exports every identifier of the core package, types as
// aliases. The methods of those types (Context's Param, Query, JSON,
// ReadJSON, StopWithError..., Application's Listen and Build, Router's Get,
// Group and Use) are documented in package
// github.com/vireo-go/vireo/core, together with the pattern grammar, the
// route precedence, the trailing-slash policy and the server defaults:
// run `go doc github.com/vireo-go/vireo/core Context` for the Context.
//
// The MVC layer, the view engines and sessions live in the mvc, view and
// sessions packages.
package vireo

import (
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/core"
)

type (
	// Application is a Vireo application: routes, configuration and the
	// server. It is an http.Handler. See core.Application for its methods.
	Application = core.Application
	// Router registers routes under a path prefix (a group). See
	// core.Router for its methods.
	Router = core.Router
	// Route is a registered route. See core.Route.
	Route = core.Route
	// Context is a handler's handle to its request, passed by value and
	// valid until the handler chain returns. Its methods, documented on
	// core.Context (go doc github.com/vireo-go/vireo/core Context), are:
	//
	//	request:   Method Path Host Scheme IsTLS ClientIP Param Params Query
	//	           QueryDefault RequestHeader RequestHeaderValues RequestCookie
	//	           FormValue PostValue Request RequestContext SetRequest Route
	//	           RequestID
	//	body:      ReadJSON ReadXML ReadForm ReadBody Validate MultipartForm
	//	           FormFile
	//	response:  Text HTML JSON JSONIndent XML Negotiate NegotiateFormat
	//	           View SetViewData SetViewLayout ViewData Write WriteString
	//	           Redirect ServeFile Download Attachment SSE SetStatus Status
	//	           Written BytesWritten ResponseHeader ResponseHeaderValues
	//	           SetResponseHeader SetResponseHeaders AddResponseHeader
	//	           SetContentType SetCookie ResponseWriter SetResponseWriter
	//	           OnBeforeWrite OnDone
	//	chain:     Next NextWithTimeout Stop StopWithStatus StopWithError
	//	           IsStopped Values
	//	errors:    StopError ErrorMessage WriteErrorPage
	//	lifetime:  Alive Clone App Logger
	Context = core.Context
	// Handler is a handler or middleware; middleware calls ctx.Next.
	Handler = core.Handler
	// Params reads the route parameters of a request, in pattern order.
	Params = core.Params
	// Param is one route parameter.
	Param = core.Param
	// Values is the request-scoped value store returned by Context.Values.
	Values = core.Values
	// HTTPError is an error with an HTTP status and a client-facing
	// message.
	HTTPError = core.HTTPError
	// RegistrationError is what Build reports for each route, option,
	// view engine or controller it refuses.
	RegistrationError = core.RegistrationError
	// RegistrationErrors is the error Build returns: the list of every
	// RegistrationError of the application.
	RegistrationErrors = core.RegistrationErrors
	// Option configures an Application.
	Option = core.Option
	// Engine is the server below an Application: net/http by default,
	// github.com/vireo-go/vireo/fast for fasthttp.
	Engine = core.Engine
	// TrailingSlash is the policy for paths that differ from a route only
	// by a trailing slash.
	TrailingSlash = core.TrailingSlash
	// DataRate is a minimum data rate with a grace period, for request
	// bodies and responses.
	DataRate = core.DataRate
	// UploadLimits bounds the multipart forms the Context parses.
	UploadLimits = core.UploadLimits
	// ViewEngine is the template engine interface Context.View renders
	// through; the view package's engines implement it.
	ViewEngine = core.ViewEngine
	// Markup is a value that renders itself as HTML for Context.Negotiate.
	Markup = core.Markup
	// Validator checks a value decoded from a request (WithValidator).
	Validator = core.Validator
	// HTTP2Server is an HTTP/2 implementation that serves in place of
	// net/http's (WithHTTP2); h2.Server is one.
	HTTP2Server = core.HTTP2Server
	// ValidatorFunc adapts a function to a Validator.
	ValidatorFunc = core.ValidatorFunc
	// ValidationError is a 400 naming each invalid field and why.
	ValidationError = core.ValidationError
	// EventStream writes server-sent events; see Context.SSE.
	EventStream = core.EventStream
	// BeforeWriteHook is called once just before a response's status line
	// goes out (Context.OnBeforeWrite); its error replaces the response.
	BeforeWriteHook = core.BeforeWriteHook
	// DoneHook is called once a request's response is finished, error page
	// and panic answer included (Context.OnDone).
	DoneHook = core.DoneHook
	// TimeoutResponse is the answer sent when a handler overruns the
	// deadline of middleware.Timeout (Context.NextWithTimeout).
	TimeoutResponse = core.TimeoutResponse
	// RouteParam is one parameter of a route pattern, as Route.Params and
	// Router.Params report it.
	RouteParam = core.RouteParam
	// ParamType is the type of a route parameter, the word after the colon
	// in {name:type}.
	ParamType = core.ParamType
	// HeaderField is a response header built once, its name canonical,
	// set on many responses with Context.SetResponseHeaders.
	HeaderField = core.HeaderField
)

// The parameter types of the pattern grammar.
const (
	ParamString = core.ParamString // any non-empty segment
	ParamBool   = core.ParamBool   // true or false
	ParamInt    = core.ParamInt    // a decimal that fits an int
	ParamUint   = core.ParamUint   // a non-negative decimal that fits a uint
	ParamInt64  = core.ParamInt64  // a decimal that fits an int64
	ParamUint64 = core.ParamUint64 // a non-negative decimal that fits a uint64
	ParamUUID   = core.ParamUUID   // 8-4-4-4-12 hexadecimal digits
	ParamAlpha  = core.ParamAlpha  // ASCII letters only
	ParamPath   = core.ParamPath   // the rest of the path, slashes included
)

// Trailing-slash policies for WithTrailingSlash.
const (
	// RedirectSlash redirects to the registered form (the default).
	RedirectSlash = core.RedirectSlash
	// StrictSlash answers 404 for the other form.
	StrictSlash = core.StrictSlash
	// IgnoreSlash serves the registered route for both forms.
	IgnoreSlash = core.IgnoreSlash
)

// Defaults of the body readers and of the server started by Listen and
// Serve.
const (
	// DefaultBodyLimit is the largest request body the Context's readers
	// accept unless WithBodyLimit says otherwise.
	DefaultBodyLimit = core.DefaultBodyLimit
	// DefaultReadHeaderTimeout bounds the time to read a request's headers.
	DefaultReadHeaderTimeout = core.DefaultReadHeaderTimeout
	// DefaultMinBytesPerSecond is the default minimum rate of request
	// bodies and of responses that can block, after DefaultDataRateGrace.
	DefaultMinBytesPerSecond = core.DefaultMinBytesPerSecond
	// DefaultDataRateGrace is the grace period of the default data rates.
	DefaultDataRateGrace = core.DefaultDataRateGrace
	// DefaultUploadMemory is how much of a multipart form's files is held
	// in memory before temporary files.
	DefaultUploadMemory = core.DefaultUploadMemory
	// DefaultUploadParts is the most parts a multipart form may have.
	DefaultUploadParts = core.DefaultUploadParts
	// DefaultIdleTimeout bounds the wait for the next request on a
	// keep-alive connection.
	DefaultIdleTimeout = core.DefaultIdleTimeout
	// DefaultMaxHeaderBytes bounds the size of a request's headers.
	DefaultMaxHeaderBytes = core.DefaultMaxHeaderBytes
)

// Media types for Context.Negotiate.
const (
	MIMEJSON = core.MIMEJSON // application/json
	MIMEXML  = core.MIMEXML  // application/xml
	MIMEHTML = core.MIMEHTML // text/html
	MIMEText = core.MIMEText // text/plain
	// ProblemJSON is the media type of the default error page for clients
	// that prefer JSON (RFC 9457 Problem Details).
	ProblemJSON = core.ProblemJSON
)

// RequestIDKey is the Values key under which middleware keeps the request
// ID that RequestLogger, Context.Logger and Context.RequestID read.
const RequestIDKey = core.RequestIDKey

// Errors the framework returns; compare them with errors.Is.
var (
	// ErrContextReleased is returned by a Context used after its request
	// ended.
	ErrContextReleased = core.ErrContextReleased
	// ErrHijacked is returned by writes after the connection was hijacked.
	ErrHijacked = core.ErrHijacked
	// ErrNoViewEngine is the cause of the 500 of View without a
	// registered engine.
	ErrNoViewEngine = core.ErrNoViewEngine
	// ErrServerRunning is returned by Serve when the application already
	// serves.
	ErrServerRunning = core.ErrServerRunning
	// ErrInvalidEventField is returned by EventStream.Send for an event
	// name or ID with a line break.
	ErrInvalidEventField = core.ErrInvalidEventField
)

// New returns an Application configured by opts. A bad option is reported
// by Build and Listen, like a registration error.
func New(opts ...Option) *Application { return core.New(opts...) }

// NewHTTPError returns an error with a status and a client-facing message,
// for ctx.StopWithError.
func NewHTTPError(code int, message string) *HTTPError { return core.NewHTTPError(code, message) }

// NewHeaderField returns the response header field name: values, its name
// made canonical once, for Context.SetResponseHeaders.
func NewHeaderField(name string, values ...string) HeaderField {
	return core.NewHeaderField(name, values...)
}

// NewHeaderFieldFunc returns a response header field whose values
// Context.SetResponseHeaders computes from the header's current ones with
// update (a Vary token added, for example).
func NewHeaderFieldFunc(name string, update func(values []string) []string) HeaderField {
	return core.NewHeaderFieldFunc(name, update)
}

// StatusOf returns the HTTP status an error stands for: the result of its
// (or a wrapped error's) StatusCode method, or 500.
func StatusOf(err error) int { return core.StatusOf(err) }

// AnyMethods returns the methods Router.Any registers, in a new slice.
func AnyMethods() []string { return core.AnyMethods() }

// Dir returns a file system for the directory dir that serves nothing
// whose path, symbolic links resolved, leaves dir; HandleDir applies it to
// os.DirFS roots by itself.
func Dir(dir string) fs.FS { return core.Dir(dir) }

// WrapHandler adapts an http.Handler to a Handler.
func WrapHandler(h http.Handler) Handler { return core.WrapHandler(h) }

// WrapMiddleware adapts func(http.Handler) http.Handler middleware to a Handler;
// the rest of the chain runs inside it, with its request and writer.
func WrapMiddleware(mw func(http.Handler) http.Handler) Handler { return core.WrapMiddleware(mw) }

// WithLogger sets the logger for errors and panics (default
// slog.Default()).
func WithLogger(l *slog.Logger) Option { return core.WithLogger(l) }

// WithBodyLimit sets the largest request body the Context's readers
// accept; larger bodies get 413.
func WithBodyLimit(n int64) Option { return core.WithBodyLimit(n) }

// WithEngine makes the application serve on e instead of net/http.
func WithEngine(e Engine) Option { return core.WithEngine(e) }

// WithMinRequestBodyRate sets the minimum rate at which request bodies
// must arrive (default DefaultMinBytesPerSecond after
// DefaultDataRateGrace; the zero DataRate: none).
func WithMinRequestBodyRate(r DataRate) Option { return core.WithMinRequestBodyRate(r) }

// WithMinResponseRate sets the minimum rate at which clients must take
// responses that can block (default DefaultMinBytesPerSecond after
// DefaultDataRateGrace; the zero DataRate: none).
func WithMinResponseRate(r DataRate) Option { return core.WithMinResponseRate(r) }

// WithUploadLimits sets the limits of multipart forms (memory, file size,
// parts); the total is the body limit.
func WithUploadLimits(l UploadLimits) Option { return core.WithUploadLimits(l) }

// WithH2C makes Listen and Serve accept HTTP/2 without TLS from clients
// with prior knowledge, beside HTTP/1.1 (off by default).
func WithH2C() Option { return core.WithH2C() }

// RedirectHTTPS returns the handler of a plain-HTTP port that redirects
// requests for the configured hosts to HTTPS with 308 (others get 421).
func RedirectHTTPS(hosts ...string) http.Handler { return core.RedirectHTTPS(hosts...) }

// SaveFile copies an uploaded file to dst, a path the server chooses.
func SaveFile(fh *multipart.FileHeader, dst string) error { return core.SaveFile(fh, dst) }

// BodyLimit returns middleware setting the body limit of the routes it is
// installed on (0: none).
func BodyLimit(n int64) Handler { return core.BodyLimit(n) }

// MinRequestBodyRate returns middleware setting the minimum request body
// rate of the routes it is installed on.
func MinRequestBodyRate(r DataRate) Handler { return core.MinRequestBodyRate(r) }

// MinResponseRate returns middleware setting the minimum response rate of
// the routes it is installed on.
func MinResponseRate(r DataRate) Handler { return core.MinResponseRate(r) }

// WithTrailingSlash sets the trailing-slash policy (default RedirectSlash).
func WithTrailingSlash(policy TrailingSlash) Option { return core.WithTrailingSlash(policy) }

// WithPathValues makes route parameters visible through
// http.Request.PathValue, for net/http handlers; it costs an allocation per
// request with parameters.
func WithPathValues() Option { return core.WithPathValues() }

// WithErrorDetails sends the text of internal (5xx) errors to clients;
// by default they are only logged.
func WithErrorDetails() Option { return core.WithErrorDetails() }

// WithStartupOutput sets where Listen prints its startup lines (default
// os.Stdout; nil silences them).
func WithStartupOutput(w io.Writer) Option { return core.WithStartupOutput(w) }

// WithShutdownTimeout sets how long graceful shutdown waits for in-flight
// requests (default 15s).
func WithShutdownTimeout(d time.Duration) Option { return core.WithShutdownTimeout(d) }

// WithHTTP2 serves HTTP/2 with s (for example h2.MustNew(), Vireo's own
// HTTP/2 server) instead of net/http's.
func WithHTTP2(s HTTP2Server) Option { return core.WithHTTP2(s) }

// WithValidator sets the Validator run by ReadJSON, ReadXML, ReadForm and
// mvc body binding.
func WithValidator(v Validator) Option { return core.WithValidator(v) }

// WithTrustedProxies makes Context.ClientIP believe header
// ("X-Forwarded-For" or "X-Real-IP") for connections from the given
// networks only.
func WithTrustedProxies(header string, networks ...string) Option {
	return core.WithTrustedProxies(header, networks...)
}
