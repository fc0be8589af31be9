package fast_test

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
)

// benchServe serves app on the fast engine over an in-memory listener
// and requests path b.N times with fasthttp's client; -benchmem counts the
// allocations of both sides (the client's are none once warm).
func benchServe(b *testing.B, app *core.Application, path string) {
	ln := fasthttputil.NewInmemoryListener()
	go app.Serve(ln)
	b.Cleanup(func() { app.Shutdown(b.Context()) })
	c := &fasthttp.HostClient{Addr: "bench", Dial: func(string) (net.Conn, error) { return ln.Dial() }}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	req.SetRequestURI("http://bench" + path)
	for range 100 {
		if err := c.Do(req, resp); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(req, resp); err != nil || resp.StatusCode() != 200 {
			b.Fatal(err, resp.StatusCode())
		}
	}
}

func BenchmarkStatic(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values", func(ctx core.Context) { ctx.WriteString("value") })
	benchServe(b, app, "/api/values")
}

func BenchmarkParam(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values/{id}", func(ctx core.Context) { ctx.WriteString(ctx.Param("id")) })
	benchServe(b, app, "/api/values/5")
}

// BenchmarkRequest is Param with the lazy *http.Request built: the cost of
// the net/http compatibility path.
func BenchmarkRequest(b *testing.B) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil))
	app.Get("/api/values/{id}", func(ctx core.Context) {
		_ = ctx.Request()
		ctx.WriteString(ctx.Param("id"))
	})
	benchServe(b, app, "/api/values/5")
}
