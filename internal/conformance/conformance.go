// Package conformance is the HTTP-level test suite every engine and
// serving path passes: each test builds an Application with the target's
// options, serves it on a loopback port with Serve, talks to it with
// net/http's client over the target's transport and checks the answers.
// The suite's own test runs it on net/http, the fast module on fasthttp,
// and the h2 module on its HTTP/2 path (h2c, every request a stream of one
// connection), so all of them are held to the same answers:
// the stale-handle and isolation tests of core/isolation_test.go over a
// real connection, a representative set of routing, error, body,
// cookie and net/http interoperability tests, typed handlers and the
// OpenAPI document (typed.go: every answer also compared byte for byte
// with net/http's), and sessions (sessions.go: on the in-memory store
// here, on any store through RunSessions; internal/redisconformance runs
// them on Redis).
package conformance

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/view"
)

// Target is what the suite runs against: the options that choose the
// engine and the serving path, and the transport the suite's client talks
// to it with.
type Target struct {
	// Options are given to every test's core.New (none: net/http).
	Options []core.Option
	// Transport returns a new client transport for one test; nil: an
	// http.Transport with its defaults (HTTP/1.1 over plain TCP). An h2c
	// transport runs every test over HTTP/2 streams of one connection.
	Transport func() *http.Transport
}

// Run runs every test on target, the sessions tests (RunSessions) on the
// in-memory store.
func Run(t *testing.T, target Target) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			app := newApp(tc.options, target.Options)
			tc.run(t, app, func() *server { return start(t, app, target.Transport) })
		})
	}
	t.Run("Sessions", func(t *testing.T) { RunSessions(t, target, nil) })
}

