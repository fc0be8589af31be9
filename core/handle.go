// Context handles.
//
// A Context is a handle: a pointer to the pooled request state and the
// generation of that state it was made for. The state's generation goes up
// by one when its request ends (release) and when a WrapMiddleware chain
// is left running (retire), so a handle that outlives its request, kept by
// a goroutine or by net/http code, no longer matches: its reads return zero
// values, its writes and its error-returning methods ErrContextReleased,
// whatever request the state serves by then. Being a value, the handle
// costs no allocation per request, which a pointer per request would.
//
// Every Context method goes through one gate, with (run for methods without
// a result, with2 for two): it checks the handle and runs the method's
// body, a function literal of the state, only for a live handle.
//
// A generation check alone leaves a window: a stale handle could pass the
// check just before its request ends and then touch the state while the
// next request uses it. A call from any goroutine but the one serving the
// request therefore pins the state for its duration (pins, an atomic
// counter) before it checks the generation, and release bumps the
// generation before it waits for the pins to drain. With sequentially
// consistent atomics one side always sees the other: either the call sees
// the new generation and fails, or release sees the pin and waits for the
// call to end before it clears anything.
//
// The goroutine serving the request (the state's owner, recorded by reset
// and cleared by retire) needs no pin: release runs on that goroutine after
// the chain, so it cannot run during one of that goroutine's own calls, and
// the generation check, a plain load, is enough to refuse a handle of an
// earlier request. The request's own handler thus pays no atomic
// read-modify-write per call; a goroutine that kept a handle pays two, and
// release only waits when such a goroutine is in the middle of a call at
// that very moment. The owner is identified by the runtime's goroutine
// pointer (curg, goroutine_*.s); where that is not available every call
// pins.

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

// with runs f on c's state and returns its result, or returns zero when c
// is stale (or the zero Context). It is the gate of every Context method
// with a result.
func with[T any](c Context, zero T, f func(*state) T) T {
	s := c.s
	if s == nil {
		return zero
	}
	if s.owned() {
		if s.gen.Load() != c.gen {
			return zero
		}
		return f(s)
	}
	return withPinned(c, zero, f)
}

// withPinned is with for a call from another goroutine: pinned.
func withPinned[T any](c Context, zero T, f func(*state) T) T {
	s := c.s
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() != c.gen {
		return zero
	}
	return f(s)
}

// with2 is with for methods of two results.
func with2[A, B any](c Context, za A, zb B, f func(*state) (A, B)) (A, B) {
	s := c.s
	if s == nil {
		return za, zb
	}
	if s.owned() {
		if s.gen.Load() != c.gen {
			return za, zb
		}
		return f(s)
	}
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() != c.gen {
		return za, zb
	}
	return f(s)
}

// run is with for methods without a result.
func run(c Context, f func(*state)) {
	s := c.s
	if s == nil {
		return
	}
	if s.owned() {
		if s.gen.Load() == c.gen {
			f(s)
		}
		return
	}
	runPinned(c, f)
}

// runPinned is run for a call from another goroutine: pinned.
func runPinned(c Context, f func(*state)) {
	s := c.s
	s.pins.Add(1)
	defer s.pins.Add(-1)
	if s.gen.Load() == c.gen {
		f(s)
	}
}

// owned reports whether the calling goroutine is the one serving s's
// request.
func (s *state) owned() bool {
	g := s.owner.Load()
	return g != 0 && g == curg()
}

// enter pins c's state and returns it, or returns nil when c is stale (or
// the zero Context), for code that cannot take the gate (a writer's
// methods). A non-nil result must be released with exit.
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
// against the state: like a Context method, it runs only for a live
// handle, through the gate, and it gets the handle too, to run the rest of
// the chain with.
func stateHandler(h func(c *state, ctx Context)) Handler {
	return func(ctx Context) {
		run(ctx, func(s *state) { h(s, ctx) })
	}
}

// Alive reports whether c still belongs to a request in progress.
func (c Context) Alive() bool {
	return with(c, false, func(s *state) bool {
		return true
	})
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
	return with(c, Context{}, func(s *state) Context {
		return s.Clone().handle()
	})
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
	return with[http.ResponseWriter](c, releasedWriter{}, func(s *state) http.ResponseWriter {
		return s.heldOut(c)
	})
}

// SetResponseWriter makes w the writer the rest of the request writes to,
// ResponseWriter's setter: middleware takes ResponseWriter, installs a
// writer that wraps it, and puts it back when its Next returns (nil puts
// back the Context's own). w must pass WriteHeader on so that Status and
// the error handlers see the status.
func (c Context) SetResponseWriter(w http.ResponseWriter) {
	run(c, func(s *state) {
		if hw, ok := w.(*heldWriter); ok && hw.c == c {
			w = hw.w // a writer of this request put back: no second layer of checks
		}
		s.SetResponseWriter(w)
	})
}

