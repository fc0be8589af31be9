// The OpenAPI document of an application.
//
// Build (or the first OpenAPI call) walks the routes once, in registration
// order, and writes one operation per route and method: the path with its
// parameters typed from the pattern ({id:int} is an integer), a typed
// handler's query, header and cookie parameters and its body from its
// input struct, its success answer from its output type, and what the
// route's RouteDoc adds. Named struct types become components/schemas
// (package openapi generates them). Error answers are documented as the
// error model writes them (openapi_errors.go): 400 for an input that can
// be refused, 413 and 415 for one with a body, and the statuses the route
// declares with Errors. A plain
// route documents only what its RouteDoc says; with no success answer
// declared it gets the "default" one. CONNECT routes, which OpenAPI cannot express,
// and the document's own route are left out.
//
// The document is marshalled once; WithOpenAPI's route writes those bytes.

package core

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo/openapi"
)

// DefaultOpenAPIPath is where WithOpenAPI serves the document when given
// no path.
const DefaultOpenAPIPath = "/openapi.json"

// openAPIState is the application's document, made once.
type openAPIState struct {
	path string // WithOpenAPI's path; "" when not served
	info openapi.Info
	doc  *openapi.Document
	json []byte
	err  error
}

// WithOpenAPI serves the application's OpenAPI 3.1 document at path (""
// for DefaultOpenAPIPath) as application/json. The document is generated
// at Build; a route or type it cannot describe is a registration error.
func WithOpenAPI(path string, info openapi.Info) Option {
	return func(app *Application) {
		if path == "" {
			path = DefaultOpenAPIPath
		}
		app.openapi.path, app.openapi.info = path, info
	}
}

// OpenAPI returns the application's OpenAPI 3.1 document, generating it
// (and building the application) the first time. The error is Build's
// or the generator's. The document is shared: change a copy.
func (app *Application) OpenAPI() (*openapi.Document, error) {
	if err := app.Build(); err != nil {
		return nil, err
	}
	app.openapiOnce.Do(app.generateOpenAPI)
	return app.openapi.doc, app.openapi.err
}

// serveOpenAPI registers the document's route; Build calls it before it
// assembles the chains.
func (app *Application) serveOpenAPI() {
	rt := app.Get(app.openapi.path, func(ctx Context) {
		ctx.SetContentType(MIMEJSON)
		ctx.Write(app.openapi.json)
	})
	rt.hidden = true
}

// generateOpenAPI makes the document and its JSON.
func (app *Application) generateOpenAPI() {
	st := &app.openapi
	st.doc, st.err = buildDocument(app.routes, st.info, app.validator != nil)
	if st.err == nil {
		st.json, st.err = json.Marshal(st.doc)
	}
}

// buildDocument describes routes; validating says whether the
// application has a Validator, whose refusals are 400s.
func buildDocument(routes []*Route, info openapi.Info, validating bool) (*openapi.Document, error) {
	if info.Title == "" {
		info.Title = "API"
	}
	if info.Version == "" {
		info.Version = "0.0.0"
	}
	doc := &openapi.Document{
		OpenAPI: openapi.Version, Info: info, Paths: map[string]*openapi.PathItem{},
		Servers: []openapi.Server{{URL: "/"}}, // the origin the document is served from
	}
	g := openapi.NewGenerator()
	g.Skip = func(f reflect.StructField) bool {
		_, _, tagged := fieldSource(f)
		return tagged
	}
	problems := false
	ids := map[string]string{}
	for _, rt := range routes {
		if rt.hidden || rt.err != nil {
			continue
		}
		path, _ := openAPIPath(rt.Pattern)
		item := doc.Paths[path]
		if item == nil {
			item = &openapi.PathItem{}
		}
		slot := item.Operation(rt.Method)
		if slot == nil {
			continue // CONNECT and methods OpenAPI has no field for
		}
		op, usesProblems, err := operation(g, rt, validating)
		if err != nil {
			return nil, &RegistrationError{Method: rt.Method, Pattern: rt.Pattern, Err: fmt.Errorf("OpenAPI: %w", err)}
		}
		if other, dup := ids[op.OperationID]; dup {
			return nil, &RegistrationError{Method: rt.Method, Pattern: rt.Pattern, Err: fmt.Errorf("OpenAPI: operationId %q is also the one of %s", op.OperationID, other)}
		}
		ids[op.OperationID] = rt.String()
		problems = problems || usesProblems
		*slot = op
		doc.Paths[path] = item
	}
	schemas := g.Components()
	if problems {
		for name, s := range errorSchemas() {
			if _, taken := schemas[name]; taken {
				return nil, fmt.Errorf("vireo: OpenAPI: a type named %s takes the name of an error schema", name)
			}
			schemas[name] = s
		}
	}
	if len(schemas) > 0 {
		doc.Components = &openapi.Components{Schemas: schemas}
	}
	return doc, nil
}

// openAPIPath turns a pattern into an OpenAPI path ({id:int} -> {id},
// {rest...} -> {rest}).
func openAPIPath(pattern string) (string, error) {
	tokens, err := parsePattern(pattern)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, tk := range tokens {
		if tk.param {
			b.WriteString("{" + tk.name + "}")
		} else {
			b.WriteString(tk.static)
		}
	}
	return b.String(), nil
}

