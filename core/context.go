// The request Context.
//
// A Context carries one request through its handler chain. Contexts are
// pooled: the Application takes one from a sync.Pool, resets every field
// that belongs to a request, runs the chain and puts it back. That is why a
// Context must not be used after its handler returns: the same object may
// already be serving another request. The rule is enforced where it is
// cheap: a released Context panics with ErrContextReleased on access and its
// writes fail with it, the flag being atomic so that a stale handle on
// another goroutine reads it without a data race; Clone gives a detached
// copy for goroutines. A Context handed to code the router does not control
// and that may outlive the request (the chain run by a FromStd middleware
// that returned while its next was still running, as http.TimeoutHandler
// does) is never put back into the pool, so a stale handle there can never
// reach another request.
//
// Context deliberately does not implement context.Context: a pooled object
// that doubles as a cancellation context escapes into goroutines and
// libraries by design, which is exactly the leak to avoid. Use
// Request().Context() for deadlines and cancellation.

package core

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
)

// Handler is the function type of handlers and middleware. Middleware calls
// ctx.Next to run the rest of the chain; a handler that does not call Next
// ends the chain there.
type Handler func(ctx *Context)

// Context is the state of one request. See the package documentation for
// the rule on using it after the handler returns.
type Context struct {
	app     *Application
	writer  responseWriter
	out     http.ResponseWriter // &writer, or a net/http middleware's wrapper around it
	request *http.Request
	params  Params
	values  Values

	handlers []Handler
	index    int
	stopped  bool
	route    *Route
	err      error

	query       url.Values // parsed lazily by Query
	bodyLimited bool
	viewLayout  string
	viewData    map[string]any
	live        atomic.Bool // between reset and release; read by stale handles
	errorFired  bool
}

func newContext(app *Application, maxParams int) *Context {
	c := &Context{app: app, params: make(Params, 0, maxParams)}
	c.out = &c.writer
	return c
}

// reset prepares a pooled Context for a request. A Context in the pool is
// already cleared (see release), so reset only sets what the request brings.
func (c *Context) reset(w http.ResponseWriter, r *http.Request) {
	c.writer.reset(w)
	c.writer.writeTimeout = c.app.writeTimeout
	c.out = &c.writer
	c.request = r
	c.index = -1
	c.live.Store(true)
	if r.Body != nil && r.Body != http.NoBody {
		c.limitBody() // WithBodyLimit bounds Request().Body too, not only the readers
	}
}

// release clears every per-request field, so that nothing of this request
// is visible to the next one and a pooled Context keeps no request data
// alive, and marks the Context unusable until reset.
func (c *Context) release() {
	c.live.Store(false)
	c.request = nil
	c.writer.w = nil
	if len(c.writer.hooks) > 0 || c.writer.refused != nil {
		c.writer.dropHooks()
	}
	c.params = c.params[:0]
	if len(c.values.entries) > 0 {
		c.values.reset()
	}
	c.handlers = nil
	c.stopped = false
	c.route = nil
	c.err = nil
	c.query = nil
	c.bodyLimited = false
	c.viewLayout = ""
	if len(c.viewData) > 0 {
		clear(c.viewData)
	}
	c.errorFired = false
}

func (c *Context) check() {
	if !c.live.Load() {
		panic(ErrContextReleased)
	}
}

// Clone returns a copy of the request data (request, parameters, values)
// that stays valid after the handler returns, for use in goroutines. The
// copy has no response: its writes fail with ErrContextReleased.
func (c *Context) Clone() *Context {
	c.check()
	cp := &Context{
		app:     c.app,
		request: c.request,
		params:  append(Params(nil), c.params...),
		values:  c.values.clone(),
		route:   c.route,
		stopped: true,
	}
	cp.live.Store(true)
	cp.out = &cp.writer
	return cp
}

// App returns the application serving the request.
func (c *Context) App() *Application { return c.app }

// Request returns the request. Handlers may replace it with SetRequest, for
// example to attach a context.Context value.
func (c *Context) Request() *http.Request {
	c.check()
	return c.request
}

// SetRequest replaces the request seen by the rest of the chain.
func (c *Context) SetRequest(r *http.Request) {
	c.check()
	c.request = r
}

// ResponseWriter returns the response writer, for code written against
// net/http. It records status and size and supports http.Flusher,
// http.Hijacker and http.ResponseController.
func (c *Context) ResponseWriter() http.ResponseWriter {
	c.check()
	return c.out
}

// Route returns the matched route, or nil for unmatched requests.
func (c *Context) Route() *Route { return c.route }

// Method returns the request method.
func (c *Context) Method() string {
	c.check()
	return c.request.Method
}

// Path returns the request path, percent-decoded.
func (c *Context) Path() string {
	c.check()
	return c.request.URL.Path
}

