// The Application and its request flow.
//
// ServeHTTP is the whole per-request path:
//
//	ctx := pool.Get(); ctx.reset(w, r)        no allocation
//	router middleware (UseBeforeRouting), if any, then dispatch:
//	  clean-path check                        redirect when not clean
//	  tree[method].lookup(path, &ctx.params)  no allocation
//	  ctx.handlers = route.chain; ctx.Next()  chain built once by Build
//	  unmatched: trailing-slash redirect, OPTIONS, 405 with Allow, or 404
//	finish: error handler for an error status with no body
//	recover: a panic becomes a 500 and is logged; the server keeps serving
//	done hooks (Context.OnDone): the finished response, still readable
//	ctx.release(); pool.Put(ctx)
//
// Everything that can be computed at registration is computed by Build.

package core

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vireo-go/vireo/internal/engine"
)

// Application is a Vireo application: the root Router, its routing trees and
// configuration. It implements http.Handler.
type Application struct {
	*Router

	trees            []methodTree // every method's tree, for 405 and OPTIONS
	methodRoots      [7]*node     // the standard methods' trees, by methodSlot
	routes           []*Route
	errs             RegistrationErrors
	errorParties     []*Router
	onError          func(Context, error) // OnError; nil: the default page
	onErrorChain     []Handler            // the root's middleware, then onError: for unmatched requests
	routerMiddleware []Handler
	routerChain      []Handler

	pool      sync.Pool
	buildOnce sync.Once
	built     atomic.Bool
	buildErr  error // the registration errors when Build first ran
	failed    bool  // buildErr != nil: the application refuses to serve
	failLog   sync.Once

	// configuration, set by Options
	logger          *slog.Logger
	bodyLimit       int64
	uploads         UploadLimits // WithUploadLimits
	h2c             bool         // WithH2C
	readRate        DataRate     // WithMinRequestBodyRate
	writeRate       DataRate     // WithMinResponseRate
	trailingSlash   TrailingSlash
	pathValues      bool
	errorDetails    bool
	startupOut      io.Writer
	shutdownTimeout time.Duration
	proxyHeader     string
	trustedProxies  []*netPrefix
	http2           HTTP2Server // WithHTTP2; nil: net/http's HTTP/2

	engine Engine // WithEngine; nil: net/http

	view      ViewEngine
	forms     formCodec
	validator Validator // WithValidator; nil: no validation

	openapi     openAPIState // WithOpenAPI and OpenAPI
	openapiOnce sync.Once

	serverMu   sync.Mutex
	server     engine.Server // the *http.Server, or another engine's
	closed     bool          // Shutdown was called
	onShutdown []func()
	shutdown   chan struct{} // closed when Shutdown has finished
	shutOnce   sync.Once
}

func methodSlot(method string) int {
	switch method {
	case http.MethodGet:
		return 0
	case http.MethodPost:
		return 1
	case http.MethodPut:
		return 2
	case http.MethodDelete:
		return 3
	case http.MethodPatch:
		return 4
	case http.MethodHead:
		return 5
	case http.MethodOptions:
		return 6
	}
	return -1
}

type methodTree struct {
	method string
	root   *node
}

// New returns an Application configured by opts.
func New(opts ...Option) *Application {
	app := &Application{
		logger:          slog.Default(),
		bodyLimit:       DefaultBodyLimit,
		uploads:         UploadLimits{Memory: DefaultUploadMemory, Parts: DefaultUploadParts},
		readRate:        defaultDataRate,
		writeRate:       defaultDataRate,
		startupOut:      os.Stdout,
		shutdownTimeout: 15 * time.Second,
		shutdown:        make(chan struct{}),
	}
	app.Router = &Router{app: app}
	for _, opt := range opts {
		if opt == nil {
			app.recordError("", "", errors.New("nil Option"))
			continue
		}
		opt(app)
	}
	return app
}

// Logger returns the application's logger.
func (app *Application) Logger() *slog.Logger { return app.logger }

// Routes returns the registered routes in registration order.
func (app *Application) Routes() []*Route { return append([]*Route(nil), app.routes...) }

// UseBeforeRouting appends middleware that runs for every request before routing,
// unmatched ones included (logging, CORS, request IDs). Route-level
// middleware is Use.
func (app *Application) UseBeforeRouting(middleware ...Handler) {
	app.routerMiddleware = append(app.routerMiddleware, app.checkMiddleware("", middleware)...)
}

