// Route documentation.
//
// Every route carries a RouteDoc: what its OpenAPI operation says beyond
// the method, the path and the path parameters, which the pattern gives.
// Typed handlers fill it from their input and output types; plain routes
// and mvc controllers get it from RouteOptions, given to the typed
// registration functions or to Route.Describe. Nothing of it is read while
// serving: the document is generated once, at Build (openapi.go).

package core

import (
	"fmt"
	"reflect"
	"slices"
)

// RouteDoc is the documentation of a route.
type RouteDoc struct {
	Summary     string
	Description string
	OperationID string
	Tags        []string
	Deprecated  bool
	// Status is the success status of a typed handler (0: its default,
	// 201 for POST, 204 for NoContent, else 200).
	Status int
	// Errors are the error statuses the route answers beyond those its
	// input implies (400, 413, 415), each documented as Problem Details.
	Errors []int
	// Input is the struct bound by tags from the request, as HandleTyped
	// binds it: its parameters and its body (typed handlers, mvc bodies).
	Input reflect.Type
	// Body is the type of the JSON request body of a route without Input
	// (RequestBody), nil for none.
	Body reflect.Type
	// Responses are the success answers, by status; a nil Type is an
	// answer without a body.
	Responses []ResponseDoc
}

// ResponseDoc is one documented answer of a route.
type ResponseDoc struct {
	Status int
	Type   reflect.Type // the body's type; nil: no body
	// ContentType is the body's media type: "" for JSON; another media
	// type (text/plain, text/html) is documented as a string.
	ContentType string
}

// RouteOption documents a route; see Route.Describe and Get.
type RouteOption func(*RouteDoc)

// Summary sets the one-line summary of the route.
func Summary(s string) RouteOption { return func(d *RouteDoc) { d.Summary = s } }

// Description sets the longer description of the route (CommonMark).
func Description(s string) RouteOption { return func(d *RouteDoc) { d.Description = s } }

// OperationID sets the operation's unique identifier (default: the method
// and path, as "get-items-id").
func OperationID(id string) RouteOption { return func(d *RouteDoc) { d.OperationID = id } }

// Tags adds tags that group the route with others.
func Tags(tags ...string) RouteOption {
	return func(d *RouteDoc) { d.Tags = append(d.Tags, tags...) }
}

// Deprecated marks the route as deprecated.
func Deprecated() RouteOption { return func(d *RouteDoc) { d.Deprecated = true } }

// Status sets the success status of a typed handler (200-399).
func Status(code int) RouteOption { return func(d *RouteDoc) { d.Status = code } }

// Errors declares error statuses (400-599) the route answers, such as a
// 404 its handler returns; each is documented as Problem Details.
func Errors(codes ...int) RouteOption {
	return func(d *RouteDoc) { d.Errors = append(d.Errors, codes...) }
}

// RequestBody declares the JSON request body of a plain route by a value
// of its type, such as Item{}.
func RequestBody(v any) RouteOption {
	return func(d *RouteDoc) { d.Body = reflect.TypeOf(v) }
}

// Returns declares a success answer of a plain route: its status and a
// value of its JSON body's type, a string for a text/plain body, or nil for
// an answer without a body.
func Returns(code int, v any) RouteOption {
	return func(d *RouteDoc) {
		r := ResponseDoc{Status: code, Type: reflect.TypeOf(v)}
		if _, ok := v.(string); ok {
			r.ContentType = "text/plain"
		}
		d.Responses = slices.DeleteFunc(d.Responses, func(r ResponseDoc) bool { return r.Status == code })
		d.Responses = append(d.Responses, r)
	}
}

// Describe applies opts to the route's documentation and returns the
// route. A status out of range is a registration error.
func (rt *Route) Describe(opts ...RouteOption) *Route {
	if rt.router == nil { // refused: its error is recorded already
		return rt
	}
	if err := applyRouteOptions(&rt.doc, opts); err != nil {
		rt.router.app.recordError(rt.Method, rt.Pattern, err)
	}
	return rt
}

// Doc returns the route's documentation.
func (rt *Route) Doc() RouteDoc {
	d := rt.doc
	d.Tags = slices.Clone(d.Tags)
	d.Errors = slices.Clone(d.Errors)
	d.Responses = slices.Clone(d.Responses)
	return d
}

// applyRouteOptions applies opts to d and checks the statuses.
func applyRouteOptions(d *RouteDoc, opts []RouteOption) error {
	for _, o := range opts {
		if o == nil {
			return fmt.Errorf("nil RouteOption")
		}
		o(d)
	}
	if d.Status != 0 && (d.Status < 200 || d.Status > 399) {
		return fmt.Errorf("Status(%d): not a success status (200-399)", d.Status)
	}
	for _, c := range d.Errors {
		if c < 400 || c > 599 {
			return fmt.Errorf("Errors(%d): not an error status (400-599)", c)
		}
	}
	for _, r := range d.Responses {
		if r.Status < 100 || r.Status > 599 {
			return fmt.Errorf("Returns(%d): not a status", r.Status)
		}
	}
	return nil
}
