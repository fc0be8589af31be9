// Controller hooks.
//
// A controller may implement any of these methods; they are found by
// interface, never by name alone, and are never routes:
//
//	BeforeRegister(b mvc.Registrar)  once, before its routes are registered
//	AfterRegister(a mvc.Registration)    once, after
//	BeginRequest(ctx core.Context)           per request, before the method
//	EndRequest(ctx core.Context)             per request, after the method and its result
//
// BeforeRegister sees the controller's router and dependency container,
// so it can add middleware, plain routes and controller-scoped
// dependencies, and it declares explicit routes with Handle. Explicit routes
// are registered after BeforeRegister returns, together with the
// name-derived ones, so dependencies it registers are visible to every
// method. A method given an explicit route is not also routed by its name.

package mvc

import "github.com/vireo-go/vireo/core"

// Registrar is what a controller's Registrar method receives.
type Registrar interface {
	// Router returns the router the controller's routes are registered on.
	Router() *core.Router
	// Dependencies returns the controller's own container, whose parent is
	// the MVC application's.
	Dependencies() *Dependencies
	// Handle routes method and pattern (relative to the router's prefix, in
	// the core's pattern syntax) to the controller method named methodName,
	// after the given middleware. Errors (an unknown method, a parameter
	// that cannot be bound, a bad pattern) are returned by
	// mvc.Register.
	Handle(method, pattern, methodName string, middleware ...core.Handler)
}

// Registration is what a controller's Registration method receives.
type Registration interface {
	// Router returns the router the controller's routes are registered on.
	Router() *core.Router
	// Dependencies returns the controller's own container.
	Dependencies() *Dependencies
	// Routes returns the controller's routes in registration order.
	Routes() []*core.Route
	// RoutesOf returns the routes of the named method: one, or one per
	// method for Any routes; nil for a method that is not a route.
	RoutesOf(methodName string) []*core.Route
	// Singleton reports whether one controller instance serves every
	// request (it has no per-request fields).
	Singleton() bool
}

type (
	beforeActivator interface{ BeforeRegister(Registrar) }
	afterActivator  interface{ AfterRegister(Registration) }
	beginRequester  interface{ BeginRequest(core.Context) }
	endRequester    interface{ EndRequest(core.Context) }
)

// explicitRoute is a route declared with BeforeRegister.Handle.
type explicitRoute struct {
	method, pattern, name string
	middleware            []core.Handler
}

type beforeActivation struct{ c *controller }

func (b beforeActivation) Router() *core.Router        { return b.c.router }
func (b beforeActivation) Dependencies() *Dependencies { return b.c.deps }
func (b beforeActivation) Handle(method, pattern, methodName string, middleware ...core.Handler) {
	b.c.explicit = append(b.c.explicit, explicitRoute{method, pattern, methodName, middleware})
}

type afterActivation struct{ c *controller }

func (a afterActivation) Router() *core.Router        { return a.c.router }
func (a afterActivation) Dependencies() *Dependencies { return a.c.deps }
func (a afterActivation) Routes() []*core.Route       { return append([]*core.Route(nil), a.c.routes...) }
func (a afterActivation) Singleton() bool             { return a.c.singleton }
func (a afterActivation) RoutesOf(methodName string) []*core.Route {
	var out []*core.Route
	for i, rt := range a.c.routes {
		if a.c.routeMethods[i] == methodName {
			out = append(out, rt)
		}
	}
	return out
}
