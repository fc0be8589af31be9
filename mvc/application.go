// The MVC application: a router, a dependency container and the
// controllers registered on them.
//
// Registration errors (a missing dependency, a method that cannot be
// routed, a route conflict) are returned by Handle and Register's
// container, kept for Err, and passed to the core application when it can
// record them (see reportToCore), so that app.Build refuses to start an
// application with a broken controller.

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
// func(*core.Context) T or func(*core.Context) (T, error), called per
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

// Handle registers the routes of controller, a pointer to a struct (see
// the package documentation for the rules). It returns every problem found,
// each naming the controller and the method; a controller with errors may
// have some of its routes registered. Use it as
//
//	if err := mvc.New(app.Party("/api/values")).Handle(new(ValuesController)); err != nil {
//		log.Fatal(err)
//	}
//
// or check Err (or app.Build, which reports controller errors too) after
// registering everything.
func (m *Application) Handle(controller any) error {
	if m.Router == nil {
		err := errors.New("mvc: Handle: the application has no router")
		m.fail(err)
		return err
	}
	c, err := newController(controller, m.Router, m.deps)
	if err != nil {
		m.fail(err)
		return err
	}
	if err := c.activate(); err != nil {
		m.fail(err)
		return err
	}
	return nil
}

// Err returns the registration errors of m, its parent and its parties so
// far, joined, or nil.
func (m *Application) Err() error { return errors.Join(*m.errs...) }

func (m *Application) fail(err error) {
	*m.errs = append(*m.errs, err)
	reportToCore(m.Router, err)
}

// reportToCore records err on the core application of r, so that Build
// reports it and the application refuses to serve.
func reportToCore(r *core.Router, err error) {
	if r == nil || r.App() == nil {
		return
	}
	registry.RecordError(r.App(), "", "", err)
}