// ResponseHeader returns the response header map, as http.ResponseWriter's Header
// does. Changes after the status was sent have no effect. Request headers
// are read with RequestHeader.
func (c Context) ResponseHeader() http.Header {
	return with(c, http.Header{}, func(s *state) http.Header {
		h := s.out.Header()
		return h
	})
}

// IsStopped reports whether Stop (or a Stop variant) was called.
// It is true for a Context whose request is over.
func (c Context) IsStopped() bool {
	return with(c, true, func(s *state) bool {
		stopped := s.stopped
		return stopped
	})
}

// Logger returns the application's logger with the request ID attached
// (see RequestID); once the request is over, the application's logger.
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
	return with2(c, nil, ErrContextReleased, func(s *state) ([]byte, error) {
		return s.ReadBody()
	})
}

// ReadJSON decodes the JSON request body into v, then validates it (see
// WithValidator). The request must say it is JSON (Content-Type
// application/json or a +json type), else 415: a cross-site HTML form can
// post text/plain but not JSON. Unknown fields are ignored; an empty body,
// malformed JSON, a type mismatch or trailing data give a 400 naming the
// problem, an oversized body a 413.
func (c Context) ReadJSON(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.ReadJSON(v)
	})
}

// ReadForm parses the form body (urlencoded or multipart) and the query
// into the struct pointed to by v, then validates it (see WithValidator).
// Fields are matched by their `form` tag,
// else by name, case-insensitively; a tag of "-" skips the field. Supported
// field types: string, bool, ints, uints, floats and slices of those.
func (c Context) ReadForm(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.ReadForm(v)
	})
}

// Request returns the request. Handlers may replace it with SetRequest, for
// example to attach a context.Context value.
func (c Context) Request() *http.Request {
	return with(c, nil, func(s *state) *http.Request {
		v := s.Request()
		return v
	})
}

// SetRequest replaces the request seen by the rest of the chain (nil is
// ignored).
func (c Context) SetRequest(r *http.Request) {
	run(c, func(s *state) {
		s.SetRequest(r)
	})
}

// Route returns the matched route, or nil for unmatched requests.
func (c Context) Route() *Route {
	return with(c, nil, func(s *state) *Route {
		v := s.Route()
		return v
	})
}

// Method returns the request method.
func (c Context) Method() string {
	return with(c, "", func(s *state) string {
		v := s.Method()
		return v
	})
}

// Path returns the request path, percent-decoded.
func (c Context) Path() string {
	return with(c, "", func(s *state) string {
		return s.Path()
	})
}

// Param returns the value of the named route parameter, or "".
func (c Context) Param(name string) string {
	return with(c, "", func(s *state) string {
		v := s.params.get(name) // cannot panic: no defer needed to unpin
		return v
	})
}

// Query returns the first value of the named query-string parameter, or "".
// Route parameters are read with Param.
func (c Context) Query(name string) string {
	return with(c, "", func(s *state) string {
		return s.Query(name)
	})
}

// QueryDefault returns the named query-string parameter, or def when it is
// absent or empty (and for a stale handle, as for a request without it).
func (c Context) QueryDefault(name, def string) string {
	return with(c, def, func(s *state) string {
		return s.QueryDefault(name, def)
	})
}

// FormValue returns the named value from the query or the form body
// (urlencoded or multipart), reading at most the body limit.
func (c Context) FormValue(name string) string {
	return with(c, "", func(s *state) string {
		return s.FormValue(name)
	})
}

// PostValue returns the named value from the form body only.
func (c Context) PostValue(name string) string {
	return with(c, "", func(s *state) string {
		return s.PostValue(name)
	})
}

// RequestHeader returns the first value of the named request header, or "".
func (c Context) RequestHeader(name string) string {
	return with(c, "", func(s *state) string {
		v := s.RequestHeader(name)
		return v
	})
}

// SetResponseHeader sets a response header, replacing any value it had.
// Headers reach the client with the status, so set them before writing the
// body.
func (c Context) SetResponseHeader(name, value string) {
	run(c, func(s *state) {
		s.SetResponseHeader(name, value)
	})
}

// SetContentType sets the response Content-Type, which the body writers
// (Text, HTML, JSON, ...) then keep.
func (c Context) SetContentType(contentType string) {
	run(c, func(s *state) {
		s.SetContentType(contentType)
	})
}

// RequestCookie returns the value of the named request cookie and whether
// the request has it; SetCookie is the response side.
func (c Context) RequestCookie(name string) (string, bool) {
	return with2(c, "", false, func(s *state) (string, bool) {
		return s.Cookie(name)
	})
}

