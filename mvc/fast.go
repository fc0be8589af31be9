// Direct calls for common method signatures, without reflect and without
// unsafe.
//
// reflect.Value.Call allocates its argument and result slices and boxes
// every non-pointer result, and a method value made by reflect
// (Value.Method(i).Interface()) calls through reflect's generic trampoline:
// measured, about 2,400 instructions and one allocation per call, more
// than the whole routing core.
//
// Register is generic in the controller type C, so the method expression of
// a method of *C, m.Func.Interface(), can be asserted to its exact func type,
// func(*C, A) R, with the parameter type A and the result type R taken from
// the supported shapes below. The assertion is an ordinary Go type
// assertion: it succeeds only when the method has exactly that type (a named
// parameter type such as `type ID int` does not, and takes the reflective
// path), and the call through the asserted func value is an ordinary
// compiled call. The supported shapes: no parameter, or one path parameter
// (int, int64, uint, uint64, string, bool) or core.Context; no result, or one string, []byte, int, error, View or
// Response.

package mvc

import (
	"reflect"

	"github.com/vireo-go/vireo/core"
)

// caller calls the method it was built for on recv (a *C holding the
// controller) and writes its results.
type caller func(ctx core.Context, recv any)

// getter produces a typed argument for a request.
type getter[A any] func(ctx core.Context) (A, error)

// directCaller returns a direct caller of method m of *C (ft is its type
// without the receiver, ins its classified parameters), or nil when the
// shape is not a supported one.
func directCaller[C any](m reflect.Method, ft reflect.Type, ins []*input) caller {
	res := plainResultKind(ft)
	if res == resOther {
		return nil
	}
	switch len(ins) {
	case 0:
		return direct0[C](m, res)
	case 1:
		in := ins[0]
		switch in.kind {
		case inContext:
			return direct1[C](m, res, func(ctx core.Context) (core.Context, error) { return ctx, nil })
		case inPath:
			switch in.typ {
			case reflect.TypeFor[int]():
				return direct1[C](m, res, typedPath[int](in))
			case reflect.TypeFor[int64]():
				return direct1[C](m, res, typedPath[int64](in))
			case reflect.TypeFor[uint]():
				return direct1[C](m, res, typedPath[uint](in))
			case reflect.TypeFor[uint64]():
				return direct1[C](m, res, typedPath[uint64](in))
			case reflect.TypeFor[string]():
				return direct1[C](m, res, typedPath[string](in))
			case reflect.TypeFor[bool]():
				return direct1[C](m, res, typedPath[bool](in))
			}
		}
	}
	return nil
}

// direct0 handles methods without parameters.
func direct0[C any](m reflect.Method, res resultKind) caller {
	switch res {
	case resNone:
		fn, ok := m.Func.Interface().(func(*C))
		if !ok {
			return nil
		}
		return func(_ core.Context, recv any) { fn(recv.(*C)) }
	case resString:
		return call0[C](m, writeText)
	case resBytes:
		return call0[C](m, writeBytes)
	case resStatus:
		return call0[C](m, func(ctx core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call0[C](m, writeError)
	case resView:
		return call0[C](m, writeView)
	case resResponse:
		return call0[C](m, writeResponse)
	}
	return nil
}

func call0[C, R any](m reflect.Method, put func(core.Context, R)) caller {
	fn, ok := m.Func.Interface().(func(*C) R)
	if !ok {
		return nil
	}
	return func(ctx core.Context, recv any) { put(ctx, fn(recv.(*C))) }
}

// direct1 handles methods with one parameter, produced by get.
func direct1[C, A any](m reflect.Method, res resultKind, get getter[A]) caller {
	switch res {
	case resNone:
		fn, ok := m.Func.Interface().(func(*C, A))
		if !ok {
			return nil
		}
		return func(ctx core.Context, recv any) {
			a, err := get(ctx)
			if err != nil {
				ctx.StopWithError(err)
				return
			}
			fn(recv.(*C), a)
		}
	case resString:
		return call1[C](m, get, writeText)
	case resBytes:
		return call1[C](m, get, writeBytes)
	case resStatus:
		return call1[C](m, get, func(ctx core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call1[C](m, get, writeError)
	case resView:
		return call1[C](m, get, writeView)
	case resResponse:
		return call1[C](m, get, writeResponse)
	}
	return nil
}

func call1[C, A, R any](m reflect.Method, get getter[A], put func(core.Context, R)) caller {
	fn, ok := m.Func.Interface().(func(*C, A) R)
	if !ok {
		return nil
	}
	return func(ctx core.Context, recv any) {
		a, err := get(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		put(ctx, fn(recv.(*C), a))
	}
}
