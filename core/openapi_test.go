package core

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/openapi"
)

var openapiInfo = openapi.Info{Title: "test", Version: "1.0.0"}

type docOwner struct {
	Name    string      `json:"name" validate:"required,min=2,max=40"`
	Email   string      `json:"email,omitempty" validate:"omitempty,email"`
	Friends []*docOwner `json:"friends,omitempty"` // recursive
}

type docBase struct {
	Created time.Time `json:"created"`
}

type docItem struct {
	docBase
	ID     int               `json:"id"`
	Kind   string            `json:"kind" validate:"oneof=book pen"`
	Owner  *docOwner         `json:"owner"`
	Labels map[string]string `json:"labels,omitempty"`
	Secret string            `json:"-"`
	Data   []byte            `json:"data,omitempty"`
}

type docCreate struct {
	Tenant string   `header:"X-Tenant" validate:"required"`
	Dry    bool     `query:"dry" default:"false"`
	Kind   string   `json:"kind" validate:"required,oneof=book pen"`
	Count  int      `json:"count" validate:"gte=1,lte=10"`
	Tags   []string `json:"tags" validate:"max=3,dive,alpha"`
}

// docOf builds app and returns its document as generic JSON.
func docOf(t *testing.T, app *Application) map[string]any {
	t.Helper()
	doc, err := app.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at follows a path of keys (and list indexes) in generic JSON.
func at(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestOpenAPIDocument(t *testing.T) {
	app := quietApp(WithOpenAPI("", openapiInfo))
	Post(app, "/api/items", func(ctx Context, in docCreate) (docItem, error) { return docItem{}, nil },
		Summary("Create an item"), Description("Creates it."), Tags("items"), Errors(409))
	g := app.Group("/api/{tenant:alpha}")
	Get(g, "/items/{id:uint}", func(ctx Context, in struct {
		ID uint `path:"id"`
	}) ([]docItem, error) {
		return nil, nil
	}, OperationID("listTenantItems"), Deprecated())
	Delete(app, "/api/items/{id:uuid}", func(ctx Context, in struct{}) (NoContent, error) { return NoContent{}, nil })
	app.Get("/healthz", ok("ok")).Describe(Summary("Liveness"), Returns(200, ""))
	app.Post("/raw/{rest...}", ok("")).Describe(RequestBody(docOwner{}), Returns(200, docOwner{}), Returns(204, nil))
	app.Get("/plain", ok(""))
	app.Handle("CONNECT", "/tunnel", ok(""))
	m := docOf(t, app)

	if at(m, "openapi") != "3.1.0" || at(m, "info", "title") != "test" {
		t.Errorf("head: %v %v", at(m, "openapi"), at(m, "info"))
	}
	post := at(m, "paths", "/api/items", "post")
	checks := []struct {
		name string
		got  any
		want string
	}{
		{"summary", at(post, "summary"), `"Create an item"`},
		{"tags", at(post, "tags"), `["items"]`},
		{"header parameter", at(post, "parameters", 0), `{"in":"header","name":"X-Tenant","required":true,"schema":{"type":"string"}}`},
		{"query parameter with default", at(post, "parameters", 1), `{"in":"query","name":"dry","schema":{"default":false,"type":"boolean"}}`},
		{"body", at(post, "requestBody", "content", "application/json", "schema"), `{"$ref":"#/components/schemas/docCreate"}`},
		{"success", at(post, "responses", "201", "content", "application/json", "schema"), `{"$ref":"#/components/schemas/docItem"}`},
		{"errors implied and declared", []any{at(post, "responses", "400") != nil, at(post, "responses", "409") != nil, at(post, "responses", "413") != nil, at(post, "responses", "415") != nil}, `[true,true,true,true]`},
		{"error content", at(post, "responses", "400", "content"), `{"application/problem+json":{"schema":{"$ref":"#/components/schemas/ProblemDetails"}},"text/plain":{"schema":{"description":"Status Text, or Status Text: detail.","type":"string"}}}`},
		{"body schema leaves parameters out, tags reflected", at(m, "components", "schemas", "docCreate"), `{"properties":{"count":{"format":"int64","maximum":10,"minimum":1,"type":"integer"},"kind":{"enum":["book","pen"],"type":"string"},"tags":{"items":{"pattern":"^[a-zA-Z]*$","type":"string"},"maxItems":3,"type":["array","null"]}},"required":["kind"],"type":"object"}`},
		{"embedded, pointer, map, time, bytes, json -", at(m, "components", "schemas", "docItem"), `{"properties":{"created":{"format":"date-time","type":"string"},"data":{"contentEncoding":"base64","type":"string"},"id":{"format":"int64","type":"integer"},"kind":{"enum":["book","pen"],"type":"string"},"labels":{"additionalProperties":{"type":"string"},"type":["object","null"]},"owner":{"anyOf":[{"$ref":"#/components/schemas/docOwner"},{"type":"null"}]}},"type":"object"}`},
		{"recursive type once", at(m, "components", "schemas", "docOwner", "properties", "friends"), `{"items":{"anyOf":[{"$ref":"#/components/schemas/docOwner"},{"type":"null"}]},"type":["array","null"]}`},
		{"string bounds and format", at(m, "components", "schemas", "docOwner", "properties"), `{"email":{"format":"email","type":"string"},"friends":{"items":{"anyOf":[{"$ref":"#/components/schemas/docOwner"},{"type":"null"}]},"type":["array","null"]},"name":{"maxLength":40,"minLength":2,"type":"string"}}`},
		{"typed path parameters, party included", at(m, "paths", "/api/{tenant}/items/{id}", "get", "parameters"), `[{"in":"path","name":"tenant","required":true,"schema":{"pattern":"^[A-Za-z]+$","type":"string"}},{"in":"path","name":"id","required":true,"schema":{"format":"int64","minimum":0,"type":"integer"}}]`},
		{"operation id, deprecated", []any{at(m, "paths", "/api/{tenant}/items/{id}", "get", "operationId"), at(m, "paths", "/api/{tenant}/items/{id}", "get", "deprecated")}, `["listTenantItems",true]`},
		{"204 without content", at(m, "paths", "/api/items/{id}", "delete", "responses"), `{"204":{"description":"No Content"}}`},
		{"uuid parameter", at(m, "paths", "/api/items/{id}", "delete", "parameters", 0, "schema"), `{"format":"uuid","type":"string"}`},
		{"default operation id", at(m, "paths", "/api/items/{id}", "delete", "operationId"), `"delete-api-items-id"`},
		{"plain route with text answer", at(m, "paths", "/healthz", "get"), `{"operationId":"get-healthz","responses":{"200":{"content":{"text/plain":{"schema":{"type":"string"}}},"description":"OK"}},"summary":"Liveness"}`},
		{"plain route with declared body", at(m, "paths", "/raw/{rest}", "post", "requestBody"), `{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/docOwner"}}},"required":true}`},
		{"plain route with two answers", at(m, "paths", "/raw/{rest}", "post", "responses"), `{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/docOwner"}}},"description":"OK"},"204":{"description":"No Content"}}`},
		{"plain route never omitted", at(m, "paths", "/plain", "get", "responses"), `{"default":{"description":"The handler's answer (not declared: a plain handler, or a result decided per request)."}}`},
		{"CONNECT and the document's own route left out", []any{at(m, "paths", "/tunnel"), at(m, "paths", "/openapi.json")}, `[null,null]`},
	}
	for _, c := range checks {
		if got := jsonOf(c.got); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}

	// Served once made, as JSON.
	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest("GET", "/openapi.json", nil))
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" || !strings.HasPrefix(w.Body.String(), `{"openapi":"3.1.0"`) {
		t.Errorf("GET /openapi.json: %d %q %.40s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
}

func TestOpenAPIWithoutServing(t *testing.T) {
	app := quietApp()
	app.Get("/a", ok(""))
	m := docOf(t, app)
	if at(m, "paths", "/a", "get") == nil || at(m, "info", "title") != "API" {
		t.Errorf("document: %s", jsonOf(m))
	}
	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest("GET", DefaultOpenAPIPath, nil))
	if w.Code != 404 {
		t.Errorf("document served without WithOpenAPI: %d", w.Code)
	}
	app2 := quietApp(WithOpenAPI("/docs/api.json", openapiInfo))
	app2.Get("/a", ok(""))
	w = httptest.NewRecorder()
	app2.ServeHTTP(w, httptest.NewRequest("GET", "/docs/api.json", nil))
	if w.Code != 200 {
		t.Errorf("custom path: %d", w.Code)
	}
}

func TestOpenAPINameClash(t *testing.T) {
	type ProblemDetails struct{ A int }
	app := quietApp(WithOpenAPI("", openapiInfo))
	Post(app, "/a", func(Context, tCreate) (ProblemDetails, error) { return ProblemDetails{}, nil })
	if err := app.Build(); err == nil || !strings.Contains(err.Error(), "ProblemDetails") {
		t.Errorf("Build: %v", err)
	}
}

func TestOperationID(t *testing.T) {
	for _, tt := range []struct{ method, pattern, want string }{
		{"GET", "/", "get"},
		{"GET", "/items/{id:int}", "get-items-id"},
		{"POST", "/a-b/{rest...}", "post-a-b-rest"},
		{"PUT", "/v1.2/x", "put-v1-2-x"},
	} {
		if got := operationID(tt.method, tt.pattern); got != tt.want {
			t.Errorf("operationID(%s %s) = %s, want %s", tt.method, tt.pattern, got, tt.want)
		}
	}
}
