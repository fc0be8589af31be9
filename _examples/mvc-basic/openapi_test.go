package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/internal/openapicheck"
)

// TestOpenAPIDocument has the document of the controllers' routes
// validated by swagger-parser and Redocly's linter, then sends requests
// that produce every documented 2xx and 4xx answer and has Ajv check each
// answer against it.
func TestOpenAPIDocument(t *testing.T) {
	srv := httptest.NewServer(newApp(NewBookRepository(Book{Title: "Go", Author: "Ann"}), "tok"))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d", res.StatusCode)
	}
	t.Log(openapicheck.Validate(t, doc))

	rec := &openapicheck.Recorder{}
	c := &http.Client{Transport: rec}
	for _, r := range []struct{ method, path, body, ctype string }{
		{"GET", "/", "", ""},
		{"GET", "/ann", "", ""},
		{"GET", "/ping", "", ""},
		{"GET", "/books", "", ""},
		{"GET", "/books/1", "", ""},
		{"GET", "/books/99", "", ""},
		{"GET", "/books/author/ann", "", ""},
		{"GET", "/books/search?q=go", "", ""},
		{"POST", "/books", `{"title":"T","author":"A"}`, "application/json"},
		{"POST", "/books", `{"title":`, "application/json"},
		{"POST", "/books", `{"title":"` + strings.Repeat("x", 11<<20) + `"}`, "application/json"},
		{"POST", "/books", `title`, "text/plain"},
	} {
		req, _ := http.NewRequest(r.method, srv.URL+r.path, strings.NewReader(r.body))
		if r.ctype != "" {
			req.Header.Set("Content-Type", r.ctype)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	t.Log(openapicheck.Conform(t, doc, rec.Exchanges()))
}