// checkMiddleware returns middleware without its nil handlers, each of
// which is recorded as a registration error of the router at prefix.
func (app *Application) checkMiddleware(prefix string, middleware []Handler) []Handler {
	for i, h := range middleware {
		if h == nil {
			app.recordError("", prefix, fmt.Errorf("nil middleware at position %d", i))
			return slices.DeleteFunc(slices.Clone(middleware), func(h Handler) bool { return h == nil })
		}
	}
	return middleware
}

// tree returns the root of method's tree, creating it when create is set.
// The standard methods have fixed slots, found by a switch the compiler
// turns into a few comparisons; other methods are searched in a slice.
func (app *Application) tree(method string, create bool) *node {
	if i := methodSlot(method); i >= 0 {
		if app.methodRoots[i] == nil && create {
			app.methodRoots[i] = &node{kind: nodeStatic}
			app.trees = append(app.trees, methodTree{method, app.methodRoots[i]})
		}
		return app.methodRoots[i]
	}
	for i := range app.trees {
		if app.trees[i].method == method {
			return app.trees[i].root
		}
	}
	if !create {
		return nil
	}
	root := &node{kind: nodeStatic}
	app.trees = append(app.trees, methodTree{method, root})
	return root
}

// Build assembles the middleware chain of every route and prepares the
// context pool. It returns every registration error as one
// RegistrationErrors list (nil when there is none); an application with errors answers every
// request with 500 and logs the errors once. ServeHTTP and Listen call it
// once; calling it earlier surfaces errors at startup.
func (app *Application) Build() error {
	app.buildOnce.Do(func() {
		if app.openapi.path != "" {
			app.serveOpenAPI()
		}
		maxParams := 0
		for _, rt := range app.routes {
			var chain []Handler
			if app.pathValues && rt.maxParams > 0 {
				chain = append(chain, setPathValues)
			}
			chain = append(chain, rt.router.chainPrefix()...)
			rt.chain = append(chain, rt.handlers...)
			maxParams = max(maxParams, rt.maxParams)
		}
		// Error pages of unmatched requests run behind the middleware of
		// their group, as the page of a matched route runs after its
		// route's: both see what that middleware sets (a session...).
		for _, r := range app.errorParties {
			r.errorChains = make(map[int][]Handler, len(r.errorHandlers))
			for code, hs := range r.errorHandlers {
				r.errorChains[code] = append(append([]Handler(nil), r.chainPrefix()...), hs...)
			}
		}
		if app.onError != nil {
			page := stateHandler(func(c *state, ctx Context) { app.onError(ctx, c.stopError()) })
			app.onErrorChain = append(append([]Handler(nil), app.Router.chainPrefix()...), page)
		}
		if len(app.routerMiddleware) > 0 {
			app.routerChain = append(append([]Handler(nil), app.routerMiddleware...), stateHandler(app.dispatch))
		}
		app.pool.New = func() any { return newContext(app, maxParams) }
		if app.openapi.path != "" {
			app.openapiOnce.Do(app.generateOpenAPI)
			if app.openapi.err != nil {
				app.recordError("", "", app.openapi.err)
			}
		}
		app.buildErr = app.registrationErrors()
		app.failed = app.buildErr != nil
		app.built.Store(true)
	})
	return app.registrationErrors()
}

// ServeHTTP serves a request: router middleware, routing, the matched
// route's chain (or the 404/405/redirect answer), then the error handler for
// an error status with no body. A panic becomes a 500 and is logged.
func (app *Application) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !app.ready(w) {
		return
	}
	c := app.pool.Get().(*state)
	c.reset(w, r)
	// run's body, written out here: one call frame less per request
	defer app.done(c)
	if app.routerChain != nil {
		c.handlers = app.routerChain
		c.next(c.handle())
	} else {
		app.dispatch(c, c.handle())
	}
}

// ready builds the application on its first request and reports whether
// it may serve; one with registration errors answers w with 500. Inlined,
// it costs a built application two loads per request.
func (app *Application) ready(w http.ResponseWriter) bool {
	return app.serving() || app.prepare(w)
}

// serving reports whether the application is built and without
// registration errors: ready's test, for a caller that has not got the
// writer yet (serveExchange).
func (app *Application) serving() bool { return app.built.Load() && !app.failed }

