package core_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/openapicheck"
	"github.com/vireo-go/vireo/openapi"
)

type toolsAuthor struct {
	Name  string `json:"name" validate:"required,min=1,max=40"`
	Email string `json:"email" validate:"required,email"`
}

type toolsBook struct {
	ID      int          `json:"id"`
	Title   string       `json:"title"`
	Author  toolsAuthor  `json:"author"`
	Editor  *toolsAuthor `json:"editor"`
	Tags    []string     `json:"tags"`
	Printed time.Time    `json:"printed"`
}

type toolsNewBook struct {
	Title  string      `json:"title" validate:"required,max=100"`
	Author toolsAuthor `json:"author"`
	Tags   []string    `json:"tags" validate:"max=5"`
}

type toolsList struct {
	Page  int    `query:"page" default:"1" validate:"min=1"`
	Order string `query:"order" default:"title" validate:"oneof=title id"`
}

type toolsByID struct {
	ID int `path:"id"`
}

// TestOpenAPIToolsAccept runs the npm validators on the document of an
// application with typed and plain routes, and checks that requests
// produce every documented 2xx and 4xx answer, each as documented.
func TestOpenAPIToolsAccept(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil), core.WithBodyLimit(256), core.WithOpenAPI("", openapi.Info{
		Title: "Books", Version: "1.0.0", Description: "A test API.",
		License: &openapi.License{Name: "MIT", Identifier: "MIT"},
	}))
	books := map[int]toolsBook{1: {ID: 1, Title: "Go", Author: toolsAuthor{"Ann", "ann@example.com"}, Printed: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}}
	core.Get(app, "/books", func(ctx core.Context, in toolsList) ([]toolsBook, error) {
		return []toolsBook{books[1]}, nil
	}, core.Summary("List books"), core.Tags("books"))
	core.Post(app, "/books", func(ctx core.Context, in toolsNewBook) (toolsBook, error) {
		return toolsBook{ID: 2, Title: in.Title, Author: in.Author, Tags: in.Tags}, nil
	}, core.Summary("Add a book"), core.Tags("books"))
	core.Get(app, "/books/{id:int}", func(ctx core.Context, in toolsByID) (toolsBook, error) {
		b, ok := books[in.ID]
		if !ok {
			return b, core.NewHTTPError(http.StatusNotFound, "no such book")
		}
		return b, nil
	}, core.Summary("Get a book"), core.Tags("books"), core.Errors(http.StatusNotFound))
	core.Delete(app, "/books/{id:int}", func(ctx core.Context, in toolsByID) (core.NoContent, error) {
		if _, ok := books[in.ID]; !ok {
			return core.NoContent{}, core.NewHTTPError(http.StatusNotFound, "no such book")
		}
		return core.NoContent{}, nil
	}, core.Summary("Delete a book"), core.Tags("books"), core.Errors(http.StatusNotFound))
	app.Get("/healthz", func(ctx core.Context) { ctx.Text("ok") }).Describe(core.Summary("Liveness"), core.Returns(200, ""))
	doc, err := app.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(openapicheck.Validate(t, b))

	srv := httptest.NewServer(app)
	defer srv.Close()
	rec := &openapicheck.Recorder{}
	c := &http.Client{Transport: rec}
	send := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json") // error pages as Problem Details
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	send("GET", "/books", "")
	send("GET", "/books?page=x", "")
	send("POST", "/books", `{"title":"New","author":{"name":"Bo","email":"bo@example.com"}}`)
	send("POST", "/books", `{"title":`)
	send("GET", "/books/1", "")
	send("GET", "/books/2", "")
	send("DELETE", "/books/1", "")
	send("GET", "/healthz", "")
	send("DELETE", "/books/2", "")
	send("POST", "/books", `{"title":"`+strings.Repeat("x", 300)+`"}`)
	req, _ := http.NewRequest("POST", srv.URL+"/books", strings.NewReader("title"))
	req.Header.Set("Content-Type", "text/plain")
	if res, err := c.Do(req); err == nil {
		res.Body.Close()
	}
	t.Log(openapicheck.Conform(t, b, rec.Exchanges()))
}
