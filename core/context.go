// The request state behind a Context.
//
// A state carries one request through its handler chain. States are
// pooled: the Application takes one from a sync.Pool, sets what the request
// brings (reset), runs the chain and, once the response is finished, clears
// every field that belongs to the request and puts it back (release).
// Handlers never see a *state: they get a Context, a handle that pairs the
// state with the generation it was made for (see handle.go), so a handle
// kept past its request fails instead of reaching the next one.
//
// A state does not implement context.Context: a pooled object that doubles
// as a cancellation context escapes into goroutines and libraries by
// design, which is exactly the leak to avoid. Request().Context() carries
// deadlines and cancellation.

package core

import (
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

// Handler is the function type of handlers and middleware. Middleware calls
// ctx.Next to run the rest of the chain; a handler that does not call Next
// ends the chain there.
type Handler func(ctx Context)

// state is the request data a Context is a handle to.
type state struct {
	app     *Application
	writer  responseWriter
	out     http.ResponseWriter // &writer, or a net/http middleware's wrapper around it
	request *http.Request
	params  paramList
	values  valueList

	handlers []Handler
	index    int
	stopped  bool
	route    *Route
	err      error

	query      url.Values    // parsed lazily by Query
	body       *bodyReader   // the request body's wrapper (body.go); nil: none
	bodyReq    *http.Request // the request body was put on, given back its body at release
	bodyLimit  int64         // the application's or the route's
	readRate   DataRate      // the minimum request body rate; see deadline.go
	viewLayout string
	viewData   map[string]any
	errorFired bool
	doneHooks  []DoneHook // OnDone; run by Application.done

	// Handles. gen is the generation of the live handles: release adds
	// one, so every handle made before fails. pins counts handle calls in
	// progress; release waits for them (see handle.go).
	gen  atomic.Uint64
	pins atomic.Int32

	// Storage handed out through a handle, which a caller may keep: it is
	// dropped at release instead of being reused for the next request.
	held           *heldWriter // ResponseWriter's writer, made once per request and writer
	viewDataShared bool        // ViewData returned c.viewData
}

func newContext(app *Application, maxParams int) *state {
	c := &state{app: app, params: make(paramList, 0, maxParams)}
	c.out = &c.writer
	return c
}

// handle returns a live handle to c.
func (c *state) handle() Context { return Context{s: c, gen: c.gen.Load()} }

// reset prepares a pooled state for a request. A state in the pool is
// already cleared (see release), so reset only sets what the request brings.
func (c *state) reset(w http.ResponseWriter, r *http.Request) {
	c.writer.reset(w)
	c.writer.rate = c.app.writeRate
	c.out = &c.writer
	c.request = r
	c.index = -1
	if r.Body != nil && r.Body != http.NoBody {
		c.bodyLimit, c.readRate = c.app.bodyLimit, c.app.readRate
		c.limitBody() // the limit and the rate bound Request().Body too, not only the readers
	}
}

// retire ends every handle to c: from now on their reads return zero
// values and their writes ErrContextReleased. Handle calls already past
// their check may still be running; the caller waits for them (release) or
// never reuses c (a WrapMiddleware chain left running).
func (c *state) retire() { c.gen.Add(1) }

// release retires c's handles, waits for the handle calls in progress (a
// goroutine that kept a handle and got past the check just before), then
// clears every per-request field, so that nothing of this request is
// visible to the next one and a pooled state keeps no request data alive.
// It reports whether c may go back to the pool: a call still in progress
// after releaseWait (a kept handle blocked in a write to a slow client)
// leaves c to that call and to the garbage collector.
func (c *state) release() (reusable bool) {
	c.retire()
	if c.pins.Load() != 0 && !c.drain() {
		return false
	}
	if c.request.MultipartForm != nil {
		c.removeUploads()
	}
	if c.bodyReq != nil {
		c.restoreBody()
	}
	c.request = nil
	c.writer.w = nil
	c.writer.body = nil
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
	c.body = nil
	c.viewLayout = ""
	if c.viewDataShared {
		c.viewData = nil
		c.viewDataShared = false
	} else if len(c.viewData) > 0 {
		clear(c.viewData)
	}
	c.held = nil
	c.errorFired = false
	if len(c.doneHooks) > 0 { // hooks of a request that never reached done
		clear(c.doneHooks)
		c.doneHooks = c.doneHooks[:0]
	}
	return true
}

// releaseWait bounds how long release waits for the calls of kept handles.
const releaseWait = time.Second

// drain waits for the pins to drop to zero, at most releaseWait. Only a
// goroutine that kept a handle can hold one here, in the middle of one call.
func (c *state) drain() bool {
	deadline := time.Now().Add(releaseWait)
	for i := 0; c.pins.Load() != 0; i++ {
		switch {
		case i < 64:
			runtime.Gosched()
		case time.Now().After(deadline):
			return false
		default:
			time.Sleep(50 * time.Microsecond)
		}
	}
	return true
}

// Clone returns a detached copy of the request data; see Context.Clone.
func (c *state) Clone() *state {
	cp := &state{
		app:     c.app,
		request: c.request,
		params:  append(paramList(nil), c.params...),
		values:  c.values.clone(),
		route:   c.route,
		stopped: true,
	}
	cp.out = &cp.writer
	return cp
}

func (c *state) App() *Application { return c.app }

func (c *state) Request() *http.Request {
	return c.request
}

func (c *state) SetRequest(r *http.Request) {
	if r == nil {
		return // the request is never nil while the handle lives
	}
	c.request = r
}

func (c *state) ResponseWriter() http.ResponseWriter {
	return c.out
}

func (c *state) Route() *Route { return c.route }

func (c *state) Method() string {
	return c.request.Method
}

func (c *state) Path() string {
	return c.request.URL.Path
}

func (c *state) Query(name string) string {
	if c.query == nil {
		c.query = c.request.URL.Query()
	}
	return c.query.Get(name)
}

func (c *state) QueryDefault(name, def string) string {
	if v := c.Query(name); v != "" {
		return v
	}
	return def
}

func (c *state) FormValue(name string) string {
	c.parseFormOrStop()
	return c.request.FormValue(name)
}

func (c *state) PostValue(name string) string {
	c.parseFormOrStop()
	return c.request.PostFormValue(name)
}

// parseFormOrStop parses the form body once, within the body limit, for
// FormValue and PostValue, which return no error: a body over the limit
// stops the chain with 413 and a malformed one with 400, instead of the ""
// net/http's FormValue gives for both.
func (c *state) parseFormOrStop() {
	r := c.request
	if r.Form != nil {
		return
	}
	if err := c.parseForm(); err != nil {
		c.StopWithError(err)
	}
}

func (c *state) RequestHeader(name string) string {
	return c.request.Header.Get(name)
}

func (c *state) SetResponseHeader(name, value string) {
	c.out.Header().Set(name, value)
}

func (c *state) SetContentType(contentType string) {
	c.SetResponseHeader("Content-Type", contentType)
}

func (c *state) Cookie(name string) (string, bool) {
	ck, err := c.request.Cookie(name)
	if err != nil {
		return "", false
	}
	return ck.Value, true
}

func (c *state) SetCookie(cookie *http.Cookie) {
	http.SetCookie(c.out, cookie)
}

func (c *state) SetStatus(code int) {
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

func (c *state) Status() int { return c.writer.status }

func (c *state) Written() bool { return c.writer.wroteHeader || c.writer.hijacked }

func (c *state) Write(p []byte) (int, error) {
	return c.out.Write(p)
}

func (c *state) WriteString(s string) (int, error) {
	if c.out == http.ResponseWriter(&c.writer) {
		return c.writer.WriteString(s)
	}
	return io.WriteString(c.out, s)
}

// next runs the next handler of the chain, unless the chain was stopped,
// handing it h: the handle of the call that runs the chain, stale when the
// chain was left running (see retire).
func (c *state) next(h Context) {
	if c.stopped {
		return
	}
	c.index++
	if c.index < len(c.handlers) {
		c.handlers[c.index](h)
	}
}

func (c *state) Stop() {
	c.stopped = true
}

func (c *state) IsStopped() bool { return c.stopped }

func (c *state) StopWithStatus(code int) {
	c.Stop()
	c.SetStatus(code)
}

func (c *state) StopWithError(err error) {
	c.err = err
	c.StopWithStatus(StatusOf(err))
}

func (c *state) Err() error { return c.err }
