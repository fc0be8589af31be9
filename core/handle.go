// Context handles.
//
// A Context is a handle: a pointer to the pooled request state and the
// generation of that state it was made for. The state's generation goes up
// by one when its request ends (release) and when a WrapMiddleware chain is left
// running (retire), so a handle that outlives its request, kept by a
// goroutine or by net/http code, no longer matches: its reads return zero
// values, its writes and its error-returning methods ErrContextReleased,
// whatever request the state serves by then. Being a value, the handle
// costs no allocation per request, which a pointer per request would.
//
// A generation check alone leaves a window: a stale handle could pass the
// check just before its request ends and then touch the state while the
// next request uses it. Every method therefore pins the state for the
// duration of the call (pins, an atomic counter) before it checks the
// generation, and release bumps the generation before it waits for the
// pins to drain. With sequentially consistent atomics one side always sees
// the other: either the call sees the new generation and fails, or
// release sees the pin and waits for the call to end before it clears
// anything. The request's own handler pays two uncontended atomic adds a
// call; release only waits when a goroutine that kept a handle is in the
// middle of a call at that very moment.

package core

import (
	"bufio"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Context is a handler's handle to its request: the request, the route
// parameters, the response and the chain. It is a small value, passed and
// copied by value.
//
// A Context is valid until its handler chain has returned and the response
// is finished. After that, whatever the pooled state behind it serves next,
// its reads return zero values, StopError and the methods that return an error
// (Write and WriteString included) return ErrContextReleased, and the
// other writes do nothing: nothing of another request is ever reached
// through it. A goroutine that needs request data
// after the handler returns takes a Clone. Like an http.ResponseWriter, a
// Context is not meant for concurrent use by several goroutines while its
// request runs.
type Context struct {
	s   *state
	gen uint64
}

// enter pins c's state and returns it, or returns nil when c is stale (or
// the zero Context). A non-nil result must be released with exit.
func (c Context) enter() *state {
	s := c.s
	if s == nil {
		return nil
	}
	s.pins.Add(1)
	if s.gen.Load() != c.gen {
		s.pins.Add(-1)
		return nil
	}
	return s
}

// exit ends a call that enter began.
func (s *state) exit() { s.pins.Add(-1) }

// stateHandler makes a Handler of a handler of this package written
// against the state: like a Context method, it runs only for a live handle,
// pinned, and it gets the handle too, to run the rest of the chain with.
func stateHandler(h func(c *state, ctx Context)) Handler {
	return func(ctx Context) {
		s := ctx.enter()
		if s == nil {
			return
		}
		defer s.exit()
		h(s, ctx)
	}
}

// Alive reports whether c still belongs to a request in progress.
func (c Context) Alive() bool {
	s := c.enter()
	if s == nil {
		return false
	}
	s.exit()
	return true
}

// App returns the application serving the request (nil for the zero
// Context). It stays valid after the request.
func (c Context) App() *Application {
	if c.s == nil {
		return nil
	}
	return c.s.app
}

// Clone returns a Context holding a copy of the request data (request,
// parameters, values, route) that stays valid after the handler returns,
// for goroutines. The copy has no response: its writes fail with
// ErrContextReleased and it runs no chain.
func (c Context) Clone() Context {
	s := c.enter()
	if s == nil {
		return Context{}
	}
	defer s.exit()
	return s.Clone().handle()
}

// Values returns the request-scoped value store.
func (c Context) Values() Values { return Values{c} }

// Params returns the route parameters, for typed reads and iteration;
// Param reads one by name.
func (c Context) Params() Params { return Params{c} }

// ResponseWriter returns the response writer, for code written against
// net/http. It records status and size and supports http.Flusher,
// http.Hijacker and http.ResponseController. It is a handle like c: kept
// past the request, its writes fail with ErrContextReleased. The first call
// of a request allocates it (and the first after SetResponseWriter); to
// set headers, ResponseHeader does not.
func (c Context) ResponseWriter() http.ResponseWriter {
	s := c.enter()
	if s == nil {
		return releasedWriter{}
	}
	defer s.exit()
	return s.heldOut(c)
}

// SetResponseWriter makes w the writer the rest of the request writes to,
// ResponseWriter's setter: middleware takes ResponseWriter, installs a
// writer that wraps it, and puts it back when its Next returns (nil puts
// back the Context's own). w must pass WriteHeader on so that Status and
// the error handlers see the status.
func (c Context) SetResponseWriter(w http.ResponseWriter) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	if hw, ok := w.(*heldWriter); ok && hw.c == c {
		w = hw.w // a writer of this request put back: no second layer of checks
	}
	s.SetResponseWriter(w)
}