// SetCookie adds a Set-Cookie header to the response.
func (c Context) SetCookie(cookie *http.Cookie) {
	run(c, func(s *state) {
		s.SetCookie(cookie)
	})
}

// SetStatus sets the response status. It reaches the client with the
// first byte of the body; an error status (>= 400) with no body runs the
// error handler registered for it. A code outside 100-999, which net/http
// cannot send, stops the chain with a 500 whose error names the code.
func (c Context) SetStatus(code int) {
	run(c, func(s *state) {
		s.SetStatus(code)
	})
}

// Status returns the response status set so far (200 by default).
func (c Context) Status() int {
	return with(c, 0, func(s *state) int {
		v := s.Status()
		return v
	})
}

// Written reports whether the status line has been sent.
func (c Context) Written() bool {
	return with(c, false, func(s *state) bool {
		v := s.Written()
		return v
	})
}

// Write writes p to the response body.
func (c Context) Write(p []byte) (int, error) {
	return with2(c, 0, ErrContextReleased, func(s *state) (int, error) {
		return s.Write(p)
	})
}

// WriteString writes text to the response body.
func (c Context) WriteString(text string) (int, error) {
	return with2(c, 0, ErrContextReleased, func(s *state) (int, error) {
		return s.WriteString(text)
	})
}

// Next runs the next handler of the chain, unless the chain was stopped.
func (c Context) Next() {
	run(c, func(s *state) {
		s.next(c)
	})
}

// Stop stops the chain: later calls to Next do nothing.
func (c Context) Stop() {
	run(c, func(s *state) {
		s.Stop()
	})
}

// StopWithStatus stops the chain and sets the status. When nothing has been
// written, the error handler for the code runs after the chain.
func (c Context) StopWithStatus(code int) {
	run(c, func(s *state) {
		s.StopWithStatus(code)
	})
}

// StopWithError stops the chain with err. The status comes from err's
// StatusCode method when it has one (HTTPError does), else 500. The error
// handler for that status can read err with StopError.
func (c Context) StopWithError(err error) {
	run(c, func(s *state) {
		s.StopWithError(err)
	})
}

// StopError returns the error given to StopWithError, for error handlers, or
// ErrContextReleased once the request is over.
func (c Context) StopError() error {
	return with(c, ErrContextReleased, func(s *state) error {
		v := s.Err()
		return v
	})
}

// Attachment marks the response as a download named filename.
func (c Context) Attachment(filename string) {
	run(c, func(s *state) {
		s.Attachment(filename)
	})
}

// Download serves the file at path (as ServeFile does) as a download named
// filename, or the file's own base name when filename is "".
func (c Context) Download(path, filename string) {
	run(c, func(s *state) {
		s.Download(path, filename)
	})
}

// SSE starts a server-sent events response: it sets Content-Type
// text/event-stream, Cache-Control no-cache and X-Accel-Buffering no (for
// nginx), sends the status and flushes. It fails when the writer cannot
// flush (under a request timeout, for example). The stream ends when the
// handler returns; watch Request().Context().Done() for the client leaving.
func (c Context) SSE() (*EventStream, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) (*EventStream, error) {
		return s.SSE(c)
	})
}

// Scheme returns "https" or "http": the request's own (TLS or not), or the
// one a trusted proxy reports.
func (c Context) Scheme() string {
	return with(c, "", func(s *state) string {
		return s.Scheme()
	})
}

// IsTLS reports whether the client's connection is secure: Scheme is
// "https".
func (c Context) IsTLS() bool {
	return with(c, false, func(s *state) bool {
		return s.IsTLS()
	})
}

// Host returns the host the client asked for (with its port, if any): the
// request's Host, or the one a trusted proxy reports.
func (c Context) Host() string {
	return with(c, "", func(s *state) string {
		return s.Host()
	})
}

// NegotiateFormat returns the offer the client's Accept header prefers, or
// "" when it accepts none of them.
func (c Context) NegotiateFormat(offers ...string) string {
	return with(c, "", func(s *state) string {
		return s.NegotiateFormat(offers...)
	})
}

// Negotiate writes data in the format the client prefers among offers
// (default JSON, XML, HTML, text, in that order of preference for equal
// q-values): JSON and XML marshal data; text writes fmt.Sprint(data); HTML
// writes fmt.Sprint(data) escaped, strings included, unless data is a
// Markup, whose HTML method vouches for its output. When the client
// accepts none of the offers, the request is stopped with 406.
func (c Context) Negotiate(data any, offers ...string) {
	run(c, func(s *state) {
		s.Negotiate(data, offers...)
	})
}

// ClientIP returns the client's IP address: the connection's peer, or the
// address from the trusted proxy header set with WithTrustedProxies.
func (c Context) ClientIP() string {
	return with(c, "", func(s *state) string {
		return s.RemoteAddr()
	})
}

