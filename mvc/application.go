// The MVC application: a router, a dependency container and the
// controllers registered on them.
//
// Registration errors (a missing dependency, a method that cannot be
// routed, a route conflict) go where every registration error goes: each
// is a *core.RegistrationError in the core application's list
// (core.Router.Refuse), so that app.Build refuses to start an application
// with a broken controller, and the function that found it (Register,
// Provide) returns it too.

package mvc

import (
	"errors"

	"github.com/vireo-go/vireo/core"
)

// Group registers controllers on a router with a set of
// dependencies.
type Group struct {
	// Router is the router the controllers' routes are registered on.
	Router *core.Router

	deps *Dependencies
}

// New returns an MVC group registering its controllers on r:
// mvc.New(app.Group("/api/values")) or mvc.New(app.Router). With a nil r,
// Provide and Register return an error.
func New(r *core.Router) *Group {
	return &Group{Router: r, deps: newDependencies(nil)}
}

// errNoRouter is the error of a group without a router.
var errNoRouter = errors.New("mvc: the group has no router (mvc.New(nil))")

// Provide adds dependencies: values, injected as they are, and providers
// func(core.Context) T or func(core.Context) (T, error), called per
// request (see Dependencies.Provide). Controllers registered later, and
// groups created from m, see them. The error, for a nil value or a
// provider of nothing, is also recorded with the core application, so
// app.Build refuses to serve; the other dependencies are added anyway.
func (m *Group) Provide(deps ...any) error {
	if m.Router == nil {
		return errNoRouter
	}
	return m.Router.Refuse("", "", m.deps.Provide(deps...))
}

// Dependencies returns the application's dependency container.
func (m *Group) Dependencies() *Dependencies { return m.deps }

// Group returns a child application on m.Router.Group(prefix, middleware...)
// that sees m's dependencies, including ones registered on m later, and
// whose own registrations stay its own.
func (m *Group) Group(prefix string, middleware ...core.Handler) *Group {
	child := &Group{deps: newDependencies(m.deps)}
	if m.Router != nil {
		child.Router = m.Router.Group(prefix, middleware...)
	}
	return child
}

// Register registers the routes of controller, a pointer to a struct, on m
// (see the package documentation for the rules). It returns every problem
// found, each a *core.RegistrationError naming the controller, the method
// and the route, joined; they are in the core application's list too, so
// app.Build refuses to serve. A controller with errors may have some of its
// routes registered. The route each method got is in the controller's
// Registration (AfterRegister) and in the application's startup output.
//
//	m := mvc.New(app.Group("/api/values"))
//	if err := mvc.Register(m, new(ValuesController)); err != nil {
//		log.Fatal(err)
//	}
//
// Register is a function generic in the controller's type, rather than a
// method of Group, so that it can call the methods of the common shapes
// directly, with no reflect and no unsafe (see "Performance" in the
// package documentation).
func Register[C any](m *Group, controller *C) error {
	if m == nil || m.Router == nil {
		return errNoRouter
	}
	c, err := newController(controller, m.Router, m.deps)
	if err != nil {
		return m.Router.Refuse("", "", err)
	}
	return c.activate()
}