// ResponseHeader returns the response header map, as http.ResponseWriter's Header
// does. Changes after the status was sent have no effect. Request headers
// are read with RequestHeader.
func (c Context) ResponseHeader() http.Header {
	s := c.enter()
	if s == nil {
		return http.Header{}
	}
	h := s.out.Header()
	s.exit()
	return h
}

// IsStopped reports whether Stop (or a Stop variant) was called.
// It is true for a Context whose request is over.
func (c Context) IsStopped() bool {
	s := c.enter()
	if s == nil {
		return true
	}
	stopped := s.stopped
	s.exit()
	return stopped
}

// Logger returns the application's logger with the request ID attached
// (see RequestID) and bound to the request's context.Context: a line logged
// without a context (Info rather than InfoContext) reaches the log handler
// with the request's, so handlers that read it (trace IDs) see it. Once the
// request is over, it returns the application's logger.
func (c Context) Logger() *slog.Logger {
	s := c.enter()
	if s == nil {
		if c.s == nil {
			return slog.Default()
		}
		return c.s.app.logger
	}
	defer s.exit()
	return s.Logger()
}

// heldOut returns the handle writer around the current writer, made once
// per request and writer (release drops it; every live handle of a request
// is equal to c).
func (s *state) heldOut(c Context) *heldWriter {
	if s.held == nil || s.held.w != s.out {
		s.held = &heldWriter{c: c, w: s.out}
	}
	return s.held
}

// heldWriter is the http.ResponseWriter that ResponseWriter hands out: the
// request's writer w behind the checks of the handle c.
type heldWriter struct {
	c Context
	w http.ResponseWriter
}

// Header returns the response header map; a fresh, unused one once the
// request is over.
func (hw *heldWriter) Header() http.Header {
	s := hw.c.enter()
	if s == nil {
		return http.Header{}
	}
	h := hw.w.Header()
	s.exit()
	return h
}

// Write writes p to the response, or fails with ErrContextReleased.
func (hw *heldWriter) Write(p []byte) (int, error) {
	s := hw.c.enter()
	if s == nil {
		return 0, ErrContextReleased
	}
	defer s.exit()
	return hw.w.Write(p)
}

// WriteHeader sends the status line, unless the request is over.
func (hw *heldWriter) WriteHeader(code int) {
	if s := hw.c.enter(); s != nil {
		defer s.exit()
		hw.w.WriteHeader(code)
	}
}

// Flush sends what is buffered to the client.
func (hw *heldWriter) Flush() { _ = hw.FlushError() }

// FlushError is Flush with the error, for http.ResponseController.
func (hw *heldWriter) FlushError() error {
	s := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return http.NewResponseController(hw.w).Flush()
}

// Hijack takes over the connection (see http.Hijacker).
func (hw *heldWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	s := hw.c.enter()
	if s == nil {
		return nil, nil, ErrContextReleased
	}
	defer s.exit()
	return http.NewResponseController(hw.w).Hijack()
}

// SetWriteDeadline sets the response's write deadline, for
// http.ResponseController.
func (hw *heldWriter) SetWriteDeadline(t time.Time) error {
	s := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return http.NewResponseController(hw.w).SetWriteDeadline(t)
}

// SetReadDeadline sets the request body's read deadline, for
// http.ResponseController.
func (hw *heldWriter) SetReadDeadline(t time.Time) error {
	s := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return http.NewResponseController(hw.w).SetReadDeadline(t)
}

// EnableFullDuplex lets the handler read the body while it writes, for
// http.ResponseController.
func (hw *heldWriter) EnableFullDuplex() error {
	s := hw.c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return http.NewResponseController(hw.w).EnableFullDuplex()
}

// releasedWriter is what a stale Context's ResponseWriter returns: every
// write fails with ErrContextReleased.
type releasedWriter struct{}

func (releasedWriter) Header() http.Header              { return http.Header{} }
func (releasedWriter) Write([]byte) (int, error)        { return 0, ErrContextReleased }
func (releasedWriter) WriteHeader(int)                  {}
func (releasedWriter) FlushError() error                { return ErrContextReleased }
func (releasedWriter) SetWriteDeadline(time.Time) error { return ErrContextReleased }

// The methods below check the handle and call the state's method of the
// same name. Those whose call can run code of the application (a writer,
// a hook, a handler) or panic unpin with defer; the plain reads unpin
// inline, which keeps them as cheap as a field read plus the two atomic
// adds.

// ReadBody reads the whole request body, up to the body limit.
func (c Context) ReadBody() ([]byte, error) {
	s := c.enter()
	if s == nil {
		return nil, ErrContextReleased
	}
	defer s.exit()
	return s.ReadBody()
}

