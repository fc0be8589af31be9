// Results: how a method's return values become the response.
//
// The writer for a method is chosen once, at registration, from its result
// types:
//
//	(none)              nothing: the method wrote through the Context, or 200 with no body
//	string (any string kind)  text/plain; charset=utf-8 unless a Content-Type was set
//	[]byte              written as is (net/http sniffs a Content-Type unless one was set)
//	int                 the response status; 0 leaves it alone
//	error (or a type implementing it)  nil: nothing; else ctx.StopWithError(err)
//	View, *View         a rendered template, see View
//	Response, *Response a response described field by field, see Response
//	an interface type   decided per request by the dynamic type, by these same rules
//	anything else       JSON (structs, maps, slices, pointers, numbers, bool)
//
// and the pairs (T, error), (T, int) and (T, bool): a non-nil error stops
// with the error instead of writing T; an int is the status T is written
// with; false answers 404 Not Found instead of writing T.
//
// Errors go through core's StopWithError: the status comes from the error's
// StatusCode method (core.HTTPError has one) or is 500, and the error
// handler for that status writes the body. The text of a 5xx error reaches
// the client only when the application opted in with core.WithErrorDetails;
// otherwise it is logged and the client sees the status text.

package mvc

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/vireo-go/vireo/core"
)

// View is a method result rendered with the application's view engine.
type View struct {
	Name   string // the template to render; required
	Layout string // the layout to render it in; "" keeps the engine's default, view.NoLayout none
	Data   any    // the template's data
	Code   int    // the response status; 0 means 200
}

// Response is a method result that describes the response field by field.
// When Err is set the other fields are ignored and the error is handled as
// an error result. When Path is set the response is a redirect to Path with
// Code if it is a 3xx status, else 302 Found. Otherwise Code (if not 0) is
// the status, ContentType (if not "") the Content-Type, and the body is the
// first of Object (JSON, or XML when ContentType mentions xml), Text and
// Content that is set.
type Response struct {
	Code        int
	ContentType string
	Content     []byte
	Text        string
	Object      any
	Path        string
	Err         error
}

var (
	typeView     = reflect.TypeOf(View{})
	typeResponse = reflect.TypeOf(Response{})
	typeBytes    = reflect.TypeOf([]byte(nil))
	typeInt      = reflect.TypeOf(0)
	typeBool     = reflect.TypeOf(false)
)

// resultKind classifies a single result type; fast.go uses it to pick a
// specialised call.
type resultKind uint8

const (
	resNone resultKind = iota
	resString
	resBytes
	resStatus
	resError
	resView
	resResponse
	resOther
)

// valueWriter writes one result value.
type valueWriter func(ctx core.Context, v reflect.Value)

// resultsWriter writes all the results of a call.
type resultsWriter func(ctx core.Context, out []reflect.Value)

// plainResultKind returns the kind of a method with the result types of
// ft when it is one of the kinds with a typed writer, else resOther.
func plainResultKind(ft reflect.Type) resultKind {
	if ft.NumOut() == 0 {
		return resNone
	}
	if ft.NumOut() != 1 {
		return resOther
	}
	switch ft.Out(0) {
	case reflect.TypeOf(""):
		return resString
	case typeBytes:
		return resBytes
	case typeInt:
		return resStatus
	case typeError:
		return resError
	case typeView:
		return resView
	case typeResponse:
		return resResponse
	}
	return resOther
}

// resultsWriterFor returns the writer for the results of ft, or an error
// when they cannot be written.
func resultsWriterFor(ft reflect.Type) (resultsWriter, error) {
	switch ft.NumOut() {
	case 0:
		return func(core.Context, []reflect.Value) {}, nil
	case 1:
		w, err := valueWriterFor(ft.Out(0))
		if err != nil {
			return nil, err
		}
		return func(ctx core.Context, out []reflect.Value) { w(ctx, out[0]) }, nil
	case 2:
		first, second := ft.Out(0), ft.Out(1)
		w, err := valueWriterFor(first)
		if err != nil {
			return nil, err
		}
		switch {
		case second.Implements(typeError):
			return func(ctx core.Context, out []reflect.Value) {
				if e := out[1]; !isNil(e) {
					ctx.StopWithError(e.Interface().(error))
					return
				}
				w(ctx, out[0])
			}, nil
		case second == typeInt:
			return func(ctx core.Context, out []reflect.Value) {
				if !writeStatus(ctx, int(out[1].Int())) {
					return
				}
				w(ctx, out[0])
			}, nil
		case second == typeBool:
			return func(ctx core.Context, out []reflect.Value) {
				if !out[1].Bool() {
					ctx.StopWithStatus(http.StatusNotFound)
					return
				}
				w(ctx, out[0])
			}, nil
		}
		return nil, fmt.Errorf("results (%s, %s): the second result must be error, int or bool", first, second)
	}
	return nil, fmt.Errorf("%d results: at most two are supported", ft.NumOut())
}