// newApp returns an application with the suite's quiet defaults, then
// options, then the target's.
func newApp(options, targetOptions []core.Option) *core.Application {
	opts := append([]core.Option{core.WithStartupOutput(nil), core.WithLogger(quietLogger())}, options...)
	return core.New(append(opts, targetOptions...)...)
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

var tests = []struct {
	name    string
	options []core.Option // the test's own, given to core.New before the target's
	run     func(t *testing.T, app *core.Application, start func() *server)
}{
	{"TimeoutHandlerIsolation", nil, timeoutHandlerIsolation},
	{"LateNextRefused", nil, lateNextRefused},
	{"GoroutineKeepingContext", nil, goroutineKeepingContext},
	{"KeptContextsUnderLoad", nil, keptContextsUnderLoad},
	{"CloneOutlivesRequest", nil, cloneOutlivesRequest},
	{"Routing", nil, routing},
	{"ErrorPages", nil, errorPages},
	{"PanicRecovered", nil, panicRecovered},
	{"Bodies", nil, bodies},
	{"Cookies", nil, cookies},
	{"HeaderAfterBody", nil, headerAfterBody},
	{"HeaderFields", nil, headerFields},
	{"ContentTypes", nil, contentTypes},
	{"Interop", nil, interop},
	{"MVCViews", nil, mvcViews},
	{"Middleware", nil, middlewareTest},
	{"Upload", nil, upload},
	{"Typed", typedOptions, typed},
	{"TypedConcurrent", typedOptions, typedConcurrent},
	{"TypedInputOutlivesRequest", nil, typedInputOutlivesRequest},
	{"OpenAPI", typedOptions, openAPIDocument},
}

// server is an application served on a loopback port.
type server struct {
	t    *testing.T
	base string
	c    *http.Client
}

func start(t *testing.T, app *core.Application, transport func() *http.Transport) *server {
	t.Helper()
	base := Start(t, app)
	tr := &http.Transport{}
	if transport != nil {
		tr = transport()
	}
	t.Cleanup(tr.CloseIdleConnections) // registered after Start's: runs before its shutdown
	return &server{t: t, base: base, c: &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Start serves app with Serve on a loopback port, configured by configure,
// and returns its base URL, http://127.0.0.1:port. The application is shut
// down gracefully when the test ends; a Shutdown or Serve error fails it.
func Start(t *testing.T, app *core.Application, configure ...func(*http.Server)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Serve(ln, configure...) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := app.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// response is what a request got.
type response struct {
	code   int
	body   string
	header http.Header
}

// do sends a request; header holds name, value pairs (see send).
func (s *server) do(method, path, body string, header ...string) response {
	s.t.Helper()
	h := make(http.Header, len(header)/2)
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return s.send(method, path, body, h)
}

// StaleResult is what a handle that outlived its request saw, as
// TouchStale records it.
type StaleResult struct {
	WriteErr, ResponseWriterErr, StopErr error
	Param, Value, Path                   string
	Alive                                bool
}

// OK reports whether the handle saw and reached nothing: every write
// refused with core.ErrContextReleased, every read zero.
func (r StaleResult) OK() bool {
	return r.WriteErr == core.ErrContextReleased && r.ResponseWriterErr == core.ErrContextReleased && r.StopErr == core.ErrContextReleased &&
		r.Param == "" && r.Value == "" && r.Path == "" && !r.Alive
}

// TouchStale writes, reads and changes everything it can through c (the
// body, the header, the status, the values, the chain's error) and
// records what it saw; the tests check that none of it reached a response
// (the header X-Leak, the body LEAKED) and that r.OK().
func TouchStale(c core.Context) StaleResult {
	var res StaleResult
	_, res.WriteErr = c.WriteString("LEAKED")
	_, res.ResponseWriterErr = c.ResponseWriter().Write([]byte("LEAKED"))
	c.ResponseHeader().Set("X-Leak", "1")
	c.SetResponseHeader("X-Leak", "1")
	c.AddResponseHeader("X-Leak", "1")
	c.SetResponseHeaders(core.NewHeaderField("X-Leak", "1"), core.NewHeaderFieldFunc("X-Leak", func([]string) []string { return []string{"1"} }))
	c.Values().Set("who", "LEAKED")
	c.SetStatus(http.StatusTeapot)
	c.StopWithError(errors.New("LEAKED"))
	res.Param, res.Value, res.Path = c.Param("id"), c.Values().GetString("who"), c.Path()
	res.StopErr, res.Alive = c.StopError(), c.Alive()
	return res
}

// timeoutHandlerIsolation: a handler still running after
// http.TimeoutHandler answered reaches nothing of the next request.
func timeoutHandlerIsolation(t *testing.T, app *core.Application, start func() *server) {
	app.Use(core.WrapMiddleware(func(next http.Handler) http.Handler {
		return http.TimeoutHandler(next, 20*time.Millisecond, "timeout")
	}))
	wake := make(chan struct{})
	stale := make(chan StaleResult, 1)
	app.Get("/slow/{id}", func(c core.Context) {
		<-wake
		stale <- TouchStale(c)
	})
	app.Get("/fast/{id}", func(c core.Context) {
		close(wake)
		if res := <-stale; !res.OK() {
			t.Errorf("stale handler saw %+v", res)
		}
		c.WriteString("fast-" + c.Param("id"))
	})
	s := start()
	if r := s.do("GET", "/slow/1", ""); r.code != http.StatusServiceUnavailable {
		t.Fatalf("slow: %d %q, want TimeoutHandler's 503", r.code, r.body)
	}
	if r := s.do("GET", "/fast/2", ""); r.code != 200 || r.body != "fast-2" || r.header.Get("X-Leak") != "" {
		t.Fatalf("fast: %d %q %v", r.code, r.body, r.header)
	}
}

// lateNextRefused: a middleware that calls next after it returned runs
// nothing.
func lateNextRefused(t *testing.T, app *core.Application, start func() *server) {
	kept := make(chan func(), 1)
	keep := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("kept"))
			kept <- func() { next.ServeHTTP(w, r) }
		})
	}
	var ran atomic.Int32
	app.Get("/k", core.WrapMiddleware(keep), func(c core.Context) { ran.Add(1) })
	app.Get("/other", func(c core.Context) { c.WriteString("other") })
	s := start()
	if r := s.do("GET", "/k", ""); r.body != "kept" {
		t.Fatalf("/k: %q", r.body)
	}
	late := <-kept
	if r := s.do("GET", "/other", ""); r.body != "other" {
		t.Fatalf("/other: %q", r.body)
	}
	late()
	if n := ran.Load(); n != 0 {
		t.Fatalf("the chain ran %d times after its middleware returned", n)
	}
}