// ReadJSON decodes the JSON request body into v, then validates it (see
// WithValidator). The request must say it is JSON (Content-Type
// application/json or a +json type), else 415: a cross-site HTML form can
// post text/plain but not JSON. Unknown fields are ignored; an empty body,
// malformed JSON, a type mismatch or trailing data give a 400 naming the
// problem, an oversized body a 413.
func (c Context) ReadJSON(v any) error {
	s := c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return s.ReadJSON(v)
}

// ReadForm parses the form body (urlencoded or multipart) and the query
// into the struct pointed to by v, then validates it (see WithValidator).
// Fields are matched by their `form` tag,
// else by name, case-insensitively; a tag of "-" skips the field. Supported
// field types: string, bool, ints, uints, floats and slices of those.
func (c Context) ReadForm(v any) error {
	s := c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return s.ReadForm(v)
}

// Request returns the request. Handlers may replace it with SetRequest, for
// example to attach a context.Context value.
func (c Context) Request() *http.Request {
	s := c.enter()
	if s == nil {
		return nil
	}
	v := s.Request()
	s.exit()
	return v
}

// SetRequest replaces the request seen by the rest of the chain (nil is
// ignored).
func (c Context) SetRequest(r *http.Request) {
	s := c.enter()
	if s == nil {
		return
	}
	s.SetRequest(r)
	s.exit()
}

// Route returns the matched route, or nil for unmatched requests.
func (c Context) Route() *Route {
	s := c.enter()
	if s == nil {
		return nil
	}
	v := s.Route()
	s.exit()
	return v
}

// Method returns the request method.
func (c Context) Method() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	v := s.Method()
	s.exit()
	return v
}

// Path returns the request path, percent-decoded.
func (c Context) Path() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.Path()
}

// Param returns the value of the named route parameter, or "".
func (c Context) Param(name string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	v := s.params.get(name) // cannot panic: no defer needed to unpin
	s.exit()
	return v
}

// Query returns the first value of the named query-string parameter, or "".
// Route parameters are read with Param.
func (c Context) Query(name string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.Query(name)
}

// QueryDefault returns the named query-string parameter, or def when it is
// absent or empty.
func (c Context) QueryDefault(name, def string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.QueryDefault(name, def)
}

// FormValue returns the named value from the query or the form body
// (urlencoded or multipart), reading at most the body limit.
func (c Context) FormValue(name string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.FormValue(name)
}

// PostValue returns the named value from the form body only.
func (c Context) PostValue(name string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.PostValue(name)
}

// RequestHeader returns the first value of the named request header, or "".
func (c Context) RequestHeader(name string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	v := s.RequestHeader(name)
	s.exit()
	return v
}

// SetResponseHeader sets a response header, replacing any value it had.
// Headers reach the client with the status, so set them before writing the
// body.
func (c Context) SetResponseHeader(name, value string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetResponseHeader(name, value)
}

// SetContentType sets the response Content-Type, which the body writers
// (Text, HTML, JSON, ...) then keep.
func (c Context) SetContentType(contentType string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetContentType(contentType)
}

// RequestCookie returns the value of the named request cookie and whether
// the request has it; SetCookie is the response side.
func (c Context) RequestCookie(name string) (string, bool) {
	s := c.enter()
	if s == nil {
		return "", false
	}
	defer s.exit()
	return s.Cookie(name)
}

// SetCookie adds a Set-Cookie header to the response.
func (c Context) SetCookie(cookie *http.Cookie) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetCookie(cookie)
}

// SetStatus sets the response status. It reaches the client with the
// first byte of the body; an error status (>= 400) with no body runs the
// error handler registered for it. A code outside 100-999, which net/http
// cannot send, stops the chain with a 500 whose error names the code.
func (c Context) SetStatus(code int) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetStatus(code)
}

// Status returns the response status set so far (200 by default).
func (c Context) Status() int {
	s := c.enter()
	if s == nil {
		return 0
	}
	v := s.Status()
	s.exit()
	return v
}

// BytesWritten returns the number of response body bytes written so far
// (through the Context, its ResponseWriter and the error page), before any
// transfer or content encoding net/http or middleware adds below it.
func (c Context) BytesWritten() int64 {
	s := c.enter()
	if s == nil {
		return 0
	}
	v := s.writer.size
	s.exit()
	return v
}

