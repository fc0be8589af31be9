// Controller analysis and route registration.
//
// Handle inspects a controller once:
//
//  1. BeforeActivation runs, collecting explicit routes and dependencies.
//  2. Exported fields are classified. A field that already holds a
//     non-zero value keeps it. A zero field whose type is a static
//     dependency is set once, on the registered value. A zero field whose
//     type is per-request (*core.Context, *http.Request, a provider...) is
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
//  4. AfterActivation runs.
//
// Every problem is reported as an error naming the controller and method.

package mvc

import (
	"errors"
	"fmt"
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
}

// fieldInput is a per-request field: its index path in the struct and
// its binder.
type fieldInput struct {
	index []int
	in    *input
}

func newController(v any, router *core.Router, deps *Dependencies) (*controller, error) {
	if v == nil {
		return nil, errors.New("mvc: Handle: nil controller")
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.Pointer && rv.Type().Elem().Kind() == reflect.Struct:
		if rv.IsNil() {
			return nil, fmt.Errorf("mvc: Handle: nil %s controller", rv.Type())
		}
	case rv.Kind() == reflect.Struct:
		p := reflect.New(rv.Type())
		p.Elem().Set(rv)
		rv = p
	default:
		return nil, fmt.Errorf("mvc: Handle: controller must be a pointer to a struct, got %s", rv.Type())
	}
	c := &controller{
		name:   rv.Type().Elem().String(),
		typ:    rv.Type().Elem(),
		value:  rv,
		router: router,
		deps:   newDependencies(deps),
	}
	_, c.begin = rv.Interface().(beginRequester)
	_, c.end = rv.Interface().(endRequester)
	return c, nil
}

func (c *controller) fail(method string, err error) {
	if method == "" {
		c.errs = append(c.errs, fmt.Errorf("mvc: %s: %w", c.name, err))
		return
	}
	c.errs = append(c.errs, fmt.Errorf("mvc: %s.%s: %w", c.name, method, err))
}

// activate runs the steps of the file comment.
func (c *controller) activate() error {
	if ba, ok := c.value.Interface().(beforeActivator); ok {
		ba.BeforeActivation(beforeActivation{c})
		for _, err := range c.deps.errs {
			c.fail("BeforeActivation", err)
		}
	}
	c.bindFields()
	handled := map[string]bool{}
	for _, er := range c.explicit {
		handled[er.name] = true
		m, ok := c.value.Type().MethodByName(er.name)
		if !ok {
			c.fail(er.name, fmt.Errorf("BeforeActivation Handle(%q, %q): no exported method %s", er.method, er.pattern, er.name))
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
		aa.AfterActivation(afterActivation{c})
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
			if f.Type.Kind() == reflect.Interface && f.Type.NumMethod() > 0 {
				c.fail("", fmt.Errorf("field %s: no dependency of type %s registered", f.Name, f.Type))
			}
		case in.static():
			v, _ := in.get(nil)
			fv.Set(v)
		default:
			c.fields = append(c.fields, fieldInput{index: f.Index, in: in})
		}
	}
	c.singleton = len(c.fields) == 0
	c.copyValue = !elem.IsZero()
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
		c.fail(m.Name, errors.New("variadic methods cannot be routes"))
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
		if _, ok := pathParamType(t); ok {
			in := &input{kind: inPath, typ: t}
			ins = append(ins, in)
			pathIns = append(pathIns, in)
			continue
		}
		if isBodyType(t) {
			if !anyMethod && !bodyMethod(httpMethod) {
				c.fail(m.Name, fmt.Errorf("parameter %d: no dependency of type %s registered (request bodies bind only on POST, PUT, PATCH and Any)", i+1, t))
				return
			}
			ins = append(ins, bodyInput(t, anyMethod))
			continue
		}
		c.fail(m.Name, fmt.Errorf("parameter %d: no dependency of type %s registered", i+1, t))
		return
	}
	write, err := resultsWriterFor(ft)
	if err != nil {
		c.fail(m.Name, err)
		return
	}

	prefixParams := patternParams(c.router.Prefix())
	if pattern == "" {
		pattern, err = buildPattern(segs, pathIns, prefixParams)
		if err != nil {
			c.fail(m.Name, err)
			return
		}
	}
	total := len(prefixParams) + len(patternParams(pattern))
	if len(pathIns) > total {
		c.fail(m.Name, fmt.Errorf("%d path parameters but the route %q has %d", len(pathIns), joinPattern(c.router.Prefix(), pattern), total))
		return
	}
	for k, in := range pathIns {
		in.bindPath(total - len(pathIns) + k)
	}

	h := c.handler(m, ft, ins, write)
	handlers := append(append([]core.Handler(nil), middleware...), h)
	var routes []*core.Route
	if anyMethod {
		routes = c.router.Any(pattern, handlers...)
	} else {
		routes = []*core.Route{c.router.Handle(httpMethod, pattern, handlers...)}
	}
	for _, rt := range routes {
		if err := rt.Err(); err != nil {
			c.fail(m.Name, err)
			continue
		}
		c.routes = append(c.routes, rt)
		c.routeMethods = append(c.routeMethods, m.Name)
	}
}

// buildPattern turns a name's segments into a pattern, the By segments
// taking the types of the last path parameters.
func buildPattern(segs []segment, pathIns []*input, prefixParams []string) (string, error) {
	byCount := 0
	for _, s := range segs {
		if s.kind != segStatic {
			byCount++
		}
	}
	if byCount > len(pathIns) {
		return "", fmt.Errorf("the name has %d By but the method has %d path parameters (bool, string, int..., uint..., float...)", byCount, len(pathIns))
	}
	if byCount < len(pathIns)-len(prefixParams) {
		return "", fmt.Errorf("%d path parameters but the name has %d By (and the party's prefix %d parameters)", len(pathIns), byCount, len(prefixParams))
	}
	used := map[string]bool{}
	for _, p := range prefixParams {
		used[p] = true
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
		name := ""
		for name == "" || used[name] {
			n++
			name = "param" + strconv.Itoa(n)
		}
		used[name] = true
		b.WriteByte('{')
		b.WriteString(name)
		if s.kind == segWildcard {
			if in.typ.Kind() != reflect.String {
				return "", fmt.Errorf("ByWildcard needs a string parameter, got %s", in.typ)
			}
			b.WriteString(":path")
		} else if typ, _ := pathParamType(in.typ); typ != "" {
			b.WriteByte(':')
			b.WriteString(typ)
		}
		b.WriteByte('}')
	}
	if b.Len() == 0 {
		return "/", nil
	}
	return b.String(), nil
}

// patternParams returns the parameter names of a pattern in order. The
// core validates patterns; this only needs to count and name them.
func patternParams(pattern string) []string {
	var names []string
	for _, seg := range strings.Split(pattern, "/") {
		if len(seg) < 2 || seg[0] != '{' || seg[len(seg)-1] != '}' {
			continue
		}
		name := strings.TrimSuffix(seg[1:len(seg)-1], "...")
		if i := strings.IndexByte(name, ':'); i >= 0 {
			name = name[:i]
		}
		names = append(names, name)
	}
	return names
}

// joinPattern joins a prefix and a pattern for messages, as the core does.
func joinPattern(prefix, pattern string) string {
	if pattern == "/" || pattern == "" {
		if prefix == "" {
			return "/"
		}
		return prefix
	}
	return prefix + pattern
}