// prepare is ready's first call (Build) and its answer for an application
// with registration errors.
func (app *Application) prepare(w http.ResponseWriter) bool {
	if !app.built.Load() {
		app.Build()
	}
	if app.failed {
		app.failLog.Do(func() {
			app.logger.Error("vireo: refusing to serve: registration errors", "err", app.buildErr)
		})
		http.Error(w, "500 Internal Server Error: the application has registration errors", http.StatusInternalServerError)
		return false
	}
	return true
}

// run serves the request c was reset for: router middleware and routing,
// then done. ServeHTTP has the same body written out.
func (app *Application) run(c *state) {
	defer app.done(c)
	if app.routerChain != nil {
		c.handlers = app.routerChain
		c.next(c.handle())
	} else {
		app.dispatch(c, c.handle())
	}
}

// done finishes the response, turns a panic into a 500 and returns c to the
// pool. It runs deferred so that it also runs while panicking.
func (app *Application) done(c *state) {
	if rec := recover(); rec != nil {
		if !app.recovered(c, rec) {
			c.runDone()
			app.recycle(c)
			panic(http.ErrAbortHandler) // net/http aborts the response quietly
		}
	}
	if !c.writer.hijacked && !c.written() {
		if len(c.writer.hooks) > 0 {
			// Nothing was written: the before-write hooks (a session
			// save) run now and may still turn the response into an error.
			c.writer.runHooks()
		}
		if c.writer.status >= 400 {
			app.safeFireError(c)
		}
		if !c.written() && c.writer.status != http.StatusOK {
			c.writer.writeHeaderNow()
		}
	}
	c.runDone()
	if c.writer.deadline == deadlineArmed {
		c.writer.armDeadline(0) // net/http flushes the end of the response after this
	}
	if c.release() { // recycle and putBack, inline on the path of every request
		if c.kept == nil {
			app.pool.Put(c)
		} else {
			app.putBack(c)
		}
	}
}

// recovered handles a panic of the chain: it logs it and makes the
// response a 500 with the panic as its internal cause. It reports false
// when the connection must be aborted instead (http.ErrAbortHandler, or part
// of the response already out: a well-formed end would pass the truncated
// body off as whole).
func (app *Application) recovered(c *state, rec any) bool {
	if rec == http.ErrAbortHandler {
		return false
	}
	app.logger.Error("vireo: panic recovered", "method", c.x.Method(), "path", c.x.Path(),
		"request_id", c.errorRequestID(), "panic", rec, "stack", string(debug.Stack()))
	if c.written() && !c.writer.hijacked {
		return false
	}
	c.writer.dropHooks() // nothing of a panicked handler is saved
	if !c.written() {
		c.err = fmt.Errorf("panic: %v", rec)
		c.writer.status = http.StatusInternalServerError
		c.errorFired = false
		c.stopped = true
	}
	return true
}

// runDone runs the done hooks (Context.OnDone), if any.
func (c *state) runDone() {
	if len(c.doneHooks) > 0 {
		c.runDoneHooks()
	}
}

// recycle releases c and puts it back into the pool when it may be reused.
func (app *Application) recycle(c *state) {
	if c.release() {
		app.putBack(c)
	}
}

// putBack returns a released c for another request: to the exchange that
// keeps it (serveExchange), else to the pool.
func (app *Application) putBack(c *state) {
	if kept := c.kept; kept != nil {
		c.kept = nil
		*kept = c
		return
	}
	app.pool.Put(c)
}

// safeFireError runs the error handler, containing a panic inside it.
func (app *Application) safeFireError(c *state) {
	defer func() {
		if rec := recover(); rec != nil {
			app.logger.Error("vireo: panic in error handler", "panic", rec, "stack", string(debug.Stack()))
			if !c.written() {
				c.writer.status = http.StatusInternalServerError
				c.writer.writeHeaderNow()
			}
		}
	}()
	c.fireError()
}

// setPathValues makes the route parameters visible to r.PathValue; Build
// puts it first in every chain with parameters when WithPathValues is set.
var setPathValues = stateHandler(func(c *state, ctx Context) {
	for _, prm := range c.params {
		c.req().SetPathValue(prm.Key, prm.Value)
	}
	c.next(ctx)
})