// OnDone registers h to run once the response is finished: after the
// chain, the error page and the 500 of a recovered panic, while the
// Context is still valid (see DoneHook). Middleware that measures requests
// (tracing, metrics) ends its work there rather than after Next, which
// returns before the application writes those pages. It does not allocate
// once the pooled Context has held as many hooks before; h should be a
// pointer (a pointer in an interface does not allocate, a closure usually
// does). A nil h is ignored.
func (c Context) OnDone(h DoneHook) {
	s := c.enter()
	if s == nil {
		return
	}
	s.OnDone(h)
	s.exit()
}

// Written reports whether the status line has been sent.
func (c Context) Written() bool {
	s := c.enter()
	if s == nil {
		return false
	}
	v := s.Written()
	s.exit()
	return v
}

// Write writes p to the response body.
func (c Context) Write(p []byte) (int, error) {
	s := c.enter()
	if s == nil {
		return 0, ErrContextReleased
	}
	defer s.exit()
	return s.Write(p)
}

// WriteString writes text to the response body.
func (c Context) WriteString(text string) (int, error) {
	s := c.enter()
	if s == nil {
		return 0, ErrContextReleased
	}
	defer s.exit()
	return s.WriteString(text)
}

// Next runs the next handler of the chain, unless the chain was stopped.
func (c Context) Next() {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.next(c)
}

// Stop stops the chain: later calls to Next do nothing.
func (c Context) Stop() {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Stop()
}

// StopWithStatus stops the chain and sets the status. When nothing has been
// written, the error handler for the code runs after the chain.
func (c Context) StopWithStatus(code int) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.StopWithStatus(code)
}

// StopWithError stops the chain with err. The status comes from err's
// StatusCode method when it has one (HTTPError does), else 500. The error
// handler for that status can read err with StopError.
func (c Context) StopWithError(err error) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.StopWithError(err)
}

// StopError returns the error given to StopWithError, for error handlers, or
// ErrContextReleased once the request is over.
func (c Context) StopError() error {
	s := c.enter()
	if s == nil {
		return ErrContextReleased
	}
	v := s.Err()
	s.exit()
	return v
}

// Attachment marks the response as a download named filename.
func (c Context) Attachment(filename string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Attachment(filename)
}

// Download serves the file at path (as ServeFile does) as a download named
// filename, or the file's own base name when filename is "".
func (c Context) Download(path, filename string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Download(path, filename)
}

// SSE starts a server-sent events response: it sets Content-Type
// text/event-stream, Cache-Control no-cache and X-Accel-Buffering no (for
// nginx), sends the status and flushes. It fails when the writer cannot
// flush (under a request timeout, for example). The stream ends when the
// handler returns; watch Request().Context().Done() for the client leaving.
func (c Context) SSE() (*EventStream, error) {
	s := c.enter()
	if s == nil {
		return nil, ErrContextReleased
	}
	defer s.exit()
	return s.SSE(c)
}

// Scheme returns "https" or "http": the request's own (TLS or not), or the
// one a trusted proxy reports.
func (c Context) Scheme() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.Scheme()
}

// IsTLS reports whether the client's connection is secure: Scheme is
// "https".
func (c Context) IsTLS() bool {
	s := c.enter()
	if s == nil {
		return false
	}
	defer s.exit()
	return s.IsTLS()
}

// Host returns the host the client asked for (with its port, if any): the
// request's Host, or the one a trusted proxy reports.
func (c Context) Host() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.Host()
}

// NegotiateFormat returns the offer the client's Accept header prefers, or
// "" when it accepts none of them.
func (c Context) NegotiateFormat(offers ...string) string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.NegotiateFormat(offers...)
}

// Negotiate writes data in the format the client prefers among offers
// (default JSON, XML, HTML, text, in that order of preference for equal
// q-values): JSON and XML marshal data; text writes fmt.Sprint(data); HTML
// writes fmt.Sprint(data) escaped, strings included, unless data is a
// Markup, whose HTML method vouches for its output. When the client
// accepts none of the offers, the request is stopped with 406.
func (c Context) Negotiate(data any, offers ...string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Negotiate(data, offers...)
}

// ClientIP returns the client's IP address: the connection's peer, or the
// address from the trusted proxy header set with WithTrustedProxies.
func (c Context) ClientIP() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	defer s.exit()
	return s.RemoteAddr()
}

// Text writes text as text/plain (unless a Content-Type was set).
func (c Context) Text(text string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Text(text)
}

// HTML writes text as text/html (unless a Content-Type was set). text is sent as
// is: escape untrusted data yourself or use View.
func (c Context) HTML(text string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.HTML(text)
}

// JSON writes v encoded as JSON. A value that cannot be encoded stops the
// chain with a 500 and nothing of the document is sent.
func (c Context) JSON(v any) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.JSON(v)
}

