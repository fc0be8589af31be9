package conformance

// Typed handlers and the OpenAPI document over a real connection: input
// bound from the path, the query, headers, a cookie and the body (JSON or
// a form), the Validator's refusals and the binder's own answered as
// Problem Details (or text) 4xx with the reason, outputs written as JSON,
// and the generated document served. Every request is also sent to a
// reference: the same routes on core's net/http engine over a plain
// HTTP/1.1 transport; the target must answer it byte for byte (status,
// Content-Type, body, with the random request ID of an error page
// replaced), so the engines agree with each other, and the bodies the
// suite pins are net/http's.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/openapi"
)

// typedParams is bound from everything but the body.
type typedParams struct {
	ID      int      `path:"id"`
	Page    int      `query:"page" default:"1"`
	Verbose bool     `query:"verbose"`
	Tags    []string `query:"tag"`
	Limit   *int     `query:"limit"`
	Tenant  string   `header:"X-Tenant"`
	Multi   []string `header:"X-Multi"`
	Theme   string   `cookie:"theme" default:"light"`
}

// typedEcho is what GET /items/{id} answers: its input as JSON.
type typedEcho struct {
	ID      int      `json:"id"`
	Page    int      `json:"page"`
	Verbose bool     `json:"verbose"`
	Tags    []string `json:"tags"`
	Limit   *int     `json:"limit"`
	Tenant  string   `json:"tenant"`
	Multi   []string `json:"multi"`
	Theme   string   `json:"theme"`
}

// typedCreate has a path parameter, a query parameter and a body; the
// body cannot set Tenant (parameters are bound after it).
type typedCreate struct {
	Tenant string   `path:"tenant"`
	Dry    bool     `query:"dry"`
	Name   string   `json:"name" form:"name"`
	Count  int      `json:"count" form:"count"`
	Tags   []string `json:"tags" form:"tags"`
}

// typedItem is the output of the typed POST and PUT.
type typedItem struct {
	Tenant string   `json:"tenant"`
	Name   string   `json:"name"`
	Count  int      `json:"count"`
	Tags   []string `json:"tags"`
	Dry    bool     `json:"dry"`
}

type typedID struct {
	ID int `path:"id"`
}

// typedValidator refuses a typedCreate without a name or with a count
// outside 0..10, naming both fields.
var typedValidator = core.ValidatorFunc(func(v any) error {
	in, ok := v.(*typedCreate)
	if !ok {
		return nil
	}
	bad := map[string]string{}
	if in.Name == "" {
		bad["name"] = "is required"
	}
	if in.Count < 0 || in.Count > 10 {
		bad["count"] = "must be between 0 and 10"
	}
	if len(bad) > 0 {
		return &core.ValidationError{Fields: bad}
	}
	return nil
})

// typedOptions are the options of the typed tests' applications (the
// target's and the reference).
var typedOptions = []core.Option{
	core.WithValidator(typedValidator),
	core.WithOpenAPI("", openapi.Info{Title: "conformance", Version: "1.0.0"}),
}

// registerTyped registers the typed routes on app.
func registerTyped(app *core.Application) {
	core.Get(app, "/items/{id:int}", func(c core.Context, in typedParams) (typedEcho, error) {
		return typedEcho(in), nil
	}, core.Summary("Echo the bound parameters"))
	create := func(c core.Context, in typedCreate) (typedItem, error) {
		return typedItem{Tenant: in.Tenant, Name: in.Name, Count: in.Count, Tags: in.Tags, Dry: in.Dry}, nil
	}
	core.Post(app, "/tenants/{tenant}/items", create, core.Tags("items"))
	core.Put(app, "/tenants/{tenant}/items", create, core.Status(http.StatusAccepted))
	core.Post(app.Group("/small", core.BodyLimit(32)), "/{tenant}/items", create)
	core.Delete(app, "/items/{id:int}", func(c core.Context, in typedID) (core.NoContent, error) {
		return core.NoContent{}, nil
	})
	core.Get(app, "/own/{id:int}", func(c core.Context, in typedID) (typedItem, error) {
		switch in.ID {
		case 1: // its own answer: the output is not written
			c.SetResponseHeader("X-Own", "1")
			c.SetStatus(http.StatusNonAuthoritativeInfo)
			c.WriteString("own answer")
		case 2: // a status and no body: the error page, not the output
			c.StopWithStatus(http.StatusConflict)
		}
		return typedItem{Name: "not written"}, nil
	})
	core.Get(app, "/items/{id:int}/owner", func(c core.Context, in typedID) (typedItem, error) {
		if in.ID != 1 {
			return typedItem{}, core.NewHTTPError(http.StatusNotFound, "no owner for this item")
		}
		return typedItem{Name: "ann"}, nil
	}, core.Errors(http.StatusNotFound))
}

