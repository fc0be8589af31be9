// Route registration.
//
// A Router is a group: a path prefix with its own middleware and error
// handlers, nested under its parent. Registering a route parses its pattern
// and inserts it into the method's tree at once, so a bad or conflicting
// pattern is reported at the call (Route.Err) and again by
// Application.Build, which refuses to serve an application with errors.
// Middleware chains are assembled by Build, once, so Use applies to the
// routes of its group whether they were registered before or after it.

package core

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
)

// Router registers routes under a path prefix. The Application embeds the
// root Router; Group creates nested ones.
type Router struct {
	app           *Application
	parent        *Router
	prefix        string // full prefix from the root, no trailing slash ("" at the root)
	middleware    []Handler
	errorHandlers map[int][]Handler
	errorChains   map[int][]Handler // the middleware of the group, then errorHandlers: for unmatched requests (Build)
}

// Route is a registered route.
type Route struct {
	Method  string
	Pattern string // the full pattern, group prefixes included

	router    *Router
	handlers  []Handler
	chain     []Handler // middleware + handlers, assembled by Build
	maxParams int
	params    []RouteParam // the pattern's parameters, set when it parses
	err       error

	doc    RouteDoc // what the OpenAPI document says of the route
	hidden bool     // left out of the OpenAPI document (the document's own route)
}

// Params returns the parameters of the route's full pattern (group prefixes
// included) in order, or nil when the pattern did not parse. The slice is
// the caller's.
func (rt *Route) Params() []RouteParam { return append([]RouteParam(nil), rt.params...) }

// Err returns the registration error of the route, or nil.
func (rt *Route) Err() error { return rt.err }

// String returns "METHOD /pattern".
func (rt *Route) String() string { return rt.Method + " " + rt.Pattern }

// Prefix returns the full path prefix of the router.
func (r *Router) Prefix() string { return r.prefix }

// Params returns the parameters of the router's full prefix in order, nil
// for a prefix without any or one that does not parse (routes registered
// under it report the error).
func (r *Router) Params() []RouteParam {
	if r.prefix == "" {
		return nil
	}
	tokens, err := parsePattern(r.prefix)
	if err != nil {
		return nil
	}
	return patternParams(tokens)
}

// App returns the application the router belongs to.
func (r *Router) App() *Application { return r.app }

// Group returns a child router for routes under prefix. middleware runs,
// after the parent's, for every route of the group.
func (r *Router) Group(prefix string, middleware ...Handler) *Router {
	p := strings.TrimSuffix(joinPath(r.prefix, prefix), "/")
	if prefix != "" && prefix[0] != '/' {
		r.app.recordError("", prefix, errors.New("group prefix must begin with '/'"))
	}
	return &Router{app: r.app, parent: r, prefix: p, middleware: r.app.checkMiddleware(p, middleware)}
}

// Use appends middleware that runs, for every route of this router and its
// groups, after routing and before the route's own handlers.
func (r *Router) Use(middleware ...Handler) {
	r.middleware = append(r.middleware, r.app.checkMiddleware(r.prefix, middleware)...)
}

// OnErrorCode registers the handlers that write the response for an error
// status (400-599) set without a body, for requests of this router's routes
// and unmatched requests under its prefix. Another code or a nil handler is
// a registration error.
func (r *Router) OnErrorCode(code int, handlers ...Handler) {
	if code < 400 || code > 599 {
		r.app.recordError("", r.prefix, fmt.Errorf("OnErrorCode(%d): not an error status (400-599)", code))
		return
	}
	for _, h := range handlers {
		if h == nil {
			r.app.recordError("", r.prefix, fmt.Errorf("OnErrorCode(%d): nil handler", code))
			return
		}
	}
	if r.errorHandlers == nil {
		r.errorHandlers = map[int][]Handler{}
		r.app.errorParties = append(r.app.errorParties, r)
	}
	r.errorHandlers[code] = handlers
}

// Handle registers handlers for method and pattern (relative to the
// router's prefix). Errors are kept on the returned Route and reported by
// Build; the package documentation gives the pattern grammar.
func (r *Router) Handle(method, pattern string, handlers ...Handler) *Route {
	full := joinPath(r.prefix, pattern)
	rt := &Route{Method: method, Pattern: full, router: r, handlers: handlers}
	rt.err = r.app.addRoute(rt)
	return rt
}

// Get registers a GET route; it also answers HEAD unless a HEAD route exists.
func (r *Router) Get(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodGet, pattern, handlers...)
}

// Post registers a POST route.
func (r *Router) Post(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodPost, pattern, handlers...)
}

// Put registers a PUT route.
func (r *Router) Put(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodPut, pattern, handlers...)
}

