package openapicheck

import (
	"strings"
	"testing"
)

// TestToolsRefuseABadDocument checks that the tools do refuse: a document
// without info, with a response lacking its description.
func TestToolsRefuseABadDocument(t *testing.T) {
	node := tools(t)
	file := t.TempDir() + "/bad.json"
	writeFile(t, file, `{"openapi":"3.1.0","paths":{"/a":{"get":{"responses":{"200":{}}}}}}`)
	if out, err := run(node, "check.mjs", "validate", file); err == nil {
		t.Errorf("swagger-parser accepts a document without info:\n%s", out)
	}
	if out, err := run(node, "node_modules/@redocly/cli/bin/cli.js", "lint", "--config", "redocly.yaml", file); err == nil {
		t.Errorf("redocly accepts a document without info:\n%s", out)
	}
}

// TestConformFindsDisagreements checks that Conform's script reports an
// undocumented status, a body that does not match and an answer never
// produced.
func TestConformFindsDisagreements(t *testing.T) {
	node := tools(t)
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/items/{id}":{"get":{"responses":{
		"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"}}}},
		"404":{"description":"Not Found"}}}}},
		"components":{"schemas":{"Item":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}}`
	dir := t.TempDir()
	writeFile(t, dir+"/doc.json", doc)
	writeFile(t, dir+"/ex.json", `[{"method":"GET","path":"/items/1","status":200,"contentType":"application/json","body":"{\"id\":\"x\"}"},
		{"method":"GET","path":"/items/2","status":500,"contentType":"text/plain","body":"boom"}]`)
	out, err := run(node, "check.mjs", "conform", dir+"/doc.json", dir+"/ex.json")
	if err == nil {
		t.Fatalf("conform passed:\n%s", out)
	}
	for _, want := range []string{"does not match the schema", "status not documented", "never produced: GET /items/{id} 404"} {
		if !strings.Contains(out, want) {
			t.Errorf("verdict lacks %q:\n%s", want, out)
		}
	}
	writeFile(t, dir+"/ex.json", `[{"method":"GET","path":"/items/1","status":200,"contentType":"application/json","body":"{\"id\":1}"},
		{"method":"GET","path":"/items/2","status":404,"contentType":"","body":""}]`)
	if out, err := run(node, "check.mjs", "conform", dir+"/doc.json", dir+"/ex.json"); err != nil {
		t.Errorf("conform fails on agreeing exchanges: %v\n%s", err, out)
	}
}
