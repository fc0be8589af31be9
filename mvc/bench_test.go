// Benchmarks: GET /api/values/5 through a singleton controller, a
// per-request controller and a plain core handler (plus the plain handler
// written allocation-free, and a signature that takes the reflective path),
// each through Application.ServeHTTP with one reused request and a no-op
// ResponseWriter, so ns/op and allocs/op compare directly.
//
//	go test -run '^$' -bench . -benchmem ./mvc

package mvc_test

import (
	"net/http"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

type benchSingleton struct{}

func (c *benchSingleton) GetBy(id int) string { return "value" }

type benchPerRequest struct {
	Ctx core.Context
}

func (c *benchPerRequest) GetBy(id int) string { return "value" }

// nopWriter is a ResponseWriter that discards everything, reusing its
// header map.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteString(s string) (int, error) {
	return len(s), nil
}
func (w *nopWriter) WriteHeader(int) {}

func runBench(b *testing.B, app *core.Application) {
	b.Helper()
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "/api/values/5", nil)
	w := &nopWriter{h: http.Header{}}
	app.ServeHTTP(w, req)
	if got := w.h.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		b.Fatalf("Content-Type %q", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		app.ServeHTTP(w, req)
	}
}

func BenchmarkMVCSingleton(b *testing.B) {
	app := core.New()
	if err := mvc.Register(mvc.New(app.Group("/api/values")), new(benchSingleton)); err != nil {
		b.Fatal(err)
	}
	runBench(b, app)
}

func BenchmarkMVCPerRequest(b *testing.B) {
	app := core.New()
	if err := mvc.Register(mvc.New(app.Group("/api/values")), new(benchPerRequest)); err != nil {
		b.Fatal(err)
	}
	runBench(b, app)
}

func BenchmarkPlainHandler(b *testing.B) {
	app := core.New()
	app.Get("/api/values/{id:int}", func(ctx core.Context) {
		ctx.Text("value")
	})
	runBench(b, app)
}

// textPlain is shared across requests, as the mvc string writer does.
var textPlain = []string{"text/plain; charset=utf-8"}

// BenchmarkPlainHandlerNoAlloc is the plain handler written the way the mvc
// string writer writes (shared Content-Type slice), the lowest cost a
// handler for this route can have.
func BenchmarkPlainHandlerNoAlloc(b *testing.B) {
	app := core.New()
	app.Get("/api/values/{id:int}", func(ctx core.Context) {
		if _, err := ctx.Params().Int("id"); err != nil {
			ctx.StopWithStatus(http.StatusNotFound)
			return
		}
		ctx.ResponseHeader()["Content-Type"] = textPlain
		ctx.WriteString("value")
	})
	runBench(b, app)
}

type benchJSON struct{}

func (c *benchJSON) GetBy(id int) (point, error) { return point{id, id}, nil }

// BenchmarkMVCReflectJSON is a signature without a specialised call: the
// reflective path with a JSON result.
func BenchmarkMVCReflectJSON(b *testing.B) {
	app := core.New()
	if err := mvc.Register(mvc.New(app.Group("/api/values")), new(benchJSON)); err != nil {
		b.Fatal(err)
	}
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "/api/values/5", nil)
	w := &nopWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		app.ServeHTTP(w, req)
	}
}