// Patch registers a PATCH route.
func (r *Router) Patch(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodPatch, pattern, handlers...)
}

// Delete registers a DELETE route.
func (r *Router) Delete(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodDelete, pattern, handlers...)
}

// Head registers a HEAD route.
func (r *Router) Head(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodHead, pattern, handlers...)
}

// Options registers an OPTIONS route.
func (r *Router) Options(pattern string, handlers ...Handler) *Route {
	return r.Handle(http.MethodOptions, pattern, handlers...)
}

// anyMethods are the methods Any registers.
var anyMethods = [...]string{
	http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodHead, http.MethodOptions,
	http.MethodConnect, http.MethodTrace,
}

// AnyMethods returns the methods Any registers, in a new slice the caller
// may change.
func AnyMethods() []string { return append([]string(nil), anyMethods[:]...) }

// Any registers the handlers for every method of AnyMethods.
func (r *Router) Any(pattern string, handlers ...Handler) []*Route {
	routes := make([]*Route, len(anyMethods))
	for i, m := range anyMethods {
		routes[i] = r.Handle(m, pattern, handlers...)
	}
	return routes
}

// HandleDir serves the files of root under prefix (GET and HEAD), with
// index.html for directories. For a directory on disk pass os.DirFS(dir) or
// Dir(dir). What is refused: a request path with ".", ".." or empty
// segments (redirected to its clean form first), an escaped slash or
// backslash, a backslash or a NUL byte (400); with os.DirFS or Dir, a name
// whose path, symbolic links resolved, leaves the directory (404, as if it
// did not exist: HandleDir turns an os.DirFS root into Dir); a directory
// without index.html, and a file named with a trailing slash (404). Other
// fs.FS implementations (embed.FS, fstest.MapFS, zip) are served as they
// resolve names.
func (r *Router) HandleDir(prefix string, root fs.FS) *Route {
	p := strings.TrimSuffix(prefix, "/")
	if root == nil {
		return r.app.refuse(http.MethodGet, joinPath(r.prefix, p), errors.New("HandleDir needs a non-nil fs.FS"))
	}
	if full := joinPath(r.prefix, p); full != "/" {
		r.Get(p, redirectTo(full+"/"))
	}
	return r.Get(p+"/{file:path}", serveFS(confine(root), "file"))
}

// Mount serves h for every method under prefix, with the prefix stripped
// from the request path as http.StripPrefix does.
func (r *Router) Mount(prefix string, h http.Handler) *Route {
	p := strings.TrimSuffix(prefix, "/")
	full := joinPath(r.prefix, p)
	if h == nil {
		return r.app.refuse(http.MethodGet, full, errors.New("Mount needs a non-nil http.Handler"))
	}
	handler := mountHandler(full, h)
	if p != "" {
		r.Any(p, handler)
	}
	routes := r.Any(p+"/{vireo_mounted_path:path}", handler)
	return routes[0]
}

// joinPath joins a group prefix and a pattern: a pattern of "" or "/" in a
// group names the group's prefix itself.
func joinPath(prefix, pattern string) string {
	if prefix == "" {
		if pattern == "" {
			return "/"
		}
		return pattern
	}
	if pattern == "" || pattern == "/" {
		return prefix
	}
	return prefix + pattern
}

// chainPrefix returns the middleware of the router's ancestors and itself,
// root first.
func (r *Router) chainPrefix() []Handler {
	if r == nil {
		return nil
	}
	return append(r.parent.chainPrefix(), r.middleware...)
}

// addRoute validates rt and inserts it into its method's tree.
func (app *Application) addRoute(rt *Route) error {
	fail := func(reason string) error {
		return app.recordError(rt.Method, rt.Pattern, errors.New(reason))
	}
	if app.built.Load() {
		return fail("registered after the application started serving")
	}
	if !validMethod(rt.Method) {
		return fail("invalid method")
	}
	if len(rt.handlers) == 0 {
		return fail("no handler")
	}
	for _, h := range rt.handlers {
		if h == nil {
			return fail("nil handler")
		}
	}
	tokens, err := parsePattern(rt.Pattern)
	if err != nil {
		return app.recordError(rt.Method, rt.Pattern, err)
	}
	rt.params = patternParams(tokens)
	rt.maxParams = len(rt.params)
	root := app.tree(rt.Method, true)
	if err := root.insert(tokens, rt); err != nil {
		return app.recordError(rt.Method, rt.Pattern, err)
	}
	app.routes = append(app.routes, rt)
	return nil
}

// validMethod reports whether m is an HTTP token (RFC 9110 section 5.6.2).
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}