// Text writes text as text/plain (unless a Content-Type was set).
func (c Context) Text(text string) {
	run(c, func(s *state) {
		s.Text(text)
	})
}

// HTML writes text as text/html (unless a Content-Type was set). text is sent as
// is: escape untrusted data yourself or use View.
func (c Context) HTML(text string) {
	run(c, func(s *state) {
		s.HTML(text)
	})
}

// JSON writes v encoded as JSON. A value that cannot be encoded stops the
// chain with a 500 and nothing of the document is sent.
func (c Context) JSON(v any) {
	run(c, func(s *state) {
		s.JSON(v)
	})
}

// JSONIndent writes v encoded as JSON, each level indented by indent.
func (c Context) JSONIndent(v any, indent string) {
	run(c, func(s *state) {
		s.JSONIndent(v, indent)
	})
}

// XML writes v encoded as XML, with the XML header. A value that cannot be
// encoded stops the chain with a 500.
func (c Context) XML(v any) {
	run(c, func(s *state) {
		s.XML(v)
	})
}

// Redirect replies with a redirect to url (absolute or relative to the
// request path) and stops the chain. code must be a 3xx status; 0 means 302.
func (c Context) Redirect(url string, code int) {
	run(c, func(s *state) {
		s.Redirect(url, code)
	})
}

// RequestID returns the request's ID, or "" when no middleware gave it one.
func (c Context) RequestID() string {
	return with(c, "", func(s *state) string {
		v := s.RequestID()
		return v
	})
}

// OnBeforeWrite registers h to run before the response's status line goes
// out (see BeforeWriteHook); hooks run in registration order and the first
// error stops them. A hook registered after the response started never
// runs. It does not allocate once the pooled Context has held as many hooks
// before; h itself should be a pointer (a pointer in an interface does not
// allocate, a closure usually does).
func (c Context) OnBeforeWrite(h BeforeWriteHook) {
	run(c, func(s *state) {
		s.OnBeforeWrite(h)
	})
}

// ServeFile serves the named file from the local file system with
// http.ServeContent (conditional requests, ranges, Content-Type by
// extension). A missing file or a directory is a 404 and an unreadable one
// a 403, both through the application's error pages. name is trusted:
// never build it from request input; use HandleDir for that.
func (c Context) ServeFile(name string) {
	run(c, func(s *state) {
		s.ServeFile(name)
	})
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
	return with(c, false, func(s *state) bool {
		return s.NextWithTimeout(d, resp)
	})
}

// Validate runs the application's Validator on v (nil when there is none).
// Errors come back as a *ValidationError or an HTTPError of 400, ready for
// StopWithError.
func (c Context) Validate(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.Validate(v)
	})
}

// ReadXML decodes the XML request body into v, then validates it. Like
// ReadJSON it answers a body that does not say it is XML (Content-Type
// application/xml, text/xml or a +xml type) with 415,
// malformed XML or trailing data with 400 and an oversized body with 413.
func (c Context) ReadXML(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.ReadXML(v)
	})
}

// SetViewLayout overrides the layout of the next View call in this request;
// the view package's NoLayout renders without one.
func (c Context) SetViewLayout(layout string) {
	run(c, func(s *state) {
		s.SetViewLayout(layout)
	})
}

// SetViewData sets a value that View merges into its data, so middleware
// can provide data (a user, a CSRF token) that every page sees. When View's
// data is a map[string]any, its own keys win; when it is nil, the map of
// SetViewData's values is the data; other data types are rendered as
// given, and the values are then available only through ViewData.
func (c Context) SetViewData(key string, value any) {
	run(c, func(s *state) {
		s.SetViewData(key, value)
	})
}

// ViewData returns the values set with SetViewData in this request. The
// map belongs to the Context and is cleared when the request ends: copy
// what must outlive the handler.
func (c Context) ViewData() map[string]any {
	return with(c, nil, func(s *state) map[string]any {
		return s.ViewData()
	})
}

// View renders the named template with data and writes it as text/html.
// On failure nothing is written but the error status: the error is logged
// and the chain is stopped with a 500 whose cause StopError returns.
func (c Context) View(name string, data any) {
	run(c, func(s *state) {
		s.View(name, data)
	})
}

// WriteErrorPage runs the error handler for the current status now, when
// the status is an error (400 or more), nothing has been written and the
// handler has not run yet for this request. Middleware that installs a
// writer with SetResponseWriter calls it after Next, before finishing its
// writer, so that error pages (404, 500, StopWithError) go through it like
// any other body.
func (c Context) WriteErrorPage() {
	run(c, func(s *state) {
		s.WriteErrorPage()
	})
}