// startReference serves a net/http application with options, set up by
// register, over a plain HTTP/1.1 transport: the answers the suite
// compares the target's with.
func startReference(t *testing.T, options []core.Option, register func(*core.Application)) *server {
	t.Helper()
	ref := newApp(options, nil)
	register(ref)
	return start(t, ref, nil)
}

// exchange is a request of a table and what the suite pins of its answer.
type exchange struct {
	name         string
	method, path string
	body         string
	header       http.Header // sent as is: repeated values are repeated fields
	code         int
	contentType  string // "" : none
	want         string // the exact body, request ID replaced by "ID"; "-": not pinned
}

// send sends the request with header as given (repeated values stay
// repeated), and returns what it got.
func (s *server) send(method, path, body string, header http.Header) response {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = append([]string(nil), vs...)
	}
	resp, err := s.c.Do(req)
	if err != nil {
		s.t.Errorf("%s %s: %v", method, path, err)
		return response{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Errorf("%s %s: reading the body: %v", method, path, err)
	}
	return response{resp.StatusCode, string(b), resp.Header}
}

// normalized returns r's body with the request ID of a Problem Details
// document, which is random, replaced by "ID"; a problem document whose
// requestId is not its X-Request-Id header is reported.
func normalized(t *testing.T, what string, r response) string {
	t.Helper()
	if !strings.HasPrefix(r.header.Get("Content-Type"), core.ProblemJSON) {
		return r.body
	}
	id := r.header.Get("X-Request-Id")
	field := `"requestId":"` + id + `"`
	if id == "" || !strings.Contains(r.body, field) {
		t.Errorf("%s: problem document %s without the requestId of its X-Request-Id header %q", what, r.body, id)
		return r.body
	}
	return strings.Replace(r.body, field, `"requestId":"ID"`, 1)
}

// checkExchanges sends each request to s and to ref and checks the
// answers: what the table pins, and that s answers as ref does.
func checkExchanges(t *testing.T, s, ref *server, table []exchange) {
	t.Helper()
	for _, ex := range table {
		what := ex.method + " " + ex.path + " (" + ex.name + ")"
		got := s.send(ex.method, ex.path, ex.body, ex.header)
		want := ref.send(ex.method, ex.path, ex.body, ex.header)
		gotBody, wantBody := normalized(t, what, got), normalized(t, what+" on the reference", want)
		if got.code != ex.code || got.header.Get("Content-Type") != ex.contentType || (ex.want != "-" && gotBody != ex.want) {
			if long(gotBody, ex.want) {
				t.Errorf("%s: got %d %q, want %d %q; %s", what, got.code, got.header.Get("Content-Type"), ex.code, ex.contentType, firstDifference(gotBody, ex.want))
			} else {
				t.Errorf("%s:\n got %d %q %s\nwant %d %q %s", what, got.code, got.header.Get("Content-Type"), gotBody, ex.code, ex.contentType, ex.want)
			}
		}
		if got.code != want.code || gotBody != wantBody {
			if long(gotBody, wantBody) {
				t.Errorf("%s: the target answers %d, net/http %d; %s", what, got.code, want.code, firstDifference(gotBody, wantBody))
			} else {
				t.Errorf("%s: the target and net/http differ:\ntarget   %d %s\nnet/http %d %s", what, got.code, gotBody, want.code, wantBody)
			}
		}
		for _, name := range comparedHeaders {
			if g, w := got.header.Values(name), want.header.Values(name); !slices.Equal(g, w) {
				t.Errorf("%s: %s %q, net/http sends %q", what, name, g, w)
			}
		}
	}
}

// comparedHeaders are the response headers the target must send as
// net/http does (the others, such as Date, Content-Length or Connection,
// are the engine's or the protocol's own).
var comparedHeaders = []string{"Content-Type", "X-Content-Type-Options", "Allow", "X-Own", "Set-Cookie", "Location"}