// goroutineKeepingContext: a goroutine that kept ctx gets
// ErrContextReleased and zero values, and writes nothing anywhere.
func goroutineKeepingContext(t *testing.T, app *core.Application, start func() *server) {
	wake := make(chan struct{})
	stale := make(chan StaleResult, 1)
	app.Get("/bg/{id}", func(c core.Context) {
		if c.Param("id") == "1" {
			go func() {
				<-wake
				stale <- TouchStale(c)
			}()
		}
		c.WriteString("bg")
	})
	s := start()
	if r := s.do("GET", "/bg/1", ""); r.body != "bg" {
		t.Fatalf("bg: %q", r.body)
	}
	close(wake)
	if res := <-stale; !res.OK() {
		t.Errorf("stale goroutine saw %+v", res)
	}
	if r := s.do("GET", "/bg/2", ""); r.body != "bg" || r.header.Get("X-Leak") != "" {
		t.Errorf("next response: %q %v", r.body, r.header)
	}
}

// keptContextsUnderLoad: handlers leave goroutines hammering their ctx
// while other requests reuse the pooled states; every response is its
// own (run with -race).
func keptContextsUnderLoad(t *testing.T, app *core.Application, start func() *server) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var starts sync.Map
	var seq atomic.Int64
	app.Get("/leave/{id}", func(c core.Context) {
		n := strconv.FormatInt(seq.Add(1), 10)
		begin := make(chan struct{})
		starts.Store(n, begin)
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-begin:
			case <-stop:
				return
			}
			for {
				select {
				case <-stop:
					return
				default:
				}
				TouchStale(c)
			}
		}()
		c.WriteString("leave-" + n)
	})
	app.Get("/own/{id}", func(c core.Context) {
		c.Values().Set("who", c.Param("id"))
		c.WriteString("own-" + c.Param("id") + "-" + c.Values().GetString("who") + "-" + c.Query("q"))
	})
	s := start()
	var clients sync.WaitGroup
	for g := range 4 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for i := range 40 {
				if i%5 == 0 {
					r := s.do("GET", "/leave/x", "")
					if begin, ok := starts.LoadAndDelete(strings.TrimPrefix(r.body, "leave-")); ok {
						close(begin.(chan struct{}))
					} else {
						t.Errorf("/leave answered %q", r.body)
					}
					continue
				}
				id := strconv.Itoa(g*1000 + i)
				r := s.do("GET", "/own/"+id+"?q="+id, "")
				if r.body != "own-"+id+"-"+id+"-"+id || r.header.Get("X-Leak") != "" {
					t.Errorf("/own/%s answered %q (X-Leak %q)", id, r.body, r.header.Get("X-Leak"))
				}
			}
		}()
	}
	clients.Wait()
	close(stop)
	wg.Wait()
}

// cloneOutlivesRequest: a Clone keeps the request data after the request,
// whatever the engine does with its buffers meanwhile.
func cloneOutlivesRequest(t *testing.T, app *core.Application, start func() *server) {
	clones := make(chan core.Context, 1)
	app.Get("/c/{id}", func(c core.Context) {
		if c.Param("id") == "first" {
			clones <- c.Clone()
		}
		c.WriteString(c.Param("id"))
	})
	s := start()
	s.do("GET", "/c/first?q=one", "", "X-A", "a1")
	cl := <-clones
	for i := range 20 {
		s.do("GET", "/c/other"+strconv.Itoa(i)+"?q=two", "", "X-A", "a2")
	}
	if cl.Param("id") != "first" || cl.Path() != "/c/first" || cl.Query("q") != "one" || cl.RequestHeader("X-A") != "a1" {
		t.Errorf("clone: %q %q %q %q", cl.Param("id"), cl.Path(), cl.Query("q"), cl.RequestHeader("X-A"))
	}
	if _, err := cl.WriteString("x"); !errors.Is(err, core.ErrContextReleased) {
		t.Errorf("clone write: %v", err)
	}
}

