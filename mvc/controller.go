// Controller analysis and route registration.
//
// Register inspects a controller once:
//
//  1. BeforeRegister runs, collecting explicit routes and dependencies.
//  2. Exported fields are classified. A field that already holds a
//     non-zero value keeps it. A zero field whose type is a static
//     dependency is set once, on the registered value. A zero field whose
//     type is per-request (core.Context, *http.Request, a provider...) is
//     recorded with its binder; a controller with no such field is a
//     singleton, served by the registered value itself for every request,
//     otherwise each request gets a fresh copy of the registered value
//     (reflect.New plus one struct copy) with those fields set. A zero field
//     of a non-empty interface type that nothing provides is an error (it
//     would be a nil-pointer panic at request time); other unbound fields
//     are left to the controller.
//  3. Every method with an explicit route, then every method whose name maps
//     to a route, is analysed: parameters are classified (binding.go), the
//     result writer is chosen (result.go), the route pattern is built and
//     the handler is assembled (handler.go).
//  4. AfterRegister runs.
//
// Every problem is reported as an error naming the controller and method.

package mvc

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo/core"
)

type controller struct {
	name     string        // the struct type's name with its package, for errors
	typ      reflect.Type  // the struct type
	value    reflect.Value // pointer to the registered struct: the singleton, or the template copied per request
	router   *core.Router
	deps     *Dependencies
	explicit []explicitRoute

	fields       []fieldInput // per-request fields
	copyValue    bool         // the template has non-zero fields to copy per request
	singleton    bool
	begin, end   bool
	routes       []*core.Route
	routeMethods []string // the method name of each route
	errs         []error
	// direct is directCaller instantiated for the controller's type.
	direct func(m reflect.Method, ft reflect.Type, ins []*input) caller
}

// fieldInput is a per-request field: its index path in the struct and
// how it is set (see input.fieldSetter).
type fieldInput struct {
	index []int
	set   func(ctx core.Context, fv reflect.Value) error
}

// newController returns the controller of v, a *C for a struct type C;
// direct is directCaller[C].
func newController[C any](v *C, router *core.Router, deps *Dependencies) (*controller, error) {
	rv := reflect.ValueOf(v)
	if rv.Type().Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("mvc: Handle: controller must be a pointer to a struct, got %s", rv.Type())
	}
	if v == nil {
		return nil, fmt.Errorf("mvc: Handle: nil %s controller", rv.Type())
	}
	c := &controller{
		name:   rv.Type().Elem().String(),
		typ:    rv.Type().Elem(),
		value:  rv,
		router: router,
		deps:   newDependencies(deps),
		direct: directCaller[C],
	}
	_, c.begin = rv.Interface().(beginRequester)
	_, c.end = rv.Interface().(endRequester)
	return c, nil
}

// fail records a problem of the controller (method "") or of one of its
// methods in the core application's list (Router.Refuse), as a
// *core.RegistrationError for the route httpMethod pattern when there is
// one, so that Build refuses to serve; Register returns the recorded
// errors.
func (c *controller) fail(method, httpMethod, pattern string, err error) {
	if method == "" {
		err = fmt.Errorf("mvc: %s: %w", c.name, err)
	} else {
		err = fmt.Errorf("mvc: %s.%s: %w", c.name, method, err)
	}
	c.errs = append(c.errs, c.router.Refuse(httpMethod, pattern, err))
}

// activate runs the steps of the file comment.
func (c *controller) activate() error {
	if ba, ok := c.value.Interface().(beforeActivator); ok {
		ba.BeforeRegister(beforeActivation{c})
		for _, err := range c.deps.errs {
			c.fail("BeforeRegister", "", "", err)
		}
	}
	c.bindFields()
	handled := map[string]bool{}
	for _, er := range c.explicit {
		handled[er.name] = true
		m, ok := c.value.Type().MethodByName(er.name)
		if !ok {
			c.fail(er.name, er.method, "", fmt.Errorf("BeforeRegister Handle(%q, %q): no exported method %s", er.method, er.pattern, er.name))
			continue
		}
		pattern := er.pattern
		if pattern == "" {
			pattern = "/" // the router's prefix itself
		}
		c.register(m, er.method, pattern, nil, er.middleware)
	}
	pt := c.value.Type()
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if handled[m.Name] {
			continue
		}
		method, segs, ok := parseMethodName(m.Name)
		if !ok {
			continue
		}
		c.register(m, method, "", segs, nil)
	}
	if aa, ok := c.value.Interface().(afterActivator); ok {
		aa.AfterRegister(afterActivation{c})
	}
	return errors.Join(c.errs...)
}