const (
	jsonType    = "application/json; charset=utf-8"
	problemType = "application/problem+json; charset=utf-8"
	textType    = "text/plain; charset=utf-8"
)

// hdr builds a header from name, value pairs; a name given twice gets two
// fields.
func hdr(pairs ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(pairs); i += 2 {
		h.Add(pairs[i], pairs[i+1])
	}
	return h
}

var acceptJSON = hdr("Accept", "application/json")

var typedExchanges = []exchange{
	{"defaults", "GET", "/items/7", "", nil, 200, jsonType,
		`{"id":7,"page":1,"verbose":false,"tags":null,"limit":null,"tenant":"","multi":null,"theme":"light"}`},
	{"every source", "GET", "/items/7?page=3&verbose=true&tag=a&tag=b%20c&limit=5", "",
		hdr("X-Tenant", "a<b>&c", "X-Multi", "x", "X-Multi", "y", "Cookie", "theme=dark; other=1"), 200, jsonType,
		`{"id":7,"page":3,"verbose":true,"tags":["a","b c"],"limit":5,"tenant":"a\u003cb\u003e\u0026c","multi":["x","y"],"theme":"dark"}`},
	{"HEAD", "HEAD", "/items/7", "", nil, 200, jsonType, ""},
	{"bad query, text", "GET", "/items/7?page=x", "", nil, 400, textType,
		"Bad Request: invalid input: page: must be an integer"},
	{"bad query, problem", "GET", "/items/7?page=x&verbose=maybe&limit=1.5", "", acceptJSON, 400, problemType,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"invalid fields","instance":"/items/7","requestId":"ID","errors":{"limit":"must be an integer","page":"must be an integer","verbose":"must be true or false"}}`},
	{"out of range", "GET", "/items/7?page=99999999999999999999", "", acceptJSON, 400, problemType,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"invalid fields","instance":"/items/7","requestId":"ID","errors":{"page":"must be an integer between -9223372036854775808 and 9223372036854775807"}}`},
	{"path type refused by the router", "GET", "/items/abc", "", nil, 404, textType, "Not Found"},
	{"JSON body", "POST", "/tenants/acme/items?dry=true", `{"name":"pen","count":2,"tags":["a","b"],"Tenant":"evil"}`,
		hdr("Content-Type", "application/json"), 201, jsonType,
		`{"tenant":"acme","name":"pen","count":2,"tags":["a","b"],"dry":true}`},
	{"form body", "POST", "/tenants/acme/items", "name=pen&count=3&tags=a&tags=b&Tenant=evil",
		hdr("Content-Type", "application/x-www-form-urlencoded"), 201, jsonType,
		`{"tenant":"acme","name":"pen","count":3,"tags":["a","b"],"dry":false}`},
	{"Status option", "PUT", "/tenants/acme/items", `{"name":"pen"}`, hdr("Content-Type", "application/json"), 202, jsonType,
		`{"tenant":"acme","name":"pen","count":0,"tags":null,"dry":false}`},
	{"Validator refuses, problem", "POST", "/tenants/acme/items", `{"count":11}`,
		hdr("Content-Type", "application/json", "Accept", "application/problem+json"), 400, problemType,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"invalid fields","instance":"/tenants/acme/items","requestId":"ID","errors":{"count":"must be between 0 and 10","name":"is required"}}`},
	{"Validator refuses, text", "POST", "/tenants/acme/items", `{"name":"pen","count":-1}`,
		hdr("Content-Type", "application/json"), 400, textType,
		"Bad Request: invalid input: count: must be between 0 and 10"},
	{"bad query with a body", "POST", "/tenants/acme/items?dry=perhaps", `{"name":"pen"}`,
		hdr("Content-Type", "application/json", "Accept", "application/json"), 400, problemType,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"invalid fields","instance":"/tenants/acme/items","requestId":"ID","errors":{"dry":"must be true or false"}}`},
	{"malformed JSON", "POST", "/tenants/acme/items", `{"name":`, hdr("Content-Type", "application/json", "Accept", "application/json"), 400, problemType, "-"},
	{"wrong field type", "POST", "/tenants/acme/items", `{"count":"two"}`, hdr("Content-Type", "application/json", "Accept", "application/json"), 400, problemType, "-"},
	{"not JSON", "POST", "/tenants/acme/items", `name=pen`, hdr("Content-Type", "text/plain"), 415, textType, "-"},
	{"no body", "POST", "/tenants/acme/items", "", hdr("Content-Type", "application/json"), 400, textType, "-"},
	{"within the body limit", "POST", "/small/acme/items", `{"name":"pen"}`, hdr("Content-Type", "application/json"), 201, jsonType,
		`{"tenant":"acme","name":"pen","count":0,"tags":null,"dry":false}`},
	{"over the body limit", "POST", "/small/acme/items", `{"name":"` + strings.Repeat("p", 40) + `"}`,
		hdr("Content-Type", "application/json", "Accept", "application/json"), 413, problemType, "-"},
	{"NoContent", "DELETE", "/items/7", "", nil, 204, "", ""},
	{"handler error, problem", "GET", "/items/2/owner", "", acceptJSON, 404, problemType,
		`{"type":"about:blank","title":"Not Found","status":404,"detail":"no owner for this item","instance":"/items/2/owner","requestId":"ID"}`},
	{"handler error, text", "GET", "/items/2/owner", "", nil, 404, textType, "Not Found: no owner for this item"},
	{"handler success", "GET", "/items/1/owner", "", nil, 200, jsonType,
		`{"tenant":"","name":"ann","count":0,"tags":null,"dry":false}`},
	{"method not allowed", "PATCH", "/items/7", "", acceptJSON, 405, problemType, "-"},
	{"escaped query and header case", "GET", "/items/1?tag=%E2%9C%93&tag=a%2Bb+c&page=-2", "", hdr("x-tenant", "lower", "X-Multi", "x, y"), 200, jsonType,
		`{"id":1,"page":-2,"verbose":false,"tags":["✓","a+b c"],"limit":null,"tenant":"lower","multi":["x, y"],"theme":"light"}`},
	{"escaped path", "POST", "/tenants/ac%2Fm%C3%A9/items", `{"name":"caf\u00e9 ✓","count":10}`, hdr("Content-Type", "application/json; charset=utf-8"), 201, jsonType,
		`{"tenant":"ac/mé","name":"café ✓","count":10,"tags":null,"dry":false}`},
	{"multipart form body", "POST", "/tenants/acme/items", "--zz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\npen\r\n--zz\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n4\r\n--zz--\r\n",
		hdr("Content-Type", "multipart/form-data; boundary=zz"), 201, jsonType,
		`{"tenant":"acme","name":"pen","count":4,"tags":null,"dry":false}`},
	{"form body refused by the Validator", "POST", "/tenants/acme/items", "count=12", hdr("Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json"), 400, problemType,
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"invalid fields","instance":"/tenants/acme/items","requestId":"ID","errors":{"count":"must be between 0 and 10","name":"is required"}}`},
	bigExchange(),
	{"handler writes its own answer", "GET", "/own/1", "", nil, 203, textType, "own answer"},
	{"handler stops with a status", "GET", "/own/2", "", nil, 409, textType, "Conflict"},
	{"handler returns its output", "GET", "/own/3", "", nil, 200, jsonType, `{"tenant":"","name":"not written","count":0,"tags":null,"dry":false}`},
}

// bigExchange is a POST whose body and output (about 50 KB each) are
// past the engines' write buffers and the HTTP/2 frame and window sizes.
func bigExchange() exchange {
	tags := make([]string, 4000)
	for i := range tags {
		tags[i] = fmt.Sprintf("tag-%04d", i)
	}
	list, _ := json.Marshal(tags)
	return exchange{"large body and output", "POST", "/tenants/acme/items", `{"name":"big","tags":` + string(list) + `}`,
		hdr("Content-Type", "application/json"), 201, jsonType, `{"tenant":"acme","name":"big","count":0,"tags":` + string(list) + `,"dry":false}`}
}

// typed: typed handlers bind, validate and answer as on net/http.
func typed(t *testing.T, app *core.Application, start func() *server) {
	registerTyped(app)
	s := start()
	checkExchanges(t, s, startReference(t, typedOptions, registerTyped), typedExchanges)
	if r := s.send("GET", "/own/1", "", nil); r.header.Get("X-Own") != "1" {
		t.Errorf("GET /own/1: X-Own %q, want the header its handler set", r.header.Get("X-Own"))
	}
}

// typedConcurrent: clients in parallel send the table's requests whose
// bodies it pins: every answer is its own (pooled request states, query
// and header buffers reused between them).
func typedConcurrent(t *testing.T, app *core.Application, start func() *server) {
	registerTyped(app)
	s := start()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 5 {
				for i := range typedExchanges {
					ex := typedExchanges[(i+g+round)%len(typedExchanges)]
					if ex.want == "-" {
						continue
					}
					r := s.send(ex.method, ex.path, ex.body, ex.header)
					if body := normalized(t, ex.name, r); r.code != ex.code || body != ex.want {
						t.Errorf("client %d, %s %s (%s): %d, want %d; %s", g, ex.method, ex.path, ex.name, r.code, ex.code, firstDifference(body, ex.want))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// typedInputOutlivesRequest: a typed handler's input - strings bound from
// the path, the query, headers, a cookie and the body - is the handler's
// to keep: later requests, whatever the engine does with its buffers,
// never change it.
func typedInputOutlivesRequest(t *testing.T, app *core.Application, start func() *server) {
	var mu sync.Mutex
	var kept []typedParams
	var keptBodies []typedCreate
	core.Get(app, "/keep/{id:int}", func(c core.Context, in typedParams) (core.NoContent, error) {
		mu.Lock()
		kept = append(kept, in)
		mu.Unlock()
		return core.NoContent{}, nil
	})
	core.Post(app, "/keep/{tenant}", func(c core.Context, in typedCreate) (core.NoContent, error) {
		mu.Lock()
		keptBodies = append(keptBodies, in)
		mu.Unlock()
		return core.NoContent{}, nil
	})
	s := start()
	const n = 30
	for i := range n {
		v := fmt.Sprintf("v%02d", i)
		if r := s.send("GET", "/keep/"+strconv.Itoa(i)+"?tag="+v+"&tag=w"+v, "", hdr("X-Tenant", "t"+v, "X-Multi", "m"+v, "Cookie", "theme=c"+v)); r.code != 204 {
			t.Fatalf("GET /keep/%d: %d %q", i, r.code, r.body)
		}
		if r := s.send("POST", "/keep/p"+v, `{"name":"n`+v+`","tags":["b`+v+`"]}`, hdr("Content-Type", "application/json")); r.code != 204 {
			t.Fatalf("POST /keep/p%s: %d %q", v, r.code, r.body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, in := range kept {
		v := fmt.Sprintf("v%02d", i)
		want := typedParams{ID: i, Page: 1, Tags: []string{v, "w" + v}, Tenant: "t" + v, Multi: []string{"m" + v}, Theme: "c" + v}
		if fmt.Sprint(in) != fmt.Sprint(want) {
			t.Errorf("input %d kept past its request is now %+v, want %+v", i, in, want)
		}
	}
	for i, in := range keptBodies {
		v := fmt.Sprintf("v%02d", i)
		want := typedCreate{Tenant: "p" + v, Name: "n" + v, Tags: []string{"b" + v}}
		if fmt.Sprint(in) != fmt.Sprint(want) {
			t.Errorf("body input %d kept past its request is now %+v, want %+v", i, in, want)
		}
	}
	if len(kept) != n || len(keptBodies) != n {
		t.Errorf("kept %d and %d inputs, want %d each", len(kept), len(keptBodies), n)
	}
}

// openAPIDocument: the document WithOpenAPI serves is the one OpenAPI
// returns, marshalled, the same bytes net/http serves, to every one of
// concurrent clients; it describes the typed routes and not itself.
func openAPIDocument(t *testing.T, app *core.Application, start func() *server) {
	registerTyped(app)
	s := start()
	ref := startReference(t, typedOptions, registerTyped)
	doc, err := app.OpenAPI()
	if err != nil {
		t.Fatalf("OpenAPI: %v", err)
	}
	marshalled, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := ref.send("GET", core.DefaultOpenAPIPath, "", nil)
	if want.code != 200 || want.body != string(marshalled) {
		t.Fatalf("net/http serves %d, %d bytes, not the document OpenAPI returns (%d bytes)", want.code, len(want.body), len(marshalled))
	}
	got := s.send("GET", core.DefaultOpenAPIPath, "", nil)
	if got.code != 200 || got.header.Get("Content-Type") != core.MIMEJSON || got.body != want.body {
		t.Fatalf("GET %s: %d %q, %d bytes; net/http: %d %q, %d bytes; %s", core.DefaultOpenAPIPath,
			got.code, got.header.Get("Content-Type"), len(got.body), want.code, want.header.Get("Content-Type"), len(want.body), firstDifference(got.body, want.body))
	}
	if h := s.send("HEAD", core.DefaultOpenAPIPath, "", nil); h.code != 200 || h.body != "" || h.header.Get("Content-Type") != core.MIMEJSON {
		t.Errorf("HEAD %s: %d %q %q", core.DefaultOpenAPIPath, h.code, h.header.Get("Content-Type"), h.body)
	}

	var m map[string]any
	if err := json.Unmarshal([]byte(got.body), &m); err != nil {
		t.Fatalf("the document is not JSON: %v", err)
	}
	paths, _ := m["paths"].(map[string]any)
	checks := []struct {
		name string
		got  any
		want string
	}{
		{"version", m["openapi"], `"3.1.0"`},
		{"info", m["info"], `{"title":"conformance","version":"1.0.0"}`},
		{"its own route left out", paths[core.DefaultOpenAPIPath], `null`},
		{"methods of /items/{id}", keys(paths["/items/{id}"]), `["delete","get"]`},
		{"methods of /tenants/{tenant}/items", keys(paths["/tenants/{tenant}/items"]), `["post","put"]`},
		{"limited group", keys(paths["/small/{tenant}/items"]), `["post"]`},
		{"summary", at(paths, "/items/{id}", "get", "summary"), `"Echo the bound parameters"`},
		{"path parameter", at(paths, "/items/{id}", "get", "parameters", 0), `{"in":"path","name":"id","required":true,"schema":{"format":"int64","type":"integer"}}`},
		{"parameter sources", paramSources(at(paths, "/items/{id}", "get", "parameters")), `["path id","query page","query verbose","query tag","query limit","header X-Tenant","header X-Multi","cookie theme"]`},
		{"query default", at(paths, "/items/{id}", "get", "parameters", 1, "schema", "default"), `1`},
		{"POST success", keys(at(paths, "/tenants/{tenant}/items", "post", "responses")), `["201","400","413","415"]`},
		{"PUT Status", keys(at(paths, "/tenants/{tenant}/items", "put", "responses")), `["202","400","413","415"]`},
		{"DELETE NoContent", keys(at(paths, "/items/{id}", "delete", "responses")), `["204"]`},
		{"declared error", keys(at(paths, "/items/{id}/owner", "get", "responses")), `["200","404"]`},
		{"body", at(paths, "/tenants/{tenant}/items", "post", "requestBody", "content", "application/json", "schema"), `{"$ref":"#/components/schemas/typedCreate"}`},
		{"tags", at(paths, "/tenants/{tenant}/items", "post", "tags"), `["items"]`},
	}
	for _, c := range checks {
		if b, _ := json.Marshal(c.got); string(b) != c.want {
			t.Errorf("document: %s: %s, want %s", c.name, b, c.want)
		}
	}

	// Concurrent clients get the same bytes: the engine must not reuse or
	// change the shared document it writes.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if r := s.send("GET", core.DefaultOpenAPIPath, "", nil); r.code != 200 || r.body != want.body {
					t.Errorf("client %d: %d, %d bytes differ from the document", i, r.code, len(r.body))
					return
				}
			}
		}()
	}
	wg.Wait()
}

// long reports whether a body is too long to print whole in a failure.
func long(bodies ...string) bool {
	for _, b := range bodies {
		if len(b) > 1000 {
			return true
		}
	}
	return false
}

// firstDifference describes where got and want first differ.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	if i == len(got) && i == len(want) {
		return "same bytes"
	}
	from := max(i-40, 0)
	return fmt.Sprintf("first difference at byte %d: got ...%q, want ...%q", i, got[from:min(i+40, len(got))], want[from:min(i+40, len(want))])
}

// at follows a path of keys and list indexes in generic JSON.
func at(v any, path ...any) any {
	for _, k := range path {
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

// keys returns the sorted keys of a JSON object.
func keys(v any) []string {
	m, _ := v.(map[string]any)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// paramSources lists the "in name" of each parameter.
func paramSources(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, p := range l {
		out = append(out, at(p, "in").(string)+" "+at(p, "name").(string))
	}
	return out
}
