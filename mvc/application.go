// The MVC application: a router, a dependency container and the
// controllers registered on them.
//
// Registration errors (a missing dependency, a method that cannot be
// routed, a route conflict) are recorded with the core application through
// the module-internal registry, each as a *core.RegistrationError, so that
// app.Build refuses to start an application with a broken controller; they
// are also returned by Register and kept for Err.

package mvc

import (
	"errors"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/registry"
)

// Group registers controllers on a router with a set of
// dependencies.
type Group struct {
	// Router is the router the controllers' routes are registered on.
	Router *core.Router

	deps *Dependencies
	errs *[]error // shared by an application and its groups
}

// New returns an MVC application registering its controllers on r:
// mvc.New(app.Group("/api/values")) or mvc.New(app.Router).
func New(r *core.Router) *Group {
	m := &Group{Router: r, deps: newDependencies(nil), errs: new([]error)}
	if r == nil {
		*m.errs = append(*m.errs, errors.New("mvc: New: nil router"))
	}
	return m
}

// Provide adds dependencies: values, injected as they are, and providers
// func(core.Context) T or func(core.Context) (T, error), called per
// request. Controllers registered later, and groups created from m, see
// them. Errors are kept for Register and Err.
func (m *Group) Provide(deps ...any) *Group {
	if err := m.deps.Provide(deps...); err != nil {
		m.fail(err)
	}
	return m
}

// Dependencies returns the application's dependency container.
func (m *Group) Dependencies() *Dependencies { return m.deps }

// Group returns a child application on m.Router.Group(prefix, middleware...)
// that sees m's dependencies, including ones registered on m later, and
// whose own registrations stay its own.
func (m *Group) Group(prefix string, middleware ...core.Handler) *Group {
	child := &Group{deps: newDependencies(m.deps), errs: m.errs}
	if m.Router != nil {
		child.Router = m.Router.Group(prefix, middleware...)
	}
	return child
}

// Register registers the routes of controller, a pointer to a struct, on m
// (see the package documentation for the rules). It returns every problem
// found, each a *core.RegistrationError naming the controller and the
// method; the core application records them too, so app.Build refuses to
// serve. A controller with errors may have some of its routes registered.
//
//	m := mvc.New(app.Group("/api/values"))
//	if err := mvc.Register(m, new(ValuesController)); err != nil {
//		log.Fatal(err)
//	}
//
// Register is a function generic in the controller's type, rather than a
// method of Application, so that it can call the methods of the common
// shapes directly, with no reflect and no unsafe (see "Performance" in the
// package documentation).
func Register[C any](m *Group, controller *C) error {
	if m == nil || m.Router == nil {
		err := errors.New("mvc: Handle: the application has no router")
		if m != nil {
			err = m.fail(err)
		}
		return err
	}
	c, err := newController(controller, m.Router, m.deps)
	if err != nil {
		return m.fail(err)
	}
	err = c.activate()
	if err != nil {
		*m.errs = append(*m.errs, err) // recorded with the core by the controller
	}
	return err
}

// Err returns the registration errors of m, its parent and its groups so
// far, joined, or nil.
func (m *Group) Err() error { return errors.Join(*m.errs...) }

// fail records err with the core application, as a
// *core.RegistrationError, keeps it for Err and returns it.
func (m *Group) fail(err error) error {
	if m.Router != nil && m.Router.App() != nil {
		err = registry.RecordError(m.Router.App(), "", "", err)
	}
	*m.errs = append(*m.errs, err)
	return err
}