// bindFields classifies the exported fields, promoted ones of embedded
// structs included (not those behind embedded pointers, which may be nil);
// see the file comment.
func (c *controller) bindFields() {
	elem := c.value.Elem()
	for _, f := range reflect.VisibleFields(c.typ) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct || behindPointer(c.typ, f.Index) {
			continue
		}
		fv := elem.FieldByIndex(f.Index)
		if !fv.IsZero() {
			continue
		}
		in, ok := requestInput(f.Type, c.deps)
		switch {
		case !ok:
			if f.Type.Kind() == reflect.Interface && f.Type.NumMethod() > 0 || isSession(f.Type) {
				c.fail("", "", "", fmt.Errorf("field %s: no dependency of type %s registered%s", f.Name, f.Type, sessionHint(f.Type)))
			}
		case in.static():
			v, _ := in.get(core.Context{})
			fv.Set(v)
		default:
			c.fields = append(c.fields, fieldInput{index: f.Index, set: in.fieldSetter()})
		}
	}
	c.singleton = len(c.fields) == 0
	c.copyValue = !elem.IsZero()
}

// isSession reports whether t is *sessions.Session, recognised by name so
// that mvc does not import (and an application without sessions does not
// link) the sessions package. A field of that type that nothing provides
// would be a nil session silently dropping what the controller stores in
// it, so it is an error like an unprovided interface.
func isSession(t reflect.Type) bool {
	return t.Kind() == reflect.Pointer && t.Elem().Name() == "Session" && t.Elem().PkgPath() == "github.com/vireo-go/vireo/sessions"
}

// sessionHint returns how to provide t when it is *sessions.Session.
func sessionHint(t reflect.Type) string {
	if isSession(t) {
		return " (the request's session: Provide(manager.Start) with the application's *sessions.Manager)"
	}
	return ""
}

// behindPointer reports whether the field at index is reached through an
// embedded pointer.
func behindPointer(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Pointer {
			return true
		}
		t = f.Type
	}
	return false
}

// register analyses method m and registers its route: pattern is the
// explicit pattern, or "" to build one from the name's segments.
func (c *controller) register(m reflect.Method, httpMethod, pattern string, segs []segment, middleware []core.Handler) {
	ft := c.value.Method(m.Index).Type() // without the receiver
	anyMethod := httpMethod == methodAny
	if ft.IsVariadic() {
		c.fail(m.Name, httpMethod, "", errors.New("variadic methods cannot be routes"))
		return
	}
	var (
		ins     []*input
		pathIns []*input
	)
	for i := 0; i < ft.NumIn(); i++ {
		t := ft.In(i)
		if in, ok := requestInput(t, c.deps); ok {
			ins = append(ins, in)
			continue
		}
		if _, ok := patternType(t); ok {
			in := &input{kind: inPath, typ: t}
			ins = append(ins, in)
			pathIns = append(pathIns, in)
			continue
		}
		if isBodyType(t) {
			if !anyMethod && !bodyMethod(httpMethod) {
				c.fail(m.Name, httpMethod, "", fmt.Errorf("parameter %d: no dependency of type %s registered (request bodies bind only on POST, PUT, PATCH and Any)", i+1, t))
				return
			}
			ins = append(ins, bodyInput(t))
			continue
		}
		c.fail(m.Name, httpMethod, "", fmt.Errorf("parameter %d: no dependency of type %s registered%s", i+1, t, sessionHint(t)))
		return
	}
	write, err := resultsWriterFor(ft)
	if err != nil {
		c.fail(m.Name, httpMethod, "", err)
		return
	}

	for k, in := range pathIns {
		in.bindPath(len(pathIns) - k)
	}
	if pattern == "" {
		pattern, err = buildPattern(segs, pathIns, c.router.Params())
		if err != nil {
			c.fail(m.Name, httpMethod, "", err)
			return
		}
	}

	h := c.handler(m, ft, ins, write)
	handlers := append(append([]core.Handler(nil), middleware...), h)
	var routes []*core.Route
	if anyMethod {
		routes = c.router.Any(pattern, handlers...)
	} else {
		routes = []*core.Route{c.router.Handle(httpMethod, pattern, handlers...)}
	}
	planned := false
	for _, rt := range routes {
		if err := rt.Err(); err != nil {
			// core recorded it already; Register returns it too.
			c.errs = append(c.errs, fmt.Errorf("mvc: %s.%s: %w", c.name, m.Name, err))
			continue
		}
		n := len(rt.Params())
		if len(pathIns) > n {
			c.fail(m.Name, rt.Method, rt.Pattern, fmt.Errorf("%d path parameters but the route has %d", len(pathIns), n))
			continue
		}
		for _, in := range pathIns { // the same n for every route of Any
			in.placePath(n)
		}
		if !planned { // Any's routes share the handler and their parameters
			planned = true
			planMethod := httpMethod
			if anyMethod {
				planMethod = http.MethodPost
			}
			for _, in := range ins {
				if in.kind != inBody {
					continue
				}
				if err := in.planBody(planMethod, rt.Params()); err != nil {
					c.fail(m.Name, rt.Method, rt.Pattern, err)
					return
				}
			}
		}
		rt.Describe(describeMethod(c.name[strings.LastIndexByte(c.name, '.')+1:]+"."+m.Name, rt.Method, ins, ft))
		c.routes = append(c.routes, rt)
		c.routeMethods = append(c.routeMethods, m.Name)
		c.router.App().Logger().Debug("mvc: route", "method", c.name+"."+m.Name, "route", rt.String())
	}
}