// valueWriterFor returns the writer of a single result of type t.
func valueWriterFor(t reflect.Type) (valueWriter, error) {
	switch {
	case t.Kind() == reflect.String:
		return func(ctx core.Context, v reflect.Value) { writeText(ctx, v.String()) }, nil
	case t == typeBytes:
		return func(ctx core.Context, v reflect.Value) { writeBytes(ctx, v.Bytes()) }, nil
	case t == typeInt:
		return func(ctx core.Context, v reflect.Value) { writeStatus(ctx, int(v.Int())) }, nil
	case t.Implements(typeError):
		return func(ctx core.Context, v reflect.Value) {
			if !isNil(v) {
				ctx.StopWithError(v.Interface().(error))
			}
		}, nil
	case t == typeView:
		return func(ctx core.Context, v reflect.Value) { writeView(ctx, v.Interface().(View)) }, nil
	case t == reflect.PointerTo(typeView):
		return func(ctx core.Context, v reflect.Value) {
			if !v.IsNil() {
				writeView(ctx, *v.Interface().(*View))
			}
		}, nil
	case t == typeResponse:
		return func(ctx core.Context, v reflect.Value) { writeResponse(ctx, v.Interface().(Response)) }, nil
	case t == reflect.PointerTo(typeResponse):
		return func(ctx core.Context, v reflect.Value) {
			if !v.IsNil() {
				writeResponse(ctx, *v.Interface().(*Response))
			}
		}, nil
	case t.Kind() == reflect.Interface:
		return func(ctx core.Context, v reflect.Value) {
			if !v.IsNil() {
				writeAny(ctx, v.Interface())
			}
		}, nil
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return nil, fmt.Errorf("result type %s cannot be written (not JSON-encodable)", t)
	}
	return func(ctx core.Context, v reflect.Value) { ctx.JSON(v.Interface()) }, nil
}

// isNil reports whether v holds a nil of a nillable kind.
func isNil(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// writeAny writes a result whose type is only known at request time.
func writeAny(ctx core.Context, x any) {
	switch x := x.(type) {
	case string:
		writeText(ctx, x)
	case []byte:
		writeBytes(ctx, x)
	case int:
		writeStatus(ctx, x)
	case error:
		ctx.StopWithError(x)
	case View:
		writeView(ctx, x)
	case *View:
		writeView(ctx, *x)
	case Response:
		writeResponse(ctx, x)
	case *Response:
		writeResponse(ctx, *x)
	default:
		rv := reflect.ValueOf(x)
		if rv.Kind() == reflect.String {
			writeText(ctx, rv.String())
			return
		}
		ctx.JSON(x)
	}
}

// writeText writes s as text/plain unless a Content-Type was set: Text,
// one Context call (ResponseHeader then WriteString were two).
func writeText(ctx core.Context, s string) {
	ctx.Text(s)
}

// writeBytes writes b as the body.
func writeBytes(ctx core.Context, b []byte) {
	ctx.Write(b)
}

// writeStatus sets the status; 0 leaves it alone. A code outside 100-999
// is a bug in the method and answers 500. It reports whether the response
// may go on.
func writeStatus(ctx core.Context, code int) bool {
	switch {
	case code == 0:
		return true
	case code < 100 || code > 999:
		ctx.StopWithError(fmt.Errorf("mvc: invalid status code %d returned by %s", code, routeName(ctx)))
		return false
	}
	ctx.SetStatus(code)
	return true
}

// writeError stops with err unless it is nil.
func writeError(ctx core.Context, err error) {
	if err != nil {
		ctx.StopWithError(err)
	}
}

// errNoViewName is the error of a View result without a Name.
var errNoViewName = errors.New("mvc: View result without a Name")

func writeView(ctx core.Context, v View) {
	if v.Name == "" {
		ctx.StopWithError(errNoViewName)
		return
	}
	if !writeStatus(ctx, v.Code) {
		return
	}
	if v.Layout != "" {
		ctx.SetViewLayout(v.Layout)
	}
	ctx.View(v.Name, v.Data)
}

func writeResponse(ctx core.Context, r Response) {
	if r.Err != nil {
		ctx.StopWithError(r.Err)
		return
	}
	if r.Path != "" {
		code := r.Code
		if code < 300 || code > 399 {
			code = http.StatusFound
		}
		ctx.Redirect(r.Path, code)
		return
	}
	if r.ContentType != "" {
		ctx.SetContentType(r.ContentType)
	}
	if !writeStatus(ctx, r.Code) {
		return
	}
	switch {
	case r.Object != nil:
		if strings.Contains(r.ContentType, "xml") {
			ctx.XML(r.Object)
		} else {
			ctx.JSON(r.Object)
		}
	case r.Text != "":
		writeText(ctx, r.Text)
	case r.Content != nil:
		writeBytes(ctx, r.Content)
	}
}

// routeName names the matched route for error messages.
func routeName(ctx core.Context) string {
	if rt := ctx.Route(); rt != nil {
		return rt.String()
	}
	return "a controller method"
}
