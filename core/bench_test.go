package core

import (
	"bufio"
	"net/http"
	"os"
	"strings"
	"testing"
)

// nopWriter is a ResponseWriter that keeps nothing, as in httprouter's
// benchmarks, so only the framework's own cost is measured.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteString(s string) (int, error) {
	return len(s), nil
}
func (w *nopWriter) WriteHeader(int) {}

func benchRequest(b *testing.B, app http.Handler, method, path string) {
	b.Helper()
	r, _ := http.NewRequest(method, path, nil)
	w := &nopWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		app.ServeHTTP(w, r)
	}
}

func BenchmarkStatic(b *testing.B) {
	app := New()
	app.Get("/api/values", func(c Context) { c.WriteString("value") })
	benchRequest(b, app, "GET", "/api/values")
}

func BenchmarkParam1(b *testing.B) {
	app := New()
	app.Get("/api/values/{id}", func(c Context) { c.WriteString(c.Param("id")) })
	benchRequest(b, app, "GET", "/api/values/5")
}

func BenchmarkParam1Typed(b *testing.B) {
	app := New()
	app.Get("/api/values/{id:int}", func(c Context) {
		if _, err := c.Params().Int("id"); err == nil {
			c.WriteString("value")
		}
	})
	benchRequest(b, app, "GET", "/api/values/5")
}

func BenchmarkParam3(b *testing.B) {
	app := New()
	app.Get("/repos/{owner}/{repo}/issues/{number:int}", func(c Context) {
		c.WriteString(c.Param("owner"))
		c.WriteString(c.Param("repo"))
		c.WriteString(c.Param("number"))
	})
	benchRequest(b, app, "GET", "/repos/golang/go/issues/42")
}

func BenchmarkMiddleware3(b *testing.B) {
	app := New()
	next := func(c Context) { c.Next() }
	app.Use(next, next)
	app.Group("/api", next).Get("/values/{id}", func(c Context) { c.WriteString("value") })
	benchRequest(b, app, "GET", "/api/values/5")
}

func BenchmarkNotFound(b *testing.B) {
	app := New()
	app.Get("/api/values/{id}", func(c Context) { c.WriteString("value") })
	benchRequest(b, app, "GET", "/nothing/here")
}

// githubRoutes reads the GitHub API route set of the classic
// go-http-routing-benchmark, turning :name into {name}.
func githubRoutes(tb testing.TB) (methods, patterns, paths []string) {
	f, err := os.Open("testdata/githubapi.routes")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m, p, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok {
			continue
		}
		segs := strings.Split(p, "/")
		reqSegs := make([]string, len(segs))
		for i, s := range segs {
			reqSegs[i] = s
			if strings.HasPrefix(s, ":") {
				segs[i] = "{" + s[1:] + "}"
				reqSegs[i] = s[1:] + "v"
			}
		}
		methods = append(methods, m)
		patterns = append(patterns, strings.Join(segs, "/"))
		paths = append(paths, strings.Join(reqSegs, "/"))
	}
	return methods, patterns, paths
}

func githubApp(tb testing.TB) (*Application, []*http.Request) {
	methods, patterns, paths := githubRoutes(tb)
	app := New()
	for i := range patterns {
		app.Handle(methods[i], patterns[i], func(c Context) {
			for _, v := range c.Params().All() {
				c.WriteString(v)
			}
		})
	}
	if err := app.Build(); err != nil {
		tb.Fatal(err)
	}
	reqs := make([]*http.Request, len(paths))
	for i := range paths {
		reqs[i], _ = http.NewRequest(methods[i], paths[i], nil)
	}
	return app, reqs
}

// TestGithubAPI checks that every route of the set matches itself.
func TestGithubAPI(t *testing.T) {
	app, reqs := githubApp(t)
	if len(reqs) != 203 {
		t.Fatalf("%d routes, want 203", len(reqs))
	}
	for i, r := range reqs {
		c := app.pool.Get().(*state)
		c.reset(&nopWriter{h: http.Header{}}, r)
		rt := app.tree(r.Method, false).lookup(r.URL.Path, &c.params)
		if rt == nil || rt != app.routes[i] {
			t.Fatalf("%s %s matched %v, want %v", r.Method, r.URL.Path, rt, app.routes[i])
		}
	}
}

// BenchmarkGithubAll requests each of the 203 routes once per iteration,
// every handler reading its parameters (go-http-routing-benchmark's
// BenchmarkXxx_GithubAll).
func BenchmarkGithubAll(b *testing.B) {
	app, reqs := githubApp(b)
	w := &nopWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range reqs {
			app.ServeHTTP(w, r)
		}
	}
}
