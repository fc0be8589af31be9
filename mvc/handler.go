// Handlers: the per-request side of a controller method.
//
// Four shapes, chosen at registration:
//
//	singleton, common signature   one direct call of the method (fast.go)
//	singleton, any signature      reflect.Value.Call on the bound method
//	per request, common           new controller, then a direct call
//	per request, any signature    new controller, then reflect.Value.Call
//
// Around the call: BeginRequest (when it stops the chain, the method and
// EndRequest are skipped), binding of the parameters (a binding error such
// as a bad body stops the chain with that error and skips the method), the
// result writer, and EndRequest.

package mvc

import (
	"reflect"

	"github.com/vireo-go/vireo/core"
)

// handler returns the core handler of method m (ft is its type without the
// receiver, ins its classified parameters, write its results writer).
func (c *controller) handler(m reflect.Method, ft reflect.Type, ins []*input, write resultsWriter) core.Handler {
	direct := c.direct(m, ft, ins)
	index := m.Index
	begin, end := c.begin, c.end

	if c.singleton {
		recv := c.value
		hooks := recv.Interface() // the *C the direct caller and the hooks assert
		var call func(ctx core.Context)
		if direct != nil {
			call = func(ctx core.Context) { direct(ctx, hooks) }
		} else {
			mv := recv.Method(index)
			call = func(ctx core.Context) { callReflect(ctx, mv, ins, write) }
		}
		if !begin && !end {
			return call
		}
		return func(ctx core.Context) {
			if begin {
				hooks.(beginRequester).BeginRequest(ctx)
				if ctx.IsStopped() {
					return
				}
			}
			call(ctx)
			if end {
				hooks.(endRequester).EndRequest(ctx)
			}
		}
	}

	return func(ctx core.Context) {
		recv, err := c.newInstance(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		p := recv.Interface()
		if begin {
			p.(beginRequester).BeginRequest(ctx)
			if ctx.IsStopped() {
				return
			}
		}
		if direct != nil {
			direct(ctx, p)
		} else {
			callReflect(ctx, recv.Method(index), ins, write)
		}
		if end {
			p.(endRequester).EndRequest(ctx)
		}
	}
}

// newInstance returns a new controller for a request: a copy of the
// registered value with the per-request fields set.
func (c *controller) newInstance(ctx core.Context) (reflect.Value, error) {
	v := reflect.New(c.typ)
	e := v.Elem()
	if c.copyValue {
		e.Set(c.value.Elem())
	}
	for _, f := range c.fields {
		var fv reflect.Value
		if len(f.index) == 1 {
			fv = e.Field(f.index[0])
		} else {
			fv = e.FieldByIndex(f.index)
		}
		if err := f.set(ctx, fv); err != nil {
			return reflect.Value{}, err
		}
	}
	return v, nil
}

// callReflect binds the arguments, calls mv and writes its results.
func callReflect(ctx core.Context, mv reflect.Value, ins []*input, write resultsWriter) {
	var buf [4]reflect.Value
	args := buf[:0]
	for _, in := range ins {
		v, err := in.get(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		args = append(args, v)
	}
	write(ctx, mv.Call(args))
}
