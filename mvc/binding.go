// Inputs: how a method parameter or a controller field gets its value.
//
// Every input is classified once, at registration, into an input whose get
// closure produces the value for a request. The kinds, in the order they
// are tried:
//
//	core.Context, *http.Request, http.ResponseWriter, context.Context
//	registered dependencies                   (dependencies.go; a
//	                                          *sessions.Session is one)
//	path parameters (method parameters only)  bool, string, ints, uints, floats
//	request bodies (method parameters only)   a struct or *struct on POST, PUT, PATCH, Any
//
// Path parameters are bound by position from the end of the route and
// parsed in one place (params.go).

package mvc

import (
	"context"
	"net/http"
	"reflect"

	"github.com/vireo-go/vireo/core"
)

var (
	typeContext        = reflect.TypeOf(core.Context{})
	typeRequest        = reflect.TypeOf((*http.Request)(nil))
	typeResponseWriter = reflect.TypeOf((*http.ResponseWriter)(nil)).Elem()
	typeStdContext     = reflect.TypeOf((*context.Context)(nil)).Elem()
	typeError          = reflect.TypeOf((*error)(nil)).Elem()
)

// errNotFound is returned by path binders for values that do not parse.
// It is shared and never modified.
var errNotFound = &core.HTTPError{Code: http.StatusNotFound}

// inputKind is the source of an input's value.
type inputKind uint8

const (
	inContext inputKind = iota
	inRequest
	inResponseWriter
	inStdContext
	inDependency
	inPath
	inBody
)

// input is a classified method parameter or controller field.
type input struct {
	kind   inputKind
	typ    reflect.Type
	back   int          // inPath: position from the end of the route's parameters (1 is the last)
	index  int          // inPath: the route parameter's index, fixed by placePath once the route exists
	dep    *dependency  // inDependency
	binder *core.Binder // inBody, planned once the route exists
	get    func(ctx core.Context) (reflect.Value, error)
}

// static reports whether the input has the same value for every request.
func (in *input) static() bool { return in.kind == inDependency && in.dep.static() }

// requestInput classifies the request-scoped built-in types and registered
// dependencies; ok is false when t is none of them.
func requestInput(t reflect.Type, deps *Dependencies) (in *input, ok bool) {
	in = &input{typ: t}
	switch t {
	case typeContext:
		in.kind = inContext
		in.get = func(ctx core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx), nil }
	case typeRequest:
		in.kind = inRequest
		in.get = func(ctx core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.Request()), nil }
	case typeResponseWriter:
		in.kind = inResponseWriter
		// The concrete writer's Value is assignable to the interface, which
		// Call and Set accept, and avoids boxing the interface per request.
		in.get = func(ctx core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.ResponseWriter()), nil }
	case typeStdContext:
		in.kind = inStdContext
		in.get = func(ctx core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.Request().Context()), nil }
	default:
		dep := deps.lookup(t)
		if dep == nil {
			return nil, false
		}
		in.kind = inDependency
		in.dep = dep
		in.get = dep.get
	}
	return in, true
}

// fieldSetter returns how a controller field bound to in is set for a
// request: the getter's value, except for a Context, which goes in through
// a pointer to the field (boxed in a reflect.Value, its two words would be
// copied to the heap per request).
func (in *input) fieldSetter() func(ctx core.Context, fv reflect.Value) error {
	if in.kind == inContext {
		return func(ctx core.Context, fv reflect.Value) error {
			*fv.Addr().Interface().(*core.Context) = ctx
			return nil
		}
	}
	get := in.get
	return func(ctx core.Context, fv reflect.Value) error {
		x, err := get(ctx)
		if err != nil {
			return err
		}
		fv.Set(x)
		return nil
	}
}

// bindPath makes in read the route parameter back places from the end of
// the route (see params.go).
func (in *input) bindPath(back int) {
	in.back = back
	in.get = reflectPath(in.typ, in)
}

// placePath fixes the index of the parameter in reads on a route of n
// parameters, so that a request reads it with one Context call.
func (in *input) placePath(n int) { in.index = n - in.back }

// bodyMethod reports whether request bodies of method bind to struct
// parameters.
func bodyMethod(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return true
	}
	return false
}

// isBodyType reports whether t can receive a request body: a struct or a
// pointer to one.
func isBodyType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct
}

// bodyInput returns the input binding a new value of t (a struct or
// *struct) from the request as core's typed handlers do (core.Binder):
// fields tagged path, query, header or cookie from those, the others from
// the body, JSON for application/json and +json types, a form for
// urlencoded and multipart forms, 415 for anything else; then the
// application's Validator checks it. Decoding errors are the core's 400,
// 413 and 415 HTTPErrors. The binder is planned once the route exists
// (planBody); for routes registered for every method (Any), a request
// whose method carries no body leaves the body fields zero.
func bodyInput(t reflect.Type) *input {
	elem, ptr := t, false
	if t.Kind() == reflect.Pointer {
		elem, ptr = t.Elem(), true
	}
	in := &input{kind: inBody, typ: t}
	in.get = func(ctx core.Context) (reflect.Value, error) {
		v := reflect.New(elem)
		if err := in.binder.Bind(ctx, v.Interface()); err != nil {
			return reflect.Value{}, err
		}
		if ptr {
			return v, nil
		}
		return v.Elem(), nil
	}
	return in
}

// bodyStruct returns the struct type a body input binds.
func (in *input) bodyStruct() reflect.Type {
	if in.typ.Kind() == reflect.Pointer {
		return in.typ.Elem()
	}
	return in.typ
}

// planBody plans the binder of a body input for a route of method with
// params.
func (in *input) planBody(method string, params []core.RouteParam) error {
	b, err := core.NewBinder(in.bodyStruct(), method, params)
	if err != nil {
		return err
	}
	in.binder = b
	return nil
}