// paramSchemas are the schemas of the pattern's parameter types.
var paramSchemas = map[ParamType]func() *openapi.Schema{
	ParamString: func() *openapi.Schema { return &openapi.Schema{Types: []string{"string"}} },
	ParamBool:   func() *openapi.Schema { return &openapi.Schema{Types: []string{"boolean"}} },
	ParamInt:    func() *openapi.Schema { return &openapi.Schema{Types: []string{"integer"}, Format: "int64"} },
	ParamInt64:  func() *openapi.Schema { return &openapi.Schema{Types: []string{"integer"}, Format: "int64"} },
	ParamUint: func() *openapi.Schema {
		zero := 0.0
		return &openapi.Schema{Types: []string{"integer"}, Format: "int64", Minimum: &zero}
	},
	ParamUint64: func() *openapi.Schema {
		zero := 0.0
		return &openapi.Schema{Types: []string{"integer"}, Format: "int64", Minimum: &zero}
	},
	ParamUUID:  func() *openapi.Schema { return &openapi.Schema{Types: []string{"string"}, Format: "uuid"} },
	ParamAlpha: func() *openapi.Schema { return &openapi.Schema{Types: []string{"string"}, Pattern: "^[A-Za-z]+$"} },
	ParamPath: func() *openapi.Schema {
		return &openapi.Schema{Types: []string{"string"}, Description: "The rest of the path, slashes included."}
	},
}

// operation describes one route; usesProblems reports an error answer.
func operation(g *openapi.Generator, rt *Route, validating bool) (op *openapi.Operation, usesProblems bool, err error) {
	d := rt.doc
	op = &openapi.Operation{
		Tags: d.Tags, Summary: d.Summary, Description: d.Description,
		OperationID: d.OperationID, Deprecated: d.Deprecated,
		Responses: map[string]*openapi.Response{},
	}
	if op.OperationID == "" {
		op.OperationID = operationID(rt.Method, rt.Pattern)
	}
	for _, p := range rt.params {
		op.Parameters = append(op.Parameters, &openapi.Parameter{Name: p.Name, In: "path", Required: true, Schema: paramSchemas[p.Type]()})
	}
	var errs []int
	body := d.Body
	form := false
	if d.Input != nil {
		b, err := newBinder(d.Input, rt.Method, rt.params)
		if err != nil {
			return nil, false, err
		}
		for i := range b.fields {
			f := &b.fields[i]
			if f.src == fromPath {
				continue // from the pattern, above
			}
			s, required, err := g.Parameter(f.field)
			if err != nil {
				return nil, false, err
			}
			if f.hasDef {
				s.Default = defaultValue(f.field.Type, f.def)
			}
			op.Parameters = append(op.Parameters, &openapi.Parameter{Name: f.name, In: f.src.String(), Required: required, Schema: s})
		}
		if b.mayRefuse || b.validated && validating {
			errs = append(errs, http.StatusBadRequest)
		}
		if b.body {
			errs = append(errs, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
			body, form = b.typ, true
		}
	}
	if body != nil {
		s, err := g.Schema(body)
		if err != nil {
			return nil, false, err
		}
		op.RequestBody = &openapi.RequestBody{Required: true, Content: map[string]*openapi.MediaType{MIMEJSON: {Schema: s}}}
		if form {
			op.RequestBody.Content["application/x-www-form-urlencoded"] = &openapi.MediaType{Schema: s}
		}
	}
	for _, r := range d.Responses {
		resp := &openapi.Response{Description: statusDescription(r.Status)}
		ct := r.ContentType
		if ct == "" {
			ct = MIMEJSON
		}
		switch {
		case r.Type == nil:
		case ct != MIMEJSON && !strings.HasSuffix(ct, "+json"):
			resp.Content = map[string]*openapi.MediaType{ct: {Schema: &openapi.Schema{Types: []string{"string"}}}}
		default:
			s, err := g.Schema(r.Type)
			if err != nil {
				return nil, false, err
			}
			resp.Content = map[string]*openapi.MediaType{ct: {Schema: s}}
		}
		op.Responses[strconv.Itoa(r.Status)] = resp
	}
	errs = append(errs, d.Errors...)
	sort.Ints(errs)
	for _, code := range errs {
		key := strconv.Itoa(code)
		if _, ok := op.Responses[key]; ok {
			continue
		}
		op.Responses[key] = &openapi.Response{
			Description: statusDescription(code),
			Content:     errorContent(code),
		}
		usesProblems = true
	}
	if len(d.Responses) == 0 {
		op.Responses["default"] = &openapi.Response{Description: "The handler's answer (not declared: a plain handler, or a result decided per request)."}
	}
	return op, usesProblems, nil
}

// statusDescription is a response's description: the status text.
func statusDescription(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "Status " + strconv.Itoa(code)
}

// operationID makes an identifier of the method and pattern:
// GET /items/{id:int} -> get-items-id.
func operationID(method, pattern string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	dash := true
	inBrace, inType := false, false
	for _, r := range pattern {
		switch {
		case r == '{':
			inBrace, dash = true, true
		case r == '}':
			inBrace, inType = false, false
		case inBrace && (r == ':' || r == '.'):
			inType = true // {id:int}, {rest...}: the type is not part of the name
		case inType:
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return b.String()
}

// defaultValue is a default tag's value as the JSON type of t.
func defaultValue(t reflect.Type, def string) any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Slice {
		var vs []any
		for _, w := range strings.Split(def, ",") {
			vs = append(vs, defaultValue(t.Elem(), w))
		}
		return vs
	}
	var v any = def
	switch t.Kind() {
	case reflect.Bool:
		v, _ = strconv.ParseBool(def)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v, _ = strconv.ParseInt(def, 10, 64)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v, _ = strconv.ParseUint(def, 10, 64)
	case reflect.Float32, reflect.Float64:
		v, _ = strconv.ParseFloat(def, 64)
	}
	return v
}
