// Specialised calls for common method signatures.
//
// reflect.Value.Call allocates its argument and result slices and boxes
// every non-pointer result, and a method value made by reflect
// (Value.Method(i).Interface()) is no better: calling it goes through
// reflect's generic trampoline, which looks up the call's frame layout and
// allocates on every call. Measured on GET /api/values/5, either costs more
// than the whole routing core.
//
// For the shapes most handlers have - no parameter, or one path parameter,
// *core.Context or *sessions.Session, and no result or one string, []byte,
// int, error, View or Response - the
// method is instead called directly. Its method expression, a func(*T, A) R
// for the controller type T, is stored at registration in a variable of type
// func(unsafe.Pointer, A) R (methodFunc), and called with the controller's
// address. Both func types are one pointer to the same function, and *T and
// unsafe.Pointer are passed identically, so the call is the ordinary
// compiled call, with no allocation.
//
// The generic helpers below are instantiated for each supported pair of
// parameter and result types; each first checks that the method's type is
// exactly that func type (a named parameter type such as `type ID int` is
// not, and takes the reflective path).

package mvc

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/vireo-go/vireo/core"
)

// caller calls the method it was built for on the controller at recv
// (a pointer to the controller struct) and writes its results.
type caller func(ctx *core.Context, recv unsafe.Pointer)

// methodFunc returns the method expression of m (a method of a pointer
// type, so a func(*T, ...)) as a value of F, the same signature with
// unsafe.Pointer for *T. The caller guarantees the rest of the signature
// matches; see the file comment.
func methodFunc[F any](m reflect.Method) F {
	var f F
	ft := m.Func.Type()
	if ft.NumIn() == 0 || ft.In(0).Kind() != reflect.Pointer {
		panic("mvc: internal error: methodFunc on a method without a pointer receiver")
	}
	reflect.NewAt(ft, unsafe.Pointer(&f)).Elem().Set(m.Func)
	return f
}

// getter produces a typed argument for a request.
type getter[A any] func(ctx *core.Context) (A, error)

// fastCaller returns a specialised caller for method m, of type ft without
// its receiver, with the classified parameters ins, or nil when the shape is
// not one of them.
func fastCaller(m reflect.Method, ft reflect.Type, ins []*input) caller {
	res := plainResultKind(ft)
	if res == resOther {
		return nil
	}
	switch len(ins) {
	case 0:
		return fast0(m, ft, res)
	case 1:
		in := ins[0]
		switch {
		case in.kind == inContext:
			return fast1(m, ft, res, func(ctx *core.Context) (*core.Context, error) { return ctx, nil })
		case in.kind == inSession:
			return fast1(m, ft, res, in.session)
		case in.kind != inPath:
			return nil
		}
		i := in.param
		switch in.typ {
		case reflect.TypeOf(0):
			return fast1(m, ft, res, func(ctx *core.Context) (int, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.Atoi(s)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(int64(0)):
			return fast1(m, ft, res, func(ctx *core.Context) (int64, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseInt(s, 10, 64)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(uint(0)):
			return fast1(m, ft, res, func(ctx *core.Context) (uint, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseUint(s, 10, strconv.IntSize)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return uint(n), nil
			})
		case reflect.TypeOf(uint64(0)):
			return fast1(m, ft, res, func(ctx *core.Context) (uint64, error) {
				s, ok := pathValue(ctx, i)
				n, err := strconv.ParseUint(s, 10, 64)
				if !ok || err != nil {
					return 0, errNotFound
				}
				return n, nil
			})
		case reflect.TypeOf(""):
			return fast1(m, ft, res, func(ctx *core.Context) (string, error) {
				s, ok := pathValue(ctx, i)
				if !ok {
					return "", errNotFound
				}
				return s, nil
			})
		case reflect.TypeOf(false):
			return fast1(m, ft, res, func(ctx *core.Context) (bool, error) {
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

func fast0(m reflect.Method, ft reflect.Type, res resultKind) caller {
	switch res {
	case resNone:
		if ft == reflect.TypeOf(func() {}) {
			fn := methodFunc[func(unsafe.Pointer)](m)
			return func(_ *core.Context, recv unsafe.Pointer) { fn(recv) }
		}
	case resString:
		return call0(m, ft, writeText)
	case resBytes:
		return call0(m, ft, writeBytes)
	case resStatus:
		return call0(m, ft, func(ctx *core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call0(m, ft, writeError)
	case resView:
		return call0(m, ft, writeView)
	case resResponse:
		return call0(m, ft, writeResponse)
	}
	return nil
}

func call0[R any](m reflect.Method, ft reflect.Type, put func(*core.Context, R)) caller {
	if ft != reflect.TypeOf((func() R)(nil)) {
		return nil
	}
	fn := methodFunc[func(unsafe.Pointer) R](m)
	return func(ctx *core.Context, recv unsafe.Pointer) { put(ctx, fn(recv)) }
}

func fast1[A any](m reflect.Method, ft reflect.Type, res resultKind, get getter[A]) caller {
	switch res {
	case resNone:
		if ft != reflect.TypeOf((func(A))(nil)) {
			return nil
		}
		fn := methodFunc[func(unsafe.Pointer, A)](m)
		return func(ctx *core.Context, recv unsafe.Pointer) {
			a, err := get(ctx)
			if err != nil {
				ctx.StopWithError(err)
				return
			}
			fn(recv, a)
		}
	case resString:
		return call1(m, ft, get, writeText)
	case resBytes:
		return call1(m, ft, get, writeBytes)
	case resStatus:
		return call1(m, ft, get, func(ctx *core.Context, code int) { writeStatus(ctx, code) })
	case resError:
		return call1(m, ft, get, writeError)
	case resView:
		return call1(m, ft, get, writeView)
	case resResponse:
		return call1(m, ft, get, writeResponse)
	}
	return nil
}

func call1[A, R any](m reflect.Method, ft reflect.Type, get getter[A], put func(*core.Context, R)) caller {
	if ft != reflect.TypeOf((func(A) R)(nil)) {
		return nil
	}
	fn := methodFunc[func(unsafe.Pointer, A) R](m)
	return func(ctx *core.Context, recv unsafe.Pointer) {
		a, err := get(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		put(ctx, fn(recv, a))
	}
}
