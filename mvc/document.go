// Route documentation of controller methods.
//
// Each route a controller method gets is described once, at registration,
// from the method's signature, for the application's OpenAPI document: its
// summary names the controller and the method, a
// body parameter becomes the route's Input (its tagged parameters and its
// body, bound as core's typed handlers bind them), the results the success
// answer: a string as text/plain, a View as text/html, another value as
// JSON, an error alone as 200 without a body; (T, bool) adds the 404 its
// false answers. Results whose answer is decided per request (an int
// status, Response, []byte, an interface, (T, int)) and methods without
// results, which write through the Context, declare nothing and get the
// document's "default" answer. BeforeActivation routes can add to it with
// Route.Describe through AfterActivation.

package mvc

import (
	"net/http"
	"reflect"

	"github.com/vireo-go/vireo/core"
)

// describeMethod documents a route of method for the controller method
// name ("BooksController.GetBy", its summary) with inputs ins and type ft.
func describeMethod(name, method string, ins []*input, ft reflect.Type) core.RouteOption {
	return func(d *core.RouteDoc) {
		d.Summary = name
		if bodyMethod(method) {
			for _, in := range ins {
				if in.kind == inBody {
					d.Input = in.bodyStruct()
				}
			}
		}
		if ft.NumOut() == 0 || ft.NumOut() == 2 && ft.Out(1) == typeInt {
			return
		}
		if r, ok := resultDoc(ft.Out(0), ft.NumOut() == 1); ok {
			d.Responses = append(d.Responses, r)
		}
		if ft.NumOut() == 2 && ft.Out(1) == typeBool {
			d.Errors = append(d.Errors, http.StatusNotFound)
		}
	}
}

// resultDoc documents a method's first result t; alone says whether it is
// the only one.
func resultDoc(t reflect.Type, alone bool) (core.ResponseDoc, bool) {
	ok := core.ResponseDoc{Status: http.StatusOK, Type: t}
	switch {
	case t.Implements(typeError):
		if alone {
			return core.ResponseDoc{Status: http.StatusOK}, true
		}
		return ok, false
	case t.Kind() == reflect.String:
		ok.ContentType = "text/plain"
	case t == typeView || t == reflect.PointerTo(typeView):
		ok.Type, ok.ContentType = reflect.TypeOf(""), "text/html"
	case t == typeBytes, t == typeInt, t == typeResponse, t == reflect.PointerTo(typeResponse), t.Kind() == reflect.Interface:
		return ok, false
	}
	return ok, true
}
