// Inputs: how a method parameter or a controller field gets its value.
//
// Every input is classified once, at registration, into an input whose get
// closure produces the value for a request. The kinds, in the order they
// are tried:
//
//	*core.Context, *http.Request, http.ResponseWriter, context.Context
//	*sessions.Session                         (session.go)
//	registered dependencies                   (dependencies.go)
//	path parameters (method parameters only)  bool, string, ints, uints, floats
//	request bodies (method parameters only)   a struct or *struct on POST, PUT, PATCH, Any
//
// Path parameters are bound by position from the end of the route: the
// method's last path parameter takes the route's last parameter, the one
// before it the one before, and so on. A method's By parameters therefore
// bind to its own segments, and extra leading parameters reach the
// parameters of the party's prefix. A value that does not parse as the
// parameter's Go type (possible only with an untyped {name} segment, or an
// int8 receiving 300) answers 404: the path names nothing.

package mvc

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

var (
	typeContext        = reflect.TypeOf((*core.Context)(nil))
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
	inSession
	inDependency
	inPath
	inBody
)

// input is a classified method parameter or controller field.
type input struct {
	kind  inputKind
	typ   reflect.Type
	param int         // inPath: index in the route's parameters, set when the route is known
	dep   *dependency // inDependency
	// session is the typed getter of inSession, for fast.go.
	session func(ctx *core.Context) (*sessions.Session, error)
	get     func(ctx *core.Context) (reflect.Value, error)
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
		in.get = func(ctx *core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx), nil }
	case typeRequest:
		in.kind = inRequest
		in.get = func(ctx *core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.Request()), nil }
	case typeResponseWriter:
		in.kind = inResponseWriter
		// The concrete writer's Value is assignable to the interface, which
		// Call and Set accept, and avoids boxing the interface per request.
		in.get = func(ctx *core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.ResponseWriter()), nil }
	case typeStdContext:
		in.kind = inStdContext
		in.get = func(ctx *core.Context) (reflect.Value, error) { return reflect.ValueOf(ctx.Request().Context()), nil }
	default:
		if get, ok := sessionInput(t, deps); ok {
			in.kind = inSession
			in.session = get
			in.get = func(ctx *core.Context) (reflect.Value, error) {
				s, err := get(ctx)
				return reflect.ValueOf(s), err
			}
			return in, true
		}
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

// pathParamType returns the core pattern type for a path parameter of Go
// type t ("" for a plain {name} segment); ok is false for types that cannot
// come from a path.
func pathParamType(t reflect.Type) (typ string, ok bool) {
	switch t.Kind() {
	case reflect.String:
		return "", true
	case reflect.Bool:
		return "bool", true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
		return "int", true
	case reflect.Int64:
		return "int64", true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return "uint", true
	case reflect.Uint64:
		return "uint64", true
	case reflect.Float32, reflect.Float64:
		return "", true
	}
	return "", false
}

// bindPath sets in.get to parse route parameter i as in.typ.
func (in *input) bindPath(i int) {
	in.param = i
	t := in.typ
	raw := func(ctx *core.Context) (string, bool) {
		ps := ctx.Params()
		if i >= len(ps) {
			return "", false
		}
		return ps[i].Value, true
	}
	in.get = func(ctx *core.Context) (reflect.Value, error) {
		s, ok := raw(ctx)
		if !ok {
			return reflect.Value{}, errNotFound
		}
		v := reflect.New(t).Elem()
		var err error
		switch t.Kind() {
		case reflect.String:
			v.SetString(s)
		case reflect.Bool:
			var b bool
			b, err = strconv.ParseBool(s)
			v.SetBool(b)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			var n int64
			n, err = strconv.ParseInt(s, 10, t.Bits())
			v.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			var n uint64
			n, err = strconv.ParseUint(s, 10, t.Bits())
			v.SetUint(n)
		case reflect.Float32, reflect.Float64:
			var f float64
			f, err = strconv.ParseFloat(s, t.Bits())
			v.SetFloat(f)
		}
		if err != nil {
			return reflect.Value{}, errNotFound
		}
		return v, nil
	}
}

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

// bodyInput returns the input reading the request body into a new value of
// t (a struct or *struct): JSON for application/json, +json types and
// requests without a Content-Type, the form reader for urlencoded and
// multipart forms, 415 for anything else. Decoding errors are the core's
// 400 and 413 HTTPErrors. For routes registered for every method (Any), a
// request whose method carries no body gets the zero value.
func bodyInput(t reflect.Type, anyMethod bool) *input {
	elem, ptr := t, false
	if t.Kind() == reflect.Pointer {
		elem, ptr = t.Elem(), true
	}
	return &input{kind: inBody, typ: t, get: func(ctx *core.Context) (reflect.Value, error) {
		v := reflect.New(elem)
		if !anyMethod || bodyMethod(ctx.Method()) {
			if err := readBody(ctx, v.Interface()); err != nil {
				return reflect.Value{}, err
			}
		}
		if ptr {
			return v, nil
		}
		return v.Elem(), nil
	}}
}

// readBody decodes the request body into dst by its Content-Type.
func readBody(ctx *core.Context, dst any) error {
	ct := ctx.RequestHeader("Content-Type")
	if ct == "" {
		return ctx.ReadJSON(dst)
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return core.NewHTTPError(http.StatusBadRequest, fmt.Sprintf("malformed Content-Type %q", ct))
	}
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return ctx.ReadJSON(dst)
	case mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data":
		return ctx.ReadForm(dst)
	}
	return core.NewHTTPError(http.StatusUnsupportedMediaType,
		fmt.Sprintf("unsupported Content-Type %q: send JSON or a form", mt))
}
