package core

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/openapi"
)

// rewindBody is a request body the benchmarks rewind instead of
// allocating a new one per request.
type rewindBody struct {
	strings.Reader
	s string
}

func (b *rewindBody) Close() error { return nil }
func (b *rewindBody) rewind()      { b.Reset(b.s) }

type benchIn struct {
	ID    int     `path:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

type benchOut struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// benchBody runs POST /items/7 with a JSON body through app.
func benchBody(b *testing.B, app *Application) {
	const payload = `{"name":"pen","price":1.5}`
	body := &rewindBody{s: payload}
	r, _ := http.NewRequest("POST", "/items/7", nil)
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = int64(len(payload))
	w := &nopWriter{h: http.Header{}}
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body.rewind()
		r.Body = body
		clear(w.h)
		app.ServeHTTP(w, r)
	}
}

// BenchmarkTypedJSON is a typed handler binding a path parameter and a
// JSON body and answering JSON; BenchmarkHandJSON is the same route
// written by hand with ReadJSON and JSON.
func BenchmarkTypedJSON(b *testing.B) {
	app := New(WithStartupOutput(nil))
	Post(app, "/items/{id:int}", func(ctx Context, in benchIn) (benchOut, error) {
		return benchOut(in), nil
	}, Status(http.StatusOK))
	benchBody(b, app)
}

func BenchmarkHandJSON(b *testing.B) {
	app := New(WithStartupOutput(nil))
	app.Post("/items/{id:int}", func(ctx Context) {
		var in benchIn
		if err := ctx.ReadJSON(&in); err != nil {
			ctx.StopWithError(err)
			return
		}
		id, err := ctx.Params().Int("id")
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(benchOut{id, in.Name, in.Price})
	})
	benchBody(b, app)
}

type benchQuery struct {
	ID   int    `path:"id"`
	Page int    `query:"page" default:"1"`
	Sort string `query:"sort"`
}

// BenchmarkTypedParams binds a path parameter and two query parameters.
func BenchmarkTypedParams(b *testing.B) {
	app := New(WithStartupOutput(nil))
	Get(app, "/items/{id:int}", func(ctx Context, in benchQuery) (benchOut, error) {
		return benchOut{ID: in.ID + in.Page, Name: in.Sort}, nil
	})
	benchRequest(b, app, "GET", "/items/7?page=2&sort=name")
}

// githubOut is the answer of every typed route of the document benchmark.
type githubOut struct {
	ID      int               `json:"id"`
	Name    string            `json:"name" validate:"required,max=100"`
	Owner   *githubOwner      `json:"owner"`
	Topics  []string          `json:"topics"`
	Labels  map[string]string `json:"labels"`
	Created time.Time         `json:"created_at"`
}

type githubOwner struct {
	Login string `json:"login"`
	URL   string `json:"url" validate:"url"`
}

type githubIn struct {
	Page    int    `query:"page" default:"1" validate:"min=1"`
	PerPage int    `query:"per_page" default:"30" validate:"min=1,max=100"`
	Accept  string `header:"Accept"`
	Name    string `json:"name" validate:"required,max=100"`
}

type githubQuery struct {
	Page    int    `query:"page" default:"1" validate:"min=1"`
	PerPage int    `query:"per_page" default:"30" validate:"min=1,max=100"`
	Accept  string `header:"Accept"`
}

// BenchmarkOpenAPIGithub generates the document of the GitHub API's 203
// routes (go-http-routing-benchmark's set), registered as typed handlers
// with query and header parameters, a body on POST, PUT and PATCH, and an
// output with a nested type, and marshals it: the work Build does once.
func BenchmarkOpenAPIGithub(b *testing.B) {
	methods, patterns, _ := githubRoutes(b)
	app := New(WithStartupOutput(nil))
	for i := range patterns {
		opts := []RouteOption{Summary(methods[i] + " " + patterns[i]), Tags(strings.Split(patterns[i], "/")[1])}
		switch methods[i] {
		case "POST", "PUT", "PATCH":
			HandleTyped(app, methods[i], patterns[i], func(Context, githubIn) (githubOut, error) { return githubOut{}, nil }, opts...)
		default:
			HandleTyped(app, methods[i], patterns[i], func(Context, githubQuery) (githubOut, error) { return githubOut{}, nil }, opts...)
		}
	}
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	info := openapi.Info{Title: "GitHub", Version: "3"}
	var size int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		doc, err := buildDocument(app.routes, info, true)
		if err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "doc-bytes")
	b.ReportMetric(float64(len(app.routes)), "routes")
}