// dispatch routes the request and runs the matched route's chain.
func (app *Application) dispatch(c *state, ctx Context) {
	x := c.x
	var method, path, rawPath string
	if x == engine.Exchange(&c.std) {
		// net/http: the request's fields, without three interface calls
		// (and read from c.std rather than through x: one load less in
		// the chain of dependent loads that starts every request)
		r := c.std.r
		method, path, rawPath = r.Method, r.URL.Path, r.URL.RawPath
	} else {
		method, path, rawPath = x.Method(), x.Path(), x.RawPath()
	}
	p, raw := path, false
	if rawPath != "" { // matchPath's own test, before its call
		p, raw = matchPath(path, rawPath)
	}
	var rt *Route
	if root := app.tree(method, false); root != nil {
		rt = root.lookup(p, &c.params)
	}
	if rt == nil && method == http.MethodHead {
		if root := app.tree(http.MethodGet, false); root != nil {
			rt = root.lookup(p, &c.params)
		}
	}
	// Registered patterns have no empty, "." or ".." segments and lookup
	// lets no parameter capture one, so only a path that matched nothing
	// can be unclean: it is redirected to its clean form.
	if rt == nil && !isCleanPath(p) {
		c.params = c.params[:0]
		app.redirect(c, location(x, cleanPath(p)))
		return
	}
	if rt == nil {
		rt = app.unmatched(c, p)
		if rt == nil {
			return
		}
	}
	if raw {
		for i := range c.params {
			v, err := url.PathUnescape(c.params[i].Value)
			if err != nil {
				c.stopWithError(NewHTTPError(http.StatusBadRequest, "malformed percent-encoding in path"))
				return
			}
			if hasDotSegment(v) {
				c.stopWithError(NewHTTPError(http.StatusBadRequest, `"." or ".." segment in an escaped path`))
				return
			}
			c.params[i].Value = v
		}
	}
	c.route = rt
	c.handlers, c.index = rt.chain, -1
	c.next(ctx)
}

// unmatched answers a request no route matched: trailing-slash handling,
// OPTIONS, 405 or 404. It returns a route to serve instead, when the
// trailing-slash policy is Ignore and the other form matches.
func (app *Application) unmatched(c *state, p string) *Route {
	x := c.x
	if app.trailingSlash != StrictSlash && p != "/" {
		alt := p + "/"
		if strings.HasSuffix(p, "/") {
			alt = p[:len(p)-1]
		}
		method := x.Method()
		if method == http.MethodHead && app.tree(method, false) == nil {
			method = http.MethodGet
		}
		if root := app.tree(method, false); root != nil {
			c.params = c.params[:0]
			if rt := root.lookup(alt, &c.params); rt != nil {
				if app.trailingSlash == IgnoreSlash {
					return rt
				}
				c.params = c.params[:0]
				app.redirect(c, location(x, alt))
				return nil
			}
		}
	}
	allow := app.allowed(c, p)
	if allow != "" {
		c.out.Header().Set("Allow", allow)
		if x.Method() == http.MethodOptions {
			c.stopWithStatus(http.StatusNoContent)
			return nil
		}
		c.stopWithStatus(http.StatusMethodNotAllowed)
		return nil
	}
	c.stopWithStatus(http.StatusNotFound)
	return nil
}

// allowed returns the Allow header value for p: the methods whose tree
// matches it, with HEAD implied by GET and OPTIONS always allowed.
func (app *Application) allowed(c *state, p string) string {
	var methods []string
	for _, t := range app.trees {
		c.params = c.params[:0]
		if t.root.lookup(p, &c.params) != nil {
			methods = append(methods, t.method)
			if t.method == http.MethodGet && app.tree(http.MethodHead, false) == nil {
				methods = append(methods, http.MethodHead)
			}
		}
	}
	c.params = c.params[:0]
	if len(methods) == 0 {
		return ""
	}
	if !slices.Contains(methods, http.MethodOptions) {
		methods = append(methods, http.MethodOptions)
	}
	slices.Sort(methods)
	return strings.Join(methods, ", ")
}

// redirect sends the client to target, an escaped path, keeping the query:
// 301 for GET and HEAD, 308 otherwise so the method and body are kept.
func (app *Application) redirect(c *state, target string) {
	code := http.StatusPermanentRedirect
	if m := c.x.Method(); m == http.MethodGet || m == http.MethodHead {
		code = http.StatusMovedPermanently
	}
	if q := c.x.RawQuery(); q != "" {
		target += "?" + q
	}
	c.out.Header().Set("Location", target)
	c.stopWithStatus(code)
	c.writer.writeHeaderNow()
}

// redirectTo returns a handler redirecting GET requests to target.
func redirectTo(target string) Handler {
	target = escapePath(target)
	return stateHandler(func(c *state, _ Context) { c.app.redirect(c, target) })
}
