package main

import (
	"encoding/json"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// specOperations are the operations of the RealWorld spec's api/openapi.yml
// (github.com/gothinkster/realworld), read from it by hand: method, path
// (under the server URL /api) and the names of the parameters, in:name.
// Only this list is here, not the spec.
var specOperations = []struct {
	method, path string
	params       []string
}{
	{"POST", "/users/login", nil},
	{"POST", "/users", nil},
	{"GET", "/user", nil},
	{"PUT", "/user", nil},
	{"GET", "/profiles/{username}", []string{"path:username"}},
	{"POST", "/profiles/{username}/follow", []string{"path:username"}},
	{"DELETE", "/profiles/{username}/follow", []string{"path:username"}},
	{"GET", "/articles/feed", []string{"query:offset", "query:limit"}},
	{"GET", "/articles", []string{"query:tag", "query:author", "query:favorited", "query:offset", "query:limit"}},
	{"POST", "/articles", nil},
	{"GET", "/articles/{slug}", []string{"path:slug"}},
	{"PUT", "/articles/{slug}", []string{"path:slug"}},
	{"DELETE", "/articles/{slug}", []string{"path:slug"}},
	{"GET", "/articles/{slug}/comments", []string{"path:slug"}},
	{"POST", "/articles/{slug}/comments", []string{"path:slug"}},
	{"DELETE", "/articles/{slug}/comments/{id}", []string{"path:slug", "path:id"}},
	{"POST", "/articles/{slug}/favorite", []string{"path:slug"}},
	{"DELETE", "/articles/{slug}/favorite", []string{"path:slug"}},
	{"GET", "/tags", nil},
}

// TestOpenAPIMatchesTheSpec reads the document the application serves at
// /api/openapi.json and checks that every operation of the spec is in it
// with the same parameters, and that it has no operation the spec lacks.
func TestOpenAPIMatchesTheSpec(t *testing.T) {
	c := newClient(t, "")
	rec := httptest.NewRecorder()
	c.app.ServeHTTP(rec, httptest.NewRequest("GET", "/api/openapi.json", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET /api/openapi.json: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
			RequestBody *json.RawMessage           `json:"requestBody"`
			Responses   map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	seen := map[string]bool{}
	for _, op := range specOperations {
		key := op.method + " /api" + op.path
		seen[key] = true
		got, ok := doc.Paths["/api"+op.path][strings.ToLower(op.method)]
		if !ok {
			t.Errorf("%s: not in the document", key)
			continue
		}
		var params []string
		for _, p := range got.Parameters {
			params = append(params, p.In+":"+p.Name)
			if p.In == "path" && !p.Required {
				t.Errorf("%s: path parameter %s not required", key, p.Name)
			}
		}
		want := append([]string(nil), op.params...)
		sort.Strings(params)
		sort.Strings(want)
		if strings.Join(params, ",") != strings.Join(want, ",") {
			t.Errorf("%s: parameters %v, want %v", key, params, want)
		}
		if op.method == "POST" || op.method == "PUT" {
			if got.RequestBody == nil && !strings.HasSuffix(op.path, "/follow") && !strings.HasSuffix(op.path, "/favorite") {
				t.Errorf("%s: no request body", key)
			}
		}
		if _, ok := got.Responses["422"]; !ok && (op.method == "POST" && op.path == "/users") {
			t.Errorf("%s: no 422 answer documented", key)
		}
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			if key := strings.ToUpper(method) + " " + path; !seen[key] {
				t.Errorf("%s: in the document, not in the spec", key)
			}
		}
	}
}
