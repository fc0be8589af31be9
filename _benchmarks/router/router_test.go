// Package router compares Vireo's router with julienschmidt/httprouter and
// gin on the GitHub API route set of the classic go-http-routing-benchmark:
// one iteration requests each of the 203 routes once, every handler reading
// its parameters, through each router's ServeHTTP with a reused request and
// a ResponseWriter that keeps nothing. Run:
//
//	cd _benchmarks && go test ./router -bench . -benchtime 2s -count 5
package router

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/julienschmidt/httprouter"
	"github.com/vireo-go/vireo"
)

type route struct{ method, colon, brace, path string }

// loadRoutes reads testdata/githubapi.routes ("METHOD /path/:param").
func loadRoutes(tb testing.TB) []route {
	f, err := os.Open("testdata/githubapi.routes")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var routes []route
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m, p, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok {
			continue
		}
		segs := strings.Split(p, "/")
		brace := make([]string, len(segs))
		path := make([]string, len(segs))
		for i, s := range segs {
			brace[i], path[i] = s, s
			if strings.HasPrefix(s, ":") {
				brace[i] = "{" + s[1:] + "}"
				path[i] = s[1:] + "v"
			}
		}
		routes = append(routes, route{m, p, strings.Join(brace, "/"), strings.Join(path, "/")})
	}
	return routes
}

type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header               { return w.h }
func (w *nopWriter) Write(p []byte) (int, error)       { return len(p), nil }
func (w *nopWriter) WriteString(s string) (int, error) { return len(s), nil }
func (w *nopWriter) WriteHeader(int)                   {}

func vireoRouter(routes []route) http.Handler {
	app := vireo.New()
	for _, r := range routes {
		app.Handle(r.method, r.brace, func(c vireo.Context) {
			ps := c.Params()
			for i, n := 0, ps.Len(); i < n; i++ {
				c.WriteString(ps.At(i).Value)
			}
		})
	}
	if err := app.Build(); err != nil {
		panic(err)
	}
	return app
}

func httprouterRouter(routes []route) http.Handler {
	r := httprouter.New()
	for _, rt := range routes {
		r.Handle(rt.method, rt.colon, func(w http.ResponseWriter, _ *http.Request, ps httprouter.Params) {
			for _, p := range ps {
				io.WriteString(w, p.Value)
			}
		})
	}
	return r
}

func ginRouter(routes []route) http.Handler {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	for _, rt := range routes {
		e.Handle(rt.method, rt.colon, func(c *gin.Context) {
			for _, p := range c.Params {
				io.WriteString(c.Writer, p.Value)
			}
		})
	}
	return e
}

var routers = []struct {
	name string
	new  func([]route) http.Handler
}{
	{"Vireo", vireoRouter},
	{"HttpRouter", httprouterRouter},
	{"Gin", ginRouter},
}

// TestAllRoutersAnswer checks each router serves each route with 200 and
// the parameters in the body, so the benchmark compares equal work.
func TestAllRoutersAnswer(t *testing.T) {
	routes := loadRoutes(t)
	if len(routes) != 203 {
		t.Fatalf("%d routes, want 203", len(routes))
	}
	for _, rr := range routers {
		h := rr.new(routes)
		for _, rt := range routes {
			req, _ := http.NewRequest(rt.method, rt.path, nil)
			w := &recorder{h: http.Header{}, code: 200}
			h.ServeHTTP(w, req)
			want := ""
			for _, s := range strings.Split(rt.path, "/") {
				if strings.HasSuffix(s, "v") && strings.Contains(rt.colon, ":"+strings.TrimSuffix(s, "v")) {
					want += s
				}
			}
			if w.code != 200 || w.body.String() != want {
				t.Fatalf("%s: %s %s: %d %q, want %q", rr.name, rt.method, rt.path, w.code, w.body.String(), want)
			}
		}
	}
}

type recorder struct {
	h    http.Header
	code int
	body strings.Builder
}

func (w *recorder) Header() http.Header         { return w.h }
func (w *recorder) Write(p []byte) (int, error) { return w.body.Write(p) }
func (w *recorder) WriteHeader(c int)           { w.code = c }

func BenchmarkGithubAll(b *testing.B) {
	routes := loadRoutes(b)
	reqs := make([]*http.Request, len(routes))
	for i, rt := range routes {
		reqs[i], _ = http.NewRequest(rt.method, rt.path, nil)
	}
	for _, rr := range routers {
		h := rr.new(routes)
		b.Run(rr.name, func(b *testing.B) {
			w := &nopWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range reqs {
					h.ServeHTTP(w, r)
				}
			}
		})
	}
}

func BenchmarkParam1(b *testing.B) {
	routes := []route{{"GET", "/api/values/:id", "/api/values/{id}", "/api/values/5"}}
	req, _ := http.NewRequest("GET", "/api/values/5", nil)
	for _, rr := range routers {
		h := rr.new(routes)
		b.Run(rr.name, func(b *testing.B) {
			w := &nopWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}
