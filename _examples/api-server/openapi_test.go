package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/internal/openapicheck"
)

// TestOpenAPIDocument fetches the served document, has it validated by
// swagger-parser and Redocly's linter, then sends requests that produce
// every documented 2xx and 4xx answer and has Ajv check each answer
// against the document's schemas.
func TestOpenAPIDocument(t *testing.T) {
	srv, _ := server(t, config{})
	res, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %q %v", res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	t.Log(openapicheck.Validate(t, doc))

	rec := &openapicheck.Recorder{}
	c := &http.Client{Transport: rec}
	json1 := map[string]string{"Content-Type": "application/json"}
	for _, cl := range []call{
		{path: "/healthz"},
		{path: "/api/items"},
		{path: "/api/items/3"},
		{path: "/api/items/999"},
		{method: "POST", path: "/api/items", body: `{"name":"pen","price":1.5}`, header: json1},
		{method: "POST", path: "/api/items", body: `{"name":"","price":0}`, header: json1},
		{method: "POST", path: "/api/items", body: `{"name":"","price":0}`, header: map[string]string{"Content-Type": "application/json", "Accept": "application/json"}},
		{path: "/api/items/999", header: map[string]string{"Accept": "application/problem+json"}},
		{method: "POST", path: "/api/items", body: `{"name":`, header: json1},
		{method: "POST", path: "/api/items", body: `{"name":"` + strings.Repeat("a", 1<<20) + `","price":1}`, header: json1},
		{method: "POST", path: "/api/items", body: `pen`, header: map[string]string{"Content-Type": "text/plain"}},
		{path: "/admin"},
		{path: "/admin", user: "admin", pass: "secret"},
	} {
		do(t, c, srv.URL, cl)
	}
	t.Log(openapicheck.Conform(t, doc, rec.Exchanges()))
}
