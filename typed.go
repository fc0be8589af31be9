// The facade of typed handlers, route documentation and the OpenAPI
// document (core/typed.go, core/routedoc.go, core/openapi.go).

package vireo

import (
	"reflect"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/openapi"
)

type (
	// Registrar is what routes are registered on: an *Application or a
	// *Router.
	Registrar = core.Registrar
	// NoContent is the output of a typed handler that answers 204.
	NoContent = core.NoContent
	// RouteDoc is the documentation of a route (Route.Doc).
	RouteDoc = core.RouteDoc
	// ResponseDoc is one documented answer of a route.
	ResponseDoc = core.ResponseDoc
	// RouteOption documents a route: Summary, Description, Tags, Errors...
	RouteOption = core.RouteOption
	// Binder binds a struct from a request by its tags, as typed handlers
	// do.
	Binder = core.Binder
)

// DefaultOpenAPIPath is where WithOpenAPI serves the document when given
// no path.
const DefaultOpenAPIPath = core.DefaultOpenAPIPath

// Get registers a typed GET handler; see core.HandleTyped.
func Get[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.Get(r, pattern, fn, opts...)
}

// Post registers a typed POST handler (201 by default); see
// core.HandleTyped.
func Post[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.Post(r, pattern, fn, opts...)
}

// Put registers a typed PUT handler; see core.HandleTyped.
func Put[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.Put(r, pattern, fn, opts...)
}

// Patch registers a typed PATCH handler; see core.HandleTyped.
func Patch[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.Patch(r, pattern, fn, opts...)
}

// Delete registers a typed DELETE handler; see core.HandleTyped.
func Delete[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.Delete(r, pattern, fn, opts...)
}

// HandleTyped registers a typed handler for method and pattern: its input
// struct is bound from the path, query, headers, cookies and body by
// struct tags and validated, its output written as JSON; see
// core.HandleTyped.
func HandleTyped[In, Out any](r Registrar, method, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return core.HandleTyped(r, method, pattern, fn, opts...)
}

// NewBinder plans the binding of struct type t for the routes of method
// whose pattern has params; see core.NewBinder.
func NewBinder(t reflect.Type, method string, params []RouteParam) (*Binder, error) {
	return core.NewBinder(t, method, params)
}

// Summary sets the one-line summary of a route.
func Summary(s string) RouteOption { return core.Summary(s) }

// Description sets the longer description of a route (CommonMark).
func Description(s string) RouteOption { return core.Description(s) }

// OperationID sets the operation's unique identifier.
func OperationID(id string) RouteOption { return core.OperationID(id) }

// Tags adds tags that group a route with others.
func Tags(tags ...string) RouteOption { return core.Tags(tags...) }

// Deprecated marks a route as deprecated.
func Deprecated() RouteOption { return core.Deprecated() }

// Status sets the success status of a typed handler.
func Status(code int) RouteOption { return core.Status(code) }

// Errors declares error statuses a route answers, documented as Problem
// Details.
func Errors(codes ...int) RouteOption { return core.Errors(codes...) }

// RequestBody declares the JSON request body of a plain route by a value
// of its type.
func RequestBody(v any) RouteOption { return core.RequestBody(v) }

// Returns declares a success answer of a plain route and a value of its
// body's type (nil: no body; a string: text/plain).
func Returns(code int, v any) RouteOption { return core.Returns(code, v) }

// WithOpenAPI serves the application's OpenAPI 3.1 document, generated at
// Build, at path ("" for DefaultOpenAPIPath).
func WithOpenAPI(path string, info openapi.Info) Option { return core.WithOpenAPI(path, info) }
