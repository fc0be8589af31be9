// Path parameters: which Go types a route parameter binds to, the pattern
// type each one gets, and the one place their values are parsed.
//
// A method's path parameters bind by position counted from the end of the
// route: its last path parameter takes the route's last parameter, the one
// before it the one before, and so on. Binding from the end needs no count
// of the route's parameters, so a binder is complete before the route is
// registered; the count from Route.Params then checks that the method does
// not want more parameters than the route has and turns each position into
// an index, so that a request reads its value with one Context call
// (Params().At), not two (Len, then At).
//
// parsePath turns a raw value into a scalar for every kind a parameter can
// have (bool, string, the ints, the uints, the floats), with the bit size of
// the Go type, so that an int8 given 300 or a float64 given "x" is refused.
// The reflective binder sets a reflect.Value of the parameter's own type
// from it; the typed getters of fast.go convert it to their type. A value
// that does not parse answers 404: the path names nothing.

package mvc

import (
	"reflect"
	"strconv"

	"github.com/vireo-go/vireo/core"
)

// patternType returns the core pattern type of a path parameter of Go type
// t; ok is false for types that cannot come from a path. Strings and floats
// get a plain {name} segment, checked when parsed.
func patternType(t reflect.Type) (typ core.ParamType, ok bool) {
	switch t.Kind() {
	case reflect.String, reflect.Float32, reflect.Float64:
		return core.ParamString, true
	case reflect.Bool:
		return core.ParamBool, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
		return core.ParamInt, true
	case reflect.Int64:
		return core.ParamInt64, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return core.ParamUint, true
	case reflect.Uint64:
		return core.ParamUint64, true
	}
	return "", false
}

// scalar is a parsed path value; the field its kind uses is set.
type scalar struct {
	s string
	b bool
	i int64
	u uint64
	f float64
}

// parsePath parses s as a value of kind k and bit size bits (0 for bool and
// string); ok is false when it does not fit.
func parsePath(s string, k reflect.Kind, bits int) (v scalar, ok bool) {
	var err error
	switch k {
	case reflect.String:
		v.s = s
	case reflect.Bool:
		v.b, err = strconv.ParseBool(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.i, err = strconv.ParseInt(s, 10, bits)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.u, err = strconv.ParseUint(s, 10, bits)
	case reflect.Float32, reflect.Float64:
		v.f, err = strconv.ParseFloat(s, bits)
	default:
		return v, false
	}
	return v, err == nil
}

// pathValue returns the route parameter in is bound to: one Context call,
// at the index placeIn fixed once the route existed.
func pathValue(ctx core.Context, in *input) string {
	return ctx.Params().At(in.index).Value
}

// bitsOf returns the bit size parsePath needs for t.
func bitsOf(t reflect.Type) int {
	switch t.Kind() {
	case reflect.String, reflect.Bool:
		return 0
	}
	return t.Bits()
}

// reflectPath returns the binder of path parameter in, of type t.
func reflectPath(t reflect.Type, in *input) func(ctx core.Context) (reflect.Value, error) {
	k, bits := t.Kind(), bitsOf(t)
	return func(ctx core.Context) (reflect.Value, error) {
		sc, ok := parsePath(pathValue(ctx, in), k, bits)
		if !ok {
			return reflect.Value{}, errNotFound
		}
		v := reflect.New(t).Elem()
		switch k {
		case reflect.String:
			v.SetString(sc.s)
		case reflect.Bool:
			v.SetBool(sc.b)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(sc.i)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(sc.u)
		case reflect.Float32, reflect.Float64:
			v.SetFloat(sc.f)
		}
		return v, nil
	}
}

// directParam is the set of path parameter types the typed getters bind
// without reflect.
type directParam interface {
	int | int64 | uint | uint64 | string | bool
}

// typedPath returns the getter of path parameter in, of type A.
func typedPath[A directParam](in *input) getter[A] {
	t := reflect.TypeFor[A]()
	k, bits := t.Kind(), bitsOf(t)
	return func(ctx core.Context) (A, error) {
		var a A
		sc, ok := parsePath(pathValue(ctx, in), k, bits)
		if !ok {
			return a, errNotFound
		}
		switch p := any(&a).(type) {
		case *int:
			*p = int(sc.i)
		case *int64:
			*p = sc.i
		case *uint:
			*p = uint(sc.u)
		case *uint64:
			*p = sc.u
		case *string:
			*p = sc.s
		case *bool:
			*p = sc.b
		}
		return a, nil
	}
}
