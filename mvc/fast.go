// Specialised calls for common method signatures.
//
// reflect.Value.Call allocates its argument and result slices and boxes
// every non-pointer result, which is most of the cost of a controller
// method. For the shapes most handlers have - no parameter or one path
// parameter or *core.Context, and no result or one string, []byte, int or
// error - the method value is instead obtained as an interface holding a
// func of a concrete type (func(int) string, ...) and called directly after
// a type assertion, which costs nothing.
//
// The generic helpers below are instantiated for each supported pair of
// parameter and result types; each checks that the method's type is
// exactly that func type (a named parameter type such as `type ID int` is
// not, and takes the reflective path).

package mvc

import (
	"reflect"
	"strconv"

	"github.com/vireo-go/vireo/core"
)

// caller calls fn, a method value of the type the caller was built for,
// and writes its results.
type caller func(ctx *core.Context, fn any)

// getter produces a typed argument for a request.
type getter[A any] func(ctx *core.Context) (A, error)

// fastCaller returns a specialised caller for a method of type ft with the
// classified parameters ins, or nil when the shape is not one of them.
func fastCaller(ft reflect.Type, ins []*input) caller {
	res := plainResultKind(ft)
	if res == resOther {
		return nil
	}
	switch len(ins) {
	case 0:
		return fast0(ft, res)
	case 1:
		in := ins[0]
		switch {
		case in.kind == inContext:
			return fast1(ft, res, func(ctx *core.Context) (*core.Context, error) { return ctx, nil })
		case in.kind != inPath:
			return nil
		}
		i := in.param
		switch in.typ {
		case reflect.TypeOf(0):
			return fast1(ft, res, func(ctx *core.Context) (int, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.Atoi(s)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(int64(0)):
			return fast1(ft, res, func(ctx *core.Context) (int64, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseInt(s, 10, 64)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(uint(0)):
			return fast1(ft, res, func(ctx *core.Context) (uint, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseUint(s, 10, strconv.IntSize)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return uint(n), nil
			})
		case reflect.TypeOf(uint64(0)):
			return fast1(ft, res, func(ctx *core.Context) (uint64, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseUint(s, 10, 64)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(""):
			return fast1(ft, res, func(ctx *core.Context) (string, error) {
				s, ok := pathValue(ctx, i)
				if !ok {
					return "", errNotFound
				}
				return s, nil
			})
		case reflect.TypeOf(false):
			return fast1(ft, res, func(ctx *core.Context) (bool, error) {
				s, ok := pathValue(ctx, i)
				b, err := strconv.ParseBool(s)
				if !ok || err != nil {
					return false, errNotFound
				}
				return b, nil
			})
		}
	}
	return nil
}

// pathValue returns route parameter i.
func pathValue(ctx *core.Context, i int) (string, bool) {
	ps := ctx.Params()
	if i >= len(ps) {
		return "", false
	}
	return ps[i].Value, true
}

func fast0(ft reflect.Type, res resultKind) caller {
	switch res {
	case resNone:
		if ft == reflect.TypeOf(func() {}) {
			return func(_ *core.Context, fn any) { fn.(func())() }
		}
	case resString:
		return call0(ft, writeText)
	case resBytes:
		return call0(ft, writeBytes)
	case resStatus:
		return call0(ft, func(ctx *core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call0(ft, writeError)
	}
	return nil
}

func call0[R any](ft reflect.Type, put func(*core.Context, R)) caller {
	if ft != reflect.TypeOf((func() R)(nil)) {
		return nil
	}
	return func(ctx *core.Context, fn any) { put(ctx, fn.(func() R)()) }
}

func fast1[A any](ft reflect.Type, res resultKind, get getter[A]) caller {
	switch res {
	case resNone:
		if ft != reflect.TypeOf((func(A))(nil)) {
			return nil
		}
		return func(ctx *core.Context, fn any) {
			a, err := get(ctx)
			if err != nil {
				ctx.StopWithError(err)
				return
			}
			fn.(func(A))(a)
		}
	case resString:
		return call1(ft, get, writeText)
	case resBytes:
		return call1(ft, get, writeBytes)
	case resStatus:
		return call1(ft, get, func(ctx *core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call1(ft, get, writeError)
	}
	return nil
}

func call1[A, R any](ft reflect.Type, get getter[A], put func(*core.Context, R)) caller {
	if ft != reflect.TypeOf((func(A) R)(nil)) {
		return nil
	}
	return func(ctx *core.Context, fn any) {
		a, err := get(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		put(ctx, fn.(func(A) R)(a))
	}
}