func routing(t *testing.T, app *core.Application, start func() *server) {
	app.Get("/users/{id:int}", func(c core.Context) { c.WriteString("user " + c.Param("id")) })
	app.Get("/files/{rest...}", func(c core.Context) { c.WriteString("file " + c.Param("rest")) })
	app.Get("/dir/", func(c core.Context) { c.WriteString("dir") })
	app.Post("/users", func(c core.Context) { c.WriteString("created") })
	app.Get("/seg/{name}", func(c core.Context) { c.WriteString("seg " + c.Param("name")) })
	s := start()
	cases := []struct {
		method, path string
		code         int
		body, header string
		value        string
	}{
		{"GET", "/users/42", 200, "user 42", "", ""},
		{"GET", "/users/abc", 404, "", "", ""},
		{"GET", "/files/a/b.txt", 200, "file a/b.txt", "", ""},
		{"GET", "/dir", 301, "", "Location", "/dir/"},
		{"GET", "/a/../users/1", 301, "", "Location", "/users/1"},
		{"GET", "/users/1?x=1", 200, "user 1", "", ""},
		{"DELETE", "/users/1", 405, "", "Allow", "GET, HEAD, OPTIONS"},
		{"OPTIONS", "/users", 204, "", "Allow", "OPTIONS, POST"},
		{"HEAD", "/users/7", 200, "", "", ""},
		{"GET", "/seg/a%2Fb", 200, "seg a/b", "", ""},
		{"GET", "/seg/caf%C3%A9", 200, "seg café", "", ""},
	}
	for _, tc := range cases {
		r := s.do(tc.method, tc.path, "")
		if r.code != tc.code || (tc.body != "" && r.body != tc.body) || (tc.header != "" && r.header.Get(tc.header) != tc.value) {
			t.Errorf("%s %s: %d %q %s=%q, want %d %q %q", tc.method, tc.path, r.code, r.body, tc.header, r.header.Get(tc.header), tc.code, tc.body, tc.value)
		}
	}
}

func errorPages(t *testing.T, app *core.Application, start func() *server) {
	app.Get("/fail", func(c core.Context) { c.StopWithError(core.NewHTTPError(http.StatusConflict, "taken")) })
	app.OnErrorCode(http.StatusTeapot, func(c core.Context) { c.WriteString("custom teapot") })
	app.Get("/tea", func(c core.Context) { c.StopWithStatus(http.StatusTeapot) })
	s := start()
	if r := s.do("GET", "/fail", ""); r.code != 409 || !strings.Contains(r.body, "taken") {
		t.Errorf("/fail: %d %q", r.code, r.body)
	}
	if r := s.do("GET", "/fail", "", "Accept", "application/json"); r.code != 409 || r.header.Get("Content-Type") != "application/problem+json; charset=utf-8" || !strings.Contains(r.body, `"detail":"taken"`) {
		t.Errorf("/fail as JSON: %d %q %q", r.code, r.header.Get("Content-Type"), r.body)
	}
	if r := s.do("GET", "/tea", ""); r.code != 418 || r.body != "custom teapot" {
		t.Errorf("/tea: %d %q", r.code, r.body)
	}
}

func panicRecovered(t *testing.T, app *core.Application, start func() *server) {
	app.Get("/panic", func(c core.Context) { panic("boom") })
	app.Get("/ok", func(c core.Context) { c.WriteString("ok") })
	s := start()
	if r := s.do("GET", "/panic", ""); r.code != 500 {
		t.Errorf("/panic: %d %q", r.code, r.body)
	}
	if r := s.do("GET", "/ok", ""); r.code != 200 || r.body != "ok" {
		t.Errorf("after the panic: %d %q", r.code, r.body)
	}
}