// paramName returns the name of the parameter of segment s, of type t:
// the words after its By, else the name of a named type of the program,
// else "path" for a wildcard; "" leaves it to be numbered (see naming.go).
func paramName(s segment, t reflect.Type) string {
	switch {
	case s.text != "":
		return s.text
	case t.Name() != "" && t.PkgPath() != "":
		words := splitWords(t.Name())
		words[0] = strings.ToLower(words[0])
		return strings.Join(words, "")
	case s.kind == segWildcard:
		return "path"
	}
	return ""
}

// buildPattern turns a name's segments into a pattern, the By segments
// taking the types of the last path parameters; prefix holds the
// parameters of the router's prefix.
func buildPattern(segs []segment, pathIns []*input, prefix []core.RouteParam) (string, error) {
	byCount := 0
	for _, s := range segs {
		if s.kind != segStatic {
			byCount++
		}
	}
	if byCount > len(pathIns) {
		return "", fmt.Errorf("the name has %d By but the method has %d path parameters (bool, string, int..., uint..., float...)", byCount, len(pathIns))
	}
	if byCount < len(pathIns)-len(prefix) {
		return "", fmt.Errorf("%d path parameters but the name has %d By (and the group's prefix %d parameters)", len(pathIns), byCount, len(prefix))
	}
	used := map[string]bool{}
	for _, p := range prefix {
		used[p.Name] = true
	}
	var b strings.Builder
	next, n := len(pathIns)-byCount, 0
	for _, s := range segs {
		b.WriteByte('/')
		if s.kind == segStatic {
			b.WriteString(s.text)
			continue
		}
		in := pathIns[next]
		next++
		name := paramName(s, in.typ)
		if name == "" {
			for name == "" || used[name] {
				n++
				name = "param" + strconv.Itoa(n)
			}
		}
		for k := 2; used[name]; k++ {
			name = strings.TrimRight(name, "0123456789") + strconv.Itoa(k)
		}
		used[name] = true
		typ, _ := patternType(in.typ)
		if s.kind == segWildcard {
			if in.typ.Kind() != reflect.String {
				return "", fmt.Errorf("ByWildcard needs a string parameter, got %s", in.typ)
			}
			typ = core.ParamPath
		}
		b.WriteByte('{')
		b.WriteString(name)
		if typ != core.ParamString {
			b.WriteByte(':')
			b.WriteString(string(typ))
		}
		b.WriteByte('}')
	}
	if b.Len() == 0 {
		return "/", nil
	}
	return b.String(), nil
}
