package fast_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/sessions"
)

// benchServe serves app on the fast engine over an in-memory listener
// and requests path b.N times with fasthttp's client, with a Cookie header
// unless cookie is ""; -benchmem counts the allocations of both sides (the
// client's are none once warm).
func benchServe(b *testing.B, app *core.Application, path, cookie string) {
	var header []string
	if cookie != "" {
		header = []string{"Cookie", cookie}
	}
	benchDo(b, app, http.MethodGet, path, http.StatusOK, header...)
}

// benchDo is benchServe for any method, with the request header lines of
// header (name, value, name, value...), answered with the status want.
func benchDo(b *testing.B, app *core.Application, method, path string, want int, header ...string) {
	ln := fasthttputil.NewInmemoryListener()
	go app.Serve(ln)
	b.Cleanup(func() { app.Shutdown(b.Context()) })
	c := &fasthttp.HostClient{Addr: "bench", Dial: func(string) (net.Conn, error) { return ln.Dial() }}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	req.Header.SetMethod(method)
	req.SetRequestURI("http://bench" + path)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	for range 100 {
		if err := c.Do(req, resp); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(req, resp); err != nil || resp.StatusCode() != want {
			b.Fatal(err, resp.StatusCode())
		}
	}
}

func BenchmarkStatic(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values", func(ctx core.Context) { ctx.WriteString("value") })
	benchServe(b, app, "/api/values", "")
}

func BenchmarkParam(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values/{id}", func(ctx core.Context) { ctx.WriteString(ctx.Param("id")) })
	benchServe(b, app, "/api/values/5", "")
}

// BenchmarkRequest is Param with the lazy *http.Request built: the cost of
// the net/http compatibility path.
func BenchmarkRequest(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values/{id}", func(ctx core.Context) {
		_ = ctx.Request()
		ctx.WriteString(ctx.Param("id"))
	})
	benchServe(b, app, "/api/values/5", "")
}

// setgetApp is the benchmark suite's sessions comparison on the fast
// engine: GET /setget stores "key"="value" in a session of the in-memory
// store and answers with it.
func setgetApp(b *testing.B) *core.Application {
	m := sessions.MustNew()
	b.Cleanup(func() { m.Close() })
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Use(m.Handler())
	app.Get("/setget", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("key", "value")
		ctx.WriteString(s.GetString("key", ""))
	})
	return app
}

// BenchmarkSessionNew: every request comes without a cookie (as from
// bombardier), so each one makes and stores a session.
func BenchmarkSessionNew(b *testing.B) {
	app := setgetApp(b)
	benchServe(b, app, "/setget", "")
}

// BenchmarkSessionExisting: a client that sends its session cookie back
// (the session made by a first request, served through ServeHTTP).
func BenchmarkSessionExisting(b *testing.B) {
	app := setgetApp(b)
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/setget", nil))
	ck := rec.Result().Cookies()
	if len(ck) != 1 {
		b.Fatalf("cookies %v", ck)
	}
	benchServe(b, app, "/setget", ck[0].Name+"="+ck[0].Value)
}

// BenchmarkRequestCookie is Param reading a request cookie, which the
// fast engine reads from the header lines without building the
// *http.Request.
func BenchmarkRequestCookie(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values/{id}", func(ctx core.Context) {
		v, _ := ctx.RequestCookie("c")
		ctx.WriteString(v)
	})
	benchServe(b, app, "/api/values/5", "a=1; c=value")
}

// middlewareApp is Param behind mw on the fast engine.
func middlewareApp(mw ...core.Handler) *core.Application {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Use(mw...)
	app.Get("/api/values/{id}", func(ctx core.Context) { ctx.WriteString(ctx.Param("id")) })
	return app
}

// BenchmarkMiddleware is Param behind the middleware that set response
// headers: they set them through the Context, so the engine keeps reusing
// its header map (a middleware taking ctx.ResponseHeader() costs the
// request a fresh map).
func BenchmarkMiddleware(b *testing.B) {
	cors := func() core.Handler {
		return middleware.MustCORS(middleware.WithAllowedOrigins("https://app.example.com"), middleware.WithExposedHeaders("X-Request-ID"))
	}
	origin := "https://app.example.com"
	b.Run("CORSSimple", func(b *testing.B) {
		benchDo(b, middlewareApp(cors()), http.MethodGet, "/api/values/5", http.StatusOK, "Origin", origin)
	})
	b.Run("CORSPreflight", func(b *testing.B) {
		benchDo(b, middlewareApp(cors()), http.MethodOptions, "/api/values/5", http.StatusNoContent,
			"Origin", origin, "Access-Control-Request-Method", "PUT")
	})
	b.Run("RequestIDIncoming", func(b *testing.B) {
		benchDo(b, middlewareApp(middleware.MustRequestID()), http.MethodGet, "/api/values/5", http.StatusOK, "X-Request-Id", "abc-123")
	})
	b.Run("RequestIDGenerated", func(b *testing.B) {
		benchDo(b, middlewareApp(middleware.MustRequestID()), http.MethodGet, "/api/values/5", http.StatusOK)
	})
	b.Run("CompressNotAccepted", func(b *testing.B) {
		benchDo(b, middlewareApp(middleware.MustCompress()), http.MethodGet, "/api/values/5", http.StatusOK)
	})
	// Accepted, but the body is under the minimum size: the compressing
	// writer reads the headers and passes the body through.
	b.Run("CompressAcceptedSmall", func(b *testing.B) {
		benchDo(b, middlewareApp(middleware.MustCompress()), http.MethodGet, "/api/values/5", http.StatusOK,
			"Accept-Encoding", "gzip")
	})
	b.Run("CompressAccepted", func(b *testing.B) {
		app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
		app.Use(middleware.MustCompress())
		page := strings.Repeat("compressible text, ", 100)
		app.Get("/page", func(ctx core.Context) { ctx.Text(page) })
		benchDo(b, app, http.MethodGet, "/page", http.StatusOK, "Accept-Encoding", "gzip")
	})
}