func bodies(t *testing.T, app *core.Application, start func() *server) {
	type in struct {
		Name string `json:"name"`
	}
	app.Post("/json", func(c core.Context) {
		var v in
		if err := c.ReadJSON(&v); err != nil {
			c.StopWithError(err)
			return
		}
		c.JSON(map[string]string{"hello": v.Name})
	})
	app.Post("/form", func(c core.Context) { c.WriteString(c.FormValue("a") + "," + c.PostValue("b")) })
	app.Post("/small", core.BodyLimit(4), func(c core.Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Write(b)
	})
	s := start()
	if r := s.do("POST", "/json", `{"name":"ada"}`, "Content-Type", "application/json"); r.code != 200 || strings.TrimSpace(r.body) != `{"hello":"ada"}` {
		t.Errorf("/json: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/json", `{"name":"ada"}`, "Content-Type", "text/plain"); r.code != 415 {
		t.Errorf("/json as text: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/json", `{"name":`, "Content-Type", "application/json"); r.code != 400 {
		t.Errorf("/json malformed: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/form?a=q", "b=2", "Content-Type", "application/x-www-form-urlencoded"); r.code != 200 || r.body != "q,2" {
		t.Errorf("/form: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/small", "1234", "Content-Type", "text/plain"); r.code != 200 || r.body != "1234" {
		t.Errorf("/small within the limit: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/small", "12345", "Content-Type", "text/plain"); r.code != 413 {
		t.Errorf("/small over the limit: %d %q", r.code, r.body)
	}
}

func cookies(t *testing.T, app *core.Application, start func() *server) {
	app.Get("/set", func(c core.Context) {
		c.SetCookie(&http.Cookie{Name: "a", Value: "1", HttpOnly: true})
		c.SetCookie(&http.Cookie{Name: "b", Value: "2"})
	})
	app.Get("/get", func(c core.Context) {
		a, _ := c.RequestCookie("a")
		b, ok := c.RequestCookie("b")
		c.WriteString(a + "," + b + "," + strconv.FormatBool(ok))
	})
	s := start()
	r := s.do("GET", "/set", "")
	if got := r.header.Values("Set-Cookie"); len(got) != 2 || got[0] != "a=1; HttpOnly" || got[1] != "b=2" {
		t.Errorf("Set-Cookie: %q", got)
	}
	if r := s.do("GET", "/get", "", "Cookie", "a=1; b=2"); r.body != "1,2,true" {
		t.Errorf("/get: %q", r.body)
	}
}

// headerAfterBody: a header or cookie set after the body was written is
// not sent, as net/http sends the header as it was at the first write
// (an engine that buffers the body must not read the map later), and
// the response is otherwise whole.
func headerAfterBody(t *testing.T, app *core.Application, start func() *server) {
	app.Get("/after", func(c core.Context) {
		c.SetResponseHeader("X-Before", "1")
		c.WriteString("body")
		c.SetResponseHeader("X-After", "1")
		c.SetCookie(&http.Cookie{Name: "late", Value: "1"})
		c.ResponseHeader().Set("X-Before", "changed")
	})
	s := start()
	r := s.do("GET", "/after", "")
	if r.code != 200 || r.body != "body" || r.header.Get("X-Before") != "1" || r.header.Get("X-After") != "" || len(r.header.Values("Set-Cookie")) != 0 {
		t.Errorf("GET /after: %d %q X-Before=%q X-After=%q Set-Cookie=%q, want 200 \"body\" X-Before=1 and nothing set after the body",
			r.code, r.body, r.header.Get("X-Before"), r.header.Get("X-After"), r.header.Values("Set-Cookie"))
	}
}

// headerFields: response headers set with SetResponseHeaders, fields
// built once and shared by every response, reach the client as set, on
// repeated requests (an engine that reuses its header map must not carry
// one request's headers into the next), and not after the body.
func headerFields(t *testing.T, app *core.Application, start func() *server) {
	vary := core.NewHeaderFieldFunc("Vary", func(vs []string) []string { return append(vs, "Origin") })
	multi := core.NewHeaderField("x-multi", "a", "b")
	id := core.NewHeaderField("X-Id")
	cases := []struct {
		path    string
		handler core.Handler
		want    map[string][]string // nil: absent
	}{
		{"/fields", func(c core.Context) {
			c.SetResponseHeaders(multi, id.WithValues(c.Query("id")), core.HeaderField{}, vary)
			c.WriteString("ok")
		}, map[string][]string{"X-Multi": {"a", "b"}, "X-Id": {"7"}, "Vary": {"Origin"}}},
		{"/extend", func(c core.Context) {
			c.AddResponseHeader("Vary", "Accept-Encoding")
			c.SetResponseHeader("X-Gone", "1")
			c.SetResponseHeaders(vary, core.NewHeaderField("X-Gone"))
			c.WriteString("ok")
		}, map[string][]string{"Vary": {"Accept-Encoding", "Origin"}, "X-Gone": nil, "X-Multi": nil, "X-Id": nil}},
		{"/after", func(c core.Context) {
			c.WriteString("ok")
			c.SetResponseHeaders(multi, vary)
		}, map[string][]string{"X-Multi": nil, "Vary": nil}},
	}
	for _, tc := range cases {
		app.Get(tc.path, tc.handler)
	}
	s := start()
	for range 3 {
		for _, tc := range cases {
			r := s.do("GET", tc.path+"?id=7", "")
			if r.code != 200 || r.body != "ok" {
				t.Errorf("GET %s: %d %q", tc.path, r.code, r.body)
			}
			for name, want := range tc.want {
				if got, ok := r.header[name]; want == nil && ok || !slices.Equal(got, want) {
					t.Errorf("GET %s: %s %q (present %v), want %q", tc.path, name, got, ok, want)
				}
			}
		}
	}
}

// typeHook is a before-write hook that records the Content-Type it sees
// in X-Seen and replaces it.
type typeHook struct{}

func (typeHook) BeforeWrite(c core.Context) error {
	c.SetResponseHeader("X-Seen", c.ResponseHeader().Get("Content-Type"))
	c.SetResponseHeader("Content-Type", "text/markdown")
	return nil
}

// contentTypes: the type a renderer gives (Text, HTML, JSON) yields to one
// the handler set before, is seen and can be replaced by a before-write
// hook, reaches the client with the other headers, and never carries into
// the next response of the connection (which sniffs its own). An engine
// may keep the renderer's type outside the header map (engine.HeaderStore)
// and must behave as if it were in it.
func contentTypes(t *testing.T, app *core.Application, start func() *server) {
	const textPlain = "text/plain; charset=utf-8"
	cases := []struct {
		path    string
		handler core.Handler
		want    map[string]string // "": absent
	}{
		{"/text", func(c core.Context) { c.Text("a") },
			map[string]string{"Content-Type": textPlain}},
		{"/html", func(c core.Context) { c.HTML("a") },
			map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{"/json", func(c core.Context) { c.JSON(1) },
			map[string]string{"Content-Type": "application/json; charset=utf-8"}},
		{"/set-first", func(c core.Context) {
			c.SetResponseHeader("Content-Type", "text/csv")
			c.Text("a")
		}, map[string]string{"Content-Type": "text/csv"}},
		{"/others", func(c core.Context) {
			c.SetResponseHeader("X-A", "1")
			c.Text("a")
		}, map[string]string{"Content-Type": textPlain, "X-A": "1"}},
		{"/handed-out", func(c core.Context) {
			h := c.ResponseHeader()
			c.Text("a")
			h.Set("X-Late", "1")
		}, map[string]string{"Content-Type": textPlain, "X-Late": ""}},
		{"/hook", func(c core.Context) {
			c.OnBeforeWrite(typeHook{})
			c.Text("a")
		}, map[string]string{"Content-Type": "text/markdown", "X-Seen": textPlain}},
		{"/sniffed", func(c core.Context) { c.WriteString("<html>a</html>") },
			map[string]string{"Content-Type": "text/html; charset=utf-8", "X-A": "", "X-Seen": ""}},
	}
	for _, tc := range cases {
		app.Get(tc.path, tc.handler)
	}
	s := start()
	for range 2 {
		for _, tc := range cases {
			for _, path := range []string{tc.path, "/sniffed"} { // the next response of the connection
				want := tc.want
				if path != tc.path {
					want = cases[len(cases)-1].want
				}
				r := s.do("GET", path, "")
				if r.code != 200 {
					t.Errorf("GET %s: %d %q", path, r.code, r.body)
				}
				for name, v := range want {
					if got := r.header.Get(name); got != v {
						t.Errorf("GET %s (after %s): %s %q, want %q", path, tc.path, name, got, v)
					}
				}
			}
		}
	}
}

func interop(t *testing.T, app *core.Application, start func() *server) {
	app.Use(core.WrapMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Std", "1")
			next.ServeHTTP(w, r)
		})
	}))
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("mounted " + r.URL.Path + " " + r.URL.Query().Get("q") + " " + r.Header.Get("X-A")))
	})
	app.Mount("/m", mux)
	app.Get("/req", func(c core.Context) {
		r := c.Request()
		c.WriteString(r.Method + " " + r.URL.Path + " " + r.Header.Get("X-A") + " " + r.Host)
	})
	app.Get("/rw", func(c core.Context) {
		w := c.ResponseWriter()
		w.Header().Set("X-Rw", "1")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, "rw")
	})
	s := start()
	host := strings.TrimPrefix(s.base, "http://")
	if r := s.do("GET", "/m/hello?q=z", "", "X-A", "a"); r.body != "mounted /hello z a" || r.header.Get("X-Std") != "1" {
		t.Errorf("Mount: %q %v", r.body, r.header)
	}
	if r := s.do("GET", "/req", "", "X-A", "b"); r.body != "GET /req b "+host {
		t.Errorf("Request: %q", r.body)
	}
	if r := s.do("GET", "/rw", ""); r.code != 202 || r.body != "rw" || r.header.Get("X-Rw") != "1" {
		t.Errorf("ResponseWriter: %d %q %v", r.code, r.body, r.header)
	}
}