// JSONIndent writes v encoded as JSON, each level indented by indent.
func (c Context) JSONIndent(v any, indent string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.JSONIndent(v, indent)
}

// XML writes v encoded as XML, with the XML header. A value that cannot be
// encoded stops the chain with a 500.
func (c Context) XML(v any) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.XML(v)
}

// Redirect replies with a redirect to url (absolute or relative to the
// request path) and stops the chain. code must be a 3xx status; 0 means 302.
func (c Context) Redirect(url string, code int) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.Redirect(url, code)
}

// RequestID returns the request's ID, or "" when no middleware gave it one.
func (c Context) RequestID() string {
	s := c.enter()
	if s == nil {
		return ""
	}
	v := s.RequestID()
	s.exit()
	return v
}

// OnBeforeWrite registers h to run before the response's status line goes
// out (see BeforeWriteHook); hooks run in registration order and the first
// error stops them. A hook registered after the response started never
// runs. It does not allocate once the pooled Context has held as many hooks
// before; h itself should be a pointer (a pointer in an interface does not
// allocate, a closure usually does).
func (c Context) OnBeforeWrite(h BeforeWriteHook) {
	s := c.enter()
	if s == nil {
		return
	}
	s.OnBeforeWrite(h)
	s.exit()
}

// ServeFile serves the named file from the local file system with
// http.ServeContent (conditional requests, ranges, Content-Type by
// extension). A missing file or a directory is a 404 and an unreadable one
// a 403, both through the application's error pages. name is trusted:
// never build it from request input; use HandleDir for that.
func (c Context) ServeFile(name string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.ServeFile(name)
}

// NextWithTimeout runs the rest of the chain like Next, with a deadline of
// d on Request().Context(). It reports whether the deadline passed first;
// then the client got resp at the deadline (when resp is nil: 503,
// text/plain, "Service Unavailable: the request took too long") and the
// chain's writes were refused with http.ErrHandlerTimeout. The chain runs
// in a goroutine of its own and its response is buffered until it returns,
// so it cannot stream; after a timeout the Context stays out of the pool
// until the chain returns, so a late handler never reaches another request.
func (c Context) NextWithTimeout(d time.Duration, resp *TimeoutResponse) (timedOut bool) {
	s := c.enter()
	if s == nil {
		return false
	}
	defer s.exit()
	return s.NextWithTimeout(d, resp)
}

// Validate runs the application's Validator on v (nil when there is none).
// Errors come back as a *ValidationError or an HTTPError of 400, ready for
// StopWithError.
func (c Context) Validate(v any) error {
	s := c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return s.Validate(v)
}

// ReadXML decodes the XML request body into v, then validates it. Like
// ReadJSON it answers a body that does not say it is XML (Content-Type
// application/xml, text/xml or a +xml type) with 415,
// malformed XML or trailing data with 400 and an oversized body with 413.
func (c Context) ReadXML(v any) error {
	s := c.enter()
	if s == nil {
		return ErrContextReleased
	}
	defer s.exit()
	return s.ReadXML(v)
}

// SetViewLayout overrides the layout of the next View call in this request;
// the view package's NoLayout renders without one.
func (c Context) SetViewLayout(layout string) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetViewLayout(layout)
}

// SetViewData sets a value that View merges into its data, so middleware
// can provide data (a user, a CSRF token) that every page sees. When View's
// data is a map[string]any, its own keys win; when it is nil, the map of
// SetViewData's values is the data; other data types are rendered as
// given, and the values are then available only through ViewData.
func (c Context) SetViewData(key string, value any) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.SetViewData(key, value)
}

// ViewData returns the values set with SetViewData in this request. The
// map belongs to the Context and is cleared when the request ends: copy
// what must outlive the handler.
func (c Context) ViewData() map[string]any {
	s := c.enter()
	if s == nil {
		return nil
	}
	defer s.exit()
	return s.ViewData()
}

// View renders the named template with data and writes it as text/html.
// On failure nothing is written but the error status: the error is logged
// and the chain is stopped with a 500 whose cause StopError returns.
func (c Context) View(name string, data any) {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.View(name, data)
}

// WriteErrorPage runs the error handler for the current status now, when
// the status is an error (400 or more), nothing has been written and the
// handler has not run yet for this request. Middleware that installs a
// writer with SetResponseWriter calls it after Next, before finishing its
// writer, so that error pages (404, 500, StopWithError) go through it like
// any other body.
func (c Context) WriteErrorPage() {
	s := c.enter()
	if s == nil {
		return
	}
	defer s.exit()
	s.WriteErrorPage()
}
