// The MVC application: a router, a dependency container and the
// controllers registered on them.
//
// Registration errors (a missing dependency, a method that cannot be
// routed, a route conflict) are recorded with the core application through
// the module-internal registry, each as a *core.RegistrationError, so that
// app.Build refuses to start an application with a broken controller; they
// are also returned by Handle and kept for Err.

package mvc

import (
	"errors"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/registry"
)

// Application registers controllers on a router with a set of
// dependencies.
type Application struct {
	// Router is the router the controllers' routes are registered on.
	Router *core.Router

	deps *Dependencies
	errs *[]error // shared by an application and its parties
}

// New returns an MVC application registering its controllers on r:
// mvc.New(app.Party("/api/values")) or mvc.New(app.Router).
func New(r *core.Router) *Application {
	m := &Application{Router: r, deps: newDependencies(nil), errs: new([]error)}
	if r == nil {
		*m.errs = append(*m.errs, errors.New("mvc: New: nil router"))
	}
	return m
}

// Register adds dependencies: values, injected as they are, and providers
// func(core.Context) T or func(core.Context) (T, error), called per
// request. Controllers registered later, and parties created from m, see
// them. Errors are kept for Handle and Err.
func (m *Application) Register(deps ...any) *Application {
	if err := m.deps.Register(deps...); err != nil {
		m.fail(err)
	}
	return m
}

// Dependencies returns the application's dependency container.
func (m *Application) Dependencies() *Dependencies { return m.deps }

// Party returns a child application on m.Router.Party(prefix, middleware...)
// that sees m's dependencies, including ones registered on m later, and
// whose own registrations stay its own.
func (m *Application) Party(prefix string, middleware ...core.Handler) *Application {
	child := &Application{deps: newDependencies(m.deps), errs: m.errs}
	if m.Router != nil {
		child.Router = m.Router.Party(prefix, middleware...)
	}
	return child
}

// Handle registers the routes of controller, a pointer to a struct, on m
// (see the package documentation for the rules). It returns every problem
// found, each a *core.RegistrationError naming the controller and the
// method; the core application records them too, so app.Build refuses to
// serve. A controller with errors may have some of its routes registered.
//
//	m := mvc.New(app.Party("/api/values"))
//	if err := mvc.Handle(m, new(ValuesController)); err != nil {
//		log.Fatal(err)
//	}
//
// Handle is a function generic in the controller's type, rather than a
// method of Application, so that it can call the methods of the common
// shapes directly, with no reflect and no unsafe (see "Performance" in the
// package documentation).
func Handle[C any](m *Application, controller *C) error {
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

// Err returns the registration errors of m, its parent and its parties so
// far, joined, or nil.
func (m *Application) Err() error { return errors.Join(*m.errs...) }

// fail records err with the core application, as a
// *core.RegistrationError, keeps it for Err and returns it.
func (m *Application) fail(err error) error {
	if m.Router != nil && m.Router.App() != nil {
		err = registry.RecordError(m.Router.App(), "", "", err)
	}
	*m.errs = append(*m.errs, err)
	return err
}