// home is the controller of mvcViews.
type home struct{}

func (home) Get() mvc.View {
	return mvc.View{Name: "index.html", Data: map[string]string{"Title": "<Home>"}}
}

func (home) GetBy(id int) string { return "item " + strconv.Itoa(id) }

func mvcViews(t *testing.T, app *core.Application, start func() *server) {
	files := fstest.MapFS{
		"layouts/layout.html": {Data: []byte(`<html>{{ yield . }}</html>`)},
		"index.html":          {Data: []byte(`<h1>{{ .Title }}</h1>`)},
	}
	engine, err := view.NewHTML(files, ".html", view.WithLayout("layouts/layout.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := app.RegisterView(engine); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(mvc.New(app.Router), new(home)); err != nil {
		t.Fatal(err)
	}
	s := start()
	if r := s.do("GET", "/", ""); r.code != 200 || r.body != "<html><h1>&lt;Home&gt;</h1></html>" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /: %d %q %q", r.code, r.body, r.header.Get("Content-Type"))
	}
	if r := s.do("GET", "/7", ""); r.code != 200 || r.body != "item 7" {
		t.Errorf("GET /7: %d %q", r.code, r.body)
	}
	if r := s.do("GET", "/x", ""); r.code != 404 {
		t.Errorf("GET /x: %d %q", r.code, r.body)
	}
}

