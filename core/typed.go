// Typed handlers.
//
// Get, Post, Put, Patch, Delete and HandleTyped register a function that
// takes a Context and an input struct and returns an output and an error.
// At registration the input's binder is planned (bind.go), the success
// status is fixed and the route's documentation is filled from the types;
// a request runs the binder, calls the function and encodes its output as
// JSON with that status, or, for an error, goes through StopWithError and
// the error handlers like any other handler's error. Against a handler
// written by hand with ReadJSON and JSON the difference is the loop over
// the bound fields and one indirect call; allocations are those of the
// hand-written handler (the input, which escapes to encoding/json, and
// the output boxed for JSON) plus the binder's (bind.go).

package core

import (
	"net/http"
	"reflect"
	"unsafe"
)

// Registrar is what routes are registered on: an *Application or a
// *Router.
type Registrar interface {
	Handle(method, pattern string, handlers ...Handler) *Route
}

// NoContent is the output of a typed handler that answers 204 No Content.
type NoContent struct{}

var typeNoContent = reflect.TypeFor[NoContent]()

// Get registers a typed GET handler; see HandleTyped.
func Get[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return HandleTyped(r, http.MethodGet, pattern, fn, opts...)
}

// Post registers a typed POST handler; see HandleTyped. It answers 201
// unless Status says otherwise.
func Post[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return HandleTyped(r, http.MethodPost, pattern, fn, opts...)
}

// Put registers a typed PUT handler; see HandleTyped.
func Put[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return HandleTyped(r, http.MethodPut, pattern, fn, opts...)
}

// Patch registers a typed PATCH handler; see HandleTyped.
func Patch[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return HandleTyped(r, http.MethodPatch, pattern, fn, opts...)
}

// Delete registers a typed DELETE handler; see HandleTyped.
func Delete[In, Out any](r Registrar, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	return HandleTyped(r, http.MethodDelete, pattern, fn, opts...)
}

// HandleTyped registers fn for method and pattern. In is a struct whose
// fields tagged `path:"name"`, `query:"name"`, `header:"Name"` or
// `cookie:"name"` are bound from the request (`default:"v"` for an
// absent one; slices take repeated query values and headers; pointers are
// nil when absent) and whose other exported fields are the body, decoded
// as JSON or, for a form Content-Type, as a form; then the application's
// Validator checks In. A bad input answers 400 (a *ValidationError naming
// the fields), a body of another media type 415, one over the limit 413.
//
// fn's output is written as JSON with the route's success status: Status
// if given, else 201 for POST and 200 for the other methods; an Out of
// NoContent answers 204 with no body. An error fn returns is passed to
// StopWithError. Every problem with In, Out or opts is a registration
// error of the returned route.
func HandleTyped[In, Out any](r Registrar, method, pattern string, fn func(Context, In) (Out, error), opts ...RouteOption) *Route {
	if fn == nil {
		return r.Handle(method, pattern, nil) // refused: nil handler
	}
	var doc RouteDoc
	optErr := applyRouteOptions(&doc, opts)
	status := doc.Status
	out := reflect.TypeFor[Out]()
	noBody := out == typeNoContent
	switch {
	case status != 0:
	case noBody:
		status = http.StatusNoContent
	case method == http.MethodPost:
		status = http.StatusCreated
	default:
		status = http.StatusOK
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		noBody = true
	}
	h := &typedHandler[In, Out]{fn: fn, status: status, noBody: noBody}
	rt := r.Handle(method, pattern, h.serve)
	if rt.err != nil {
		return rt
	}
	app := rt.router.app
	if optErr != nil {
		rt.err = app.recordError(method, rt.Pattern, optErr)
		return rt
	}
	b, err := newBinder(reflect.TypeFor[In](), method, rt.params)
	if err != nil {
		rt.err = app.recordError(method, rt.Pattern, err)
		return rt
	}
	h.binder = b
	doc.Status, doc.Input, doc.Body = status, b.typ, nil
	if !hasResponse(doc.Responses, status) {
		var t reflect.Type
		if !noBody {
			t = out
		}
		doc.Responses = append([]ResponseDoc{{Status: status, Type: t}}, doc.Responses...)
	}
	rt.doc = doc
	return rt
}

func hasResponse(rs []ResponseDoc, code int) bool {
	for _, r := range rs {
		if r.Status == code {
			return true
		}
	}
	return false
}

// typedHandler is the Handler of a typed route.
type typedHandler[In, Out any] struct {
	fn     func(Context, In) (Out, error)
	binder *binder
	status int
	noBody bool
}

// serve binds the input, calls fn and writes its answer, reaching the
// state through the gate like every Context method: the binder runs while
// the handle is checked and pinned, fn does not.
func (h *typedHandler[In, Out]) serve(ctx Context) {
	var in In
	var err error
	if !with(ctx, false, func(s *state) bool {
		err = h.binder.bind(s, unsafe.Pointer(&in), &in)
		return true
	}) {
		return
	}
	if err != nil {
		ctx.StopWithError(err)
		return
	}
	out, err := h.fn(ctx, in)
	if err != nil {
		ctx.StopWithError(err)
		return
	}
	run(ctx, func(s *state) {
		if s.written() || s.stopped { // fn wrote its own answer, or stopped with a status
			return
		}
		if h.status != http.StatusOK {
			s.setStatus(h.status)
		}
		if !h.noBody {
			s.writeJSON(out)
		}
	})
}