// Param returns the value of the named route parameter, or "".
func (c *Context) Param(name string) string {
	c.check()
	return c.params.Get(name)
}

// Params returns the route parameters. The slice is only valid during the
// request.
func (c *Context) Params() Params {
	c.check()
	return c.params
}

// Query returns the first value of the named query-string parameter, or "".
// Route parameters are read with Param.
func (c *Context) Query(name string) string {
	c.check()
	if c.query == nil {
		c.query = c.request.URL.Query()
	}
	return c.query.Get(name)
}

// QueryDefault returns the named query-string parameter, or def when it is
// absent or empty.
func (c *Context) QueryDefault(name, def string) string {
	if v := c.Query(name); v != "" {
		return v
	}
	return def
}

// FormValue returns the named value from the query or the form body
// (urlencoded or multipart), reading at most the body limit.
func (c *Context) FormValue(name string) string {
	c.check()
	c.limitBody()
	return c.request.FormValue(name)
}

// PostValue returns the named value from the form body only.
func (c *Context) PostValue(name string) string {
	c.check()
	c.limitBody()
	return c.request.PostFormValue(name)
}

// RequestHeader returns the first value of the named request header, or "".
func (c *Context) RequestHeader(name string) string {
	c.check()
	return c.request.Header.Get(name)
}

// SetResponseHeader sets a response header, replacing any value it had.
// Headers reach the client with the status, so set them before writing the
// body.
func (c *Context) SetResponseHeader(name, value string) {
	c.check()
	c.out.Header().Set(name, value)
}

// SetContentType sets the response Content-Type, which the body writers
// (Text, HTML, JSON, ...) then keep.
func (c *Context) SetContentType(contentType string) {
	c.SetResponseHeader("Content-Type", contentType)
}

// Cookie returns the value of the named request cookie, or
// http.ErrNoCookie.
func (c *Context) Cookie(name string) (string, error) {
	c.check()
	ck, err := c.request.Cookie(name)
	if err != nil {
		return "", err
	}
	return ck.Value, nil
}

// SetCookie adds a Set-Cookie header to the response.
func (c *Context) SetCookie(cookie *http.Cookie) {
	c.check()
	http.SetCookie(c.out, cookie)
}

// SetStatus sets the response status. It reaches the client with the
// first byte of the body; an error status (>= 400) with no body runs the
// error handler registered for it. A code outside 100-999, which net/http
// cannot send, stops the chain with a 500 whose error names the code.
func (c *Context) SetStatus(code int) {
	c.check()
	if code < 100 || code > 999 {
		c.StopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: errStatusCode(code)})
		return
	}
	c.out.WriteHeader(code)
}

type errStatusCode int

func (e errStatusCode) Error() string {
	return "vireo: invalid status code " + strconv.Itoa(int(e))
}

// Status returns the response status set so far (200 by default).
func (c *Context) Status() int { return c.writer.status }

// Written reports whether the status line has been sent.
func (c *Context) Written() bool { return c.writer.wroteHeader || c.writer.hijacked }

// Write writes p to the response body.
func (c *Context) Write(p []byte) (int, error) {
	if !c.live.Load() {
		return 0, ErrContextReleased
	}
	return c.out.Write(p)
}

// WriteString writes s to the response body.
func (c *Context) WriteString(s string) (int, error) {
	if !c.live.Load() {
		return 0, ErrContextReleased
	}
	if c.out == http.ResponseWriter(&c.writer) {
		return c.writer.WriteString(s)
	}
	return io.WriteString(c.out, s)
}

// Values returns the request-scoped value store.
func (c *Context) Values() *Values {
	c.check()
	return &c.values
}

// Next runs the next handler of the chain, unless the chain was stopped.
func (c *Context) Next() {
	if c.stopped {
		return
	}
	c.index++
	if c.index < len(c.handlers) {
		c.handlers[c.index](c)
	}
}

// StopExecution stops the chain: later calls to Next do nothing.
func (c *Context) StopExecution() {
	c.check() // a stale handle must not stop the pooled Context's next request
	c.stopped = true
}

// IsStopped reports whether StopExecution (or a Stop variant) was called.
func (c *Context) IsStopped() bool { return c.stopped }

// StopWithStatus stops the chain and sets the status. When nothing has been
// written, the error handler for the code runs after the chain.
func (c *Context) StopWithStatus(code int) {
	c.StopExecution()
	c.SetStatus(code)
}

// StopWithError stops the chain with err. The status comes from err's
// StatusCode method when it has one (HTTPError does), else 500. The error
// handler for that status can read err with Err.
func (c *Context) StopWithError(err error) {
	c.check()
	c.err = err
	c.StopWithStatus(StatusOf(err))
}

// Err returns the error given to StopWithError, for error handlers.
func (c *Context) Err() error { return c.err }
