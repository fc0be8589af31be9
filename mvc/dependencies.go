// Dependencies: what an MVC application can inject besides the built-in
// request values.
//
// A dependency is either a static value, injected as it is, or a provider
// func(core.Context) T or func(core.Context) (T, error), called once per
// request and per use. The sessions Manager's Start, a
// func(core.Context) (*sessions.Session, error), is one: it provides the
// request's *sessions.Session without mvc importing sessions, so an
// application that does not provide it does not link them. The parameter
// may also be a non-empty interface that core.Context implements (say
// interface{ Request() *http.Request }), so that a package can offer a
// provider without importing core. Containers form a chain: a child
// application (Group) and each controller (BeforeRegister) get a container
// whose parent is the one they came from, so they see every dependency of
// their parents and can add or shadow their own without affecting them.
//
// Lookup happens at registration only. For a wanted type T it takes, from
// the innermost container outward and the newest registration first, the
// first dependency of exactly type T; when there is none, the first one
// whose type implements T when T is a non-empty interface. So registering a
// *Postgres makes it available as *Postgres and as any interface it
// implements, and a later or more specific registration overrides an
// earlier one.

package mvc

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/vireo-go/vireo/core"
)

// Dependencies is a container of injectable values and providers.
type Dependencies struct {
	parent *Dependencies
	list   []*dependency
	errs   []error // Provide's errors, reported by the controller's registration
}

// dependency is one registered value or provider.
type dependency struct {
	typ     reflect.Type  // the type it provides
	value   reflect.Value // static: the value itself
	provide reflect.Value // dynamic: the provider func, else the zero Value
	withErr bool          // the provider returns (T, error)
}

// static reports whether the dependency is the same value for every request.
func (d *dependency) static() bool { return !d.provide.IsValid() }

// get returns the dependency's value for a request.
func (d *dependency) get(ctx core.Context) (reflect.Value, error) {
	if !d.provide.IsValid() {
		return d.value, nil
	}
	out := d.provide.Call([]reflect.Value{reflect.ValueOf(ctx)})
	if d.withErr && !out[1].IsNil() {
		return reflect.Value{}, out[1].Interface().(error)
	}
	return out[0], nil
}

func (d *dependency) String() string {
	if d.provide.IsValid() {
		return "provider " + d.provide.Type().String()
	}
	return "value of type " + d.typ.String()
}

func newDependencies(parent *Dependencies) *Dependencies {
	return &Dependencies{parent: parent}
}

// Provide adds values and providers to the container. A func with the
// signature func(core.Context) T or func(core.Context) (T, error) is a
// provider of T, called per request (sessions.Manager.Start is one), as is
// one whose parameter is a non-empty interface core.Context implements;
// anything else is a value injected as it is, under its dynamic type.
// Provide returns an error for a nil value and for a provider of nothing;
// the other arguments are registered anyway. On a controller's container
// (BeforeRegister), the errors are also returned by mvc.Register.
func (d *Dependencies) Provide(values ...any) error {
	var errs []error
	for _, v := range values {
		if err := d.add(v); err != nil {
			errs = append(errs, err)
		}
	}
	d.errs = append(d.errs, errs...)
	return errors.Join(errs...)
}

func (d *Dependencies) add(v any) error {
	if v == nil {
		return errors.New("mvc: Provide: nil dependency (register a typed value or a provider func)")
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	if t.Kind() == reflect.Func && t.NumIn() == 1 && takesContext(t.In(0)) && !t.IsVariadic() {
		if rv.IsNil() {
			return fmt.Errorf("mvc: Provide: nil provider %s", t)
		}
		switch {
		case t.NumOut() == 1 && t.Out(0) != typeError:
			d.list = append(d.list, &dependency{typ: t.Out(0), provide: rv})
			return nil
		case t.NumOut() == 2 && t.Out(1) == typeError && t.Out(0) != typeError:
			d.list = append(d.list, &dependency{typ: t.Out(0), provide: rv, withErr: true})
			return nil
		}
		return fmt.Errorf("mvc: Provide: provider %s must return T or (T, error)", t)
	}
	d.list = append(d.list, &dependency{typ: t, value: rv})
	return nil
}

// takesContext reports whether a provider's parameter of type p receives
// the request's core.Context: p is core.Context or a non-empty interface it
// implements.
func takesContext(p reflect.Type) bool {
	return p == typeContext || p.Kind() == reflect.Interface && p.NumMethod() > 0 && typeContext.Implements(p)
}

// Has reports whether a dependency for type t can be found in the container
// or its parents.
func (d *Dependencies) Has(t reflect.Type) bool { return d.lookup(t) != nil }

// lookup finds the dependency for t; see the file comment for the order.
func (d *Dependencies) lookup(t reflect.Type) *dependency {
	for c := d; c != nil; c = c.parent {
		for i := len(c.list) - 1; i >= 0; i-- {
			if c.list[i].typ == t {
				return c.list[i]
			}
		}
	}
	if t.Kind() != reflect.Interface || t.NumMethod() == 0 {
		// An empty interface would match everything: only exact types.
		return nil
	}
	for c := d; c != nil; c = c.parent {
		for i := len(c.list) - 1; i >= 0; i-- {
			if c.list[i].typ.Implements(t) {
				return c.list[i]
			}
		}
	}
	return nil
}