func middlewareTest(t *testing.T, app *core.Application, start func() *server) {
	for _, mk := range []func() (core.Handler, error){
		func() (core.Handler, error) { return middleware.RequestID() },
		func() (core.Handler, error) { return middleware.SecureHeaders() },
		func() (core.Handler, error) {
			return middleware.CORS(middleware.WithAllowedOrigins("https://a.example"))
		},
		func() (core.Handler, error) { return middleware.Compress() },
		func() (core.Handler, error) { return middleware.RateLimit(middleware.WithRate(1000, 1000)) },
	} {
		h, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		app.UseBeforeRouting(h)
	}
	big := strings.Repeat("compress me ", 200)
	app.Get("/big", func(c core.Context) { c.WriteString(big) })
	app.Get("/etag", func(c core.Context) {
		c.SetResponseHeader("ETag", `"v1"`)
		c.SetResponseHeader("Content-Length", strconv.Itoa(len(big)))
		c.WriteString(big)
	})
	s := start()
	// Compress reads and sets the headers the handler set through the
	// engine's header store: the ETag made weak, the uncompressed length
	// gone, for GET and HEAD alike.
	r := s.do("GET", "/etag", "", "Accept-Encoding", "gzip")
	if r.code != 200 || r.header.Get("Content-Encoding") != "gzip" || r.header.Get("Etag") != `W/"v1"` ||
		r.header.Get("Content-Length") == strconv.Itoa(len(big)) {
		t.Errorf("GET /etag: %d %v", r.code, r.header)
	} else if zr, err := gzip.NewReader(strings.NewReader(r.body)); err != nil {
		t.Errorf("GET /etag: %v", err)
	} else if b, err := io.ReadAll(zr); err != nil || string(b) != big {
		t.Errorf("GET /etag: body %d bytes, %v", len(b), err)
	}
	if r := s.do("HEAD", "/etag", "", "Accept-Encoding", "gzip"); r.code != 200 || r.header.Get("Content-Encoding") != "gzip" ||
		r.header.Get("Etag") != `W/"v1"` || r.body != "" {
		t.Errorf("HEAD /etag: %d %v %q", r.code, r.header, r.body)
	}
	r = s.do("GET", "/big", "", "Origin", "https://a.example", "Accept-Encoding", "gzip")
	if r.code != 200 || r.header.Get("Content-Encoding") != "gzip" || r.header.Get("X-Request-Id") == "" ||
		r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Access-Control-Allow-Origin") != "https://a.example" {
		t.Errorf("GET /big: %d %v", r.code, r.header)
	}
	if r.header.Get("Ratelimit-Limit") != "1000" || !slices.Equal(r.header.Values("Vary"), []string{"Origin", "Accept-Encoding"}) {
		t.Errorf("GET /big: Ratelimit-Limit %q, Vary %q", r.header.Get("Ratelimit-Limit"), r.header.Values("Vary"))
	}
	if r := s.do("GET", "/missing", ""); r.code != 404 || r.header.Get("X-Request-Id") == "" {
		t.Errorf("GET /missing: %d %v", r.code, r.header)
	}
	r = s.do("OPTIONS", "/big", "", "Origin", "https://a.example", "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "content-type")
	if r.code != 204 || r.header.Get("Access-Control-Allow-Origin") != "https://a.example" || r.header.Get("Access-Control-Allow-Methods") == "" ||
		r.header.Get("Access-Control-Allow-Headers") == "" || !strings.HasPrefix(r.header.Get("Vary"), "Origin, Access-Control-Request-Method") {
		t.Errorf("OPTIONS /big (preflight): %d %v", r.code, r.header)
	}
	r = s.do("OPTIONS", "/big", "", "Origin", "https://other.example", "Access-Control-Request-Method", "PUT")
	if r.code != 204 || r.header.Get("Access-Control-Allow-Origin") != "" || r.header.Get("Vary") == "" {
		t.Errorf("OPTIONS /big (preflight, origin not allowed): %d %v", r.code, r.header)
	}
}

// upload: a multipart form with a file and a field, read through
// FormFile and FormValue (the engine's body reaches core's upload gate).
func upload(t *testing.T, app *core.Application, start func() *server) {
	app.Post("/up", func(c core.Context) {
		fh, err := c.FormFile("f")
		if err != nil {
			c.StopWithError(err)
			return
		}
		f, err := fh.Open()
		if err != nil {
			c.StopWithError(err)
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		c.WriteString(fh.Filename + ":" + string(b) + ":" + c.FormValue("note"))
	})
	s := start()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("f", "a.txt")
	io.WriteString(fw, "file body")
	mw.WriteField("note", "hello")
	mw.Close()
	if r := s.do("POST", "/up", buf.String(), "Content-Type", mw.FormDataContentType()); r.code != 200 || r.body != "a.txt:file body:hello" {
		t.Errorf("/up: %d %q", r.code, r.body)
	}
	if r := s.do("POST", "/up", "x", "Content-Type", "multipart/form-data; boundary=zz"); r.code != 400 {
		t.Errorf("/up malformed: %d %q", r.code, r.body)
	}
}
