package mvc_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

// activationController uses both activation hooks.
type activationController struct {
	after struct {
		routes    []string
		special   []string
		singleton bool
	}
}

type counterDep struct{ prefix string }

func (c *activationController) BeforeRegister(b mvc.Registrar) {
	b.Router().Use(func(ctx core.Context) {
		ctx.SetResponseHeader("X-Group", "yes")
		ctx.Next()
	})
	b.Dependencies().Provide(&counterDep{prefix: "dep"})
	b.Handle("GET", "/something/{id:int}", "MyCustom", func(ctx core.Context) {
		ctx.SetResponseHeader("X-Route", "custom")
		ctx.Next()
	})
	b.Handle("POST", "/special-path", "GetSpecial")
	b.Router().Get("/plain", func(ctx core.Context) { ctx.WriteString("plain route") })
}

func (c *activationController) AfterRegister(a mvc.Registration) {
	c.after.routes = routeList(a.Routes())
	c.after.special = routeList(a.RoutesOf("GetSpecial"))
	c.after.singleton = a.Singleton()
}

func (c *activationController) MyCustom(id int, d *counterDep) string {
	return d.prefix + " " + strconv.Itoa(id)
}
func (c *activationController) GetSpecial() string { return "special" }
func (c *activationController) Get() string        { return "index" }

func TestActivation(t *testing.T) {
	app := quietApp()
	c := new(activationController)
	if err := mvc.Register(mvc.New(app.Group("/act")), c); err != nil {
		t.Fatal(err)
	}
	wantRoutes := []string{"GET /act/something/{id:int}", "POST /act/special-path", "GET /act"}
	if !slices.Equal(c.after.routes, wantRoutes) {
		t.Errorf("AfterRegister routes %q, want %q", c.after.routes, wantRoutes)
	}
	if !slices.Equal(c.after.special, []string{"POST /act/special-path"}) {
		t.Errorf("RoutesOf(GetSpecial) = %q", c.after.special)
	}
	if !c.after.singleton {
		t.Error("a controller without per-request fields should be a singleton")
	}
	check(t, app, []request{
		{method: "GET", target: "/act/something/12", status: 200, want: "dep 12",
			headers: map[string]string{"X-Route": "custom", "X-Group": "yes"}},
		{method: "GET", target: "/act/something/x", status: 404, want: "Not Found"},
		{method: "POST", target: "/act/special-path", status: 200, want: "special", headers: map[string]string{"X-Group": "yes"}},
		{method: "GET", target: "/act/special", status: 404, want: "Not Found"}, // not also routed by name
		{method: "GET", target: "/act", status: 200, want: "index"},
		{method: "GET", target: "/act/plain", status: 200, want: "plain route"},
	})
}

// hooksController records its hooks in the response.
type hooksController struct {
	Ctx   core.Context
	trail []string
}

func (c *hooksController) BeginRequest(ctx core.Context) {
	c.trail = append(c.trail, "begin")
	if ctx.Query("deny") != "" {
		ctx.StopWithStatus(http.StatusUnauthorized)
	}
}
func (c *hooksController) EndRequest(ctx core.Context) {
	c.trail = append(c.trail, "end")
	ctx.WriteString(strings.Join(c.trail, ","))
}
func (c *hooksController) Get() { c.trail = append(c.trail, "get") }
func (c *hooksController) PostBy(id int) {
	c.trail = append(c.trail, "post"+strconv.Itoa(id))
}

// singletonHooks has hooks but no per-request field.
type singletonHooks struct{}

func (c *singletonHooks) BeginRequest(ctx core.Context) { ctx.SetResponseHeader("X-Begin", "1") }
func (c *singletonHooks) EndRequest(ctx core.Context)   { ctx.WriteString(" end") }
func (c *singletonHooks) Get() string                   { return "get" }
func (c *singletonHooks) GetPoint() point               { return point{1, 2} }

func TestRequestHooks(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Router)
	if err := mvc.Register(m.Group("/hooks"), new(hooksController)); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m.Group("/single"), new(singletonHooks)); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/hooks", status: 200, want: "begin,get,end"},
		{method: "POST", target: "/hooks/3", status: 200, want: "begin,post3,end"},
		{method: "POST", target: "/hooks/x", status: 404, want: "Not Found"},
		{method: "GET", target: "/hooks?deny=1", status: 401, want: "Unauthorized"},
		{method: "GET", target: "/single", status: 200, want: "get end", headers: map[string]string{"X-Begin": "1"}},
		{method: "GET", target: "/single/point", status: 200, want: `{"x":1,"y":2} end`},
	})
}

// Controllers with registration errors.
type (
	missing         struct{}
	service         interface{ Do() }
	missingParam    struct{}
	missingField    struct{ Svc service }
	byWithoutParam  struct{}
	paramWithoutBy  struct{}
	tooManyBy       struct{}
	chanResult      struct{}
	threeResults    struct{}
	badPair         struct{}
	bodyOnGet       struct{}
	wildcardInt     struct{}
	variadic        struct{}
	unknownExplicit struct{}
	explicitTooMany struct{}
	badPattern      struct{}
	conflictA       struct{}
	conflictB       struct{}
	nilDepInBefore  struct{}
)

func (missingParam) GetBy(id int, m *missing) string   { return "" }
func (missingField) Get() string                       { return "" }
func (byWithoutParam) GetBy() string                   { return "" }
func (paramWithoutBy) GetProfile(name string) string   { return "" }
func (tooManyBy) GetByBy(a int) string                 { return "" }
func (chanResult) Get() chan int                       { return nil }
func (threeResults) Get() (string, int, error)         { return "", 0, nil }
func (badPair) Get() (string, string)                  { return "", "" }
func (bodyOnGet) GetItems(it item) string              { return "" }
func (wildcardInt) GetByWildcard(n int) string         { return "" }
func (variadic) GetBy(ids ...int) string               { return "" }
func (unknownExplicit) BeforeRegister(b mvc.Registrar) { b.Handle("GET", "/x", "Nope") }
func (explicitTooMany) BeforeRegister(b mvc.Registrar) {
	b.Handle("GET", "/x/{a:int}", "Two")
}
func (explicitTooMany) Two(a, b int) string       { return "" }
func (badPattern) BeforeRegister(b mvc.Registrar) { b.Handle("GET", "/x/{a:float}", "Show") }
func (badPattern) Show() string                   { return "" }
func (conflictA) Get() string                     { return "" }
func (nilDepInBefore) BeforeRegister(b mvc.Registrar) {
	b.Dependencies().Provide(nil)
}
func (conflictB) Get() string { return "" }

// handle returns a registration of c, for tables of controllers of
// different types.
func handle[C any](c *C) func(m *mvc.Group) error {
	return func(m *mvc.Group) error { return mvc.Register(m, c) }
}

func TestRegistrationErrors(t *testing.T) {
	tests := []struct {
		name   string
		handle func(m *mvc.Group) error
		want   []string // substrings of the error
	}{
		{"missing parameter dependency", handle(new(missingParam)), []string{"mvc_test.missingParam.GetBy", "parameter 2", "*mvc_test.missing"}},
		{"missing interface field", handle(new(missingField)), []string{"mvc_test.missingField", "field Svc", "mvc_test.service"}},
		{"By without parameter", handle(new(byWithoutParam)), []string{"byWithoutParam.GetBy", "1 By", "0 path parameters"}},
		{"parameter without By", handle(new(paramWithoutBy)), []string{"paramWithoutBy.GetProfile", "1 path parameters", "0 By"}},
		{"more By than parameters", handle(new(tooManyBy)), []string{"tooManyBy.GetByBy", "2 By"}},
		{"channel result", handle(new(chanResult)), []string{"chanResult.Get", "chan int"}},
		{"three results", handle(new(threeResults)), []string{"threeResults.Get", "3 results"}},
		{"bad pair", handle(new(badPair)), []string{"badPair.Get", "second result"}},
		{"body on GET", handle(new(bodyOnGet)), []string{"bodyOnGet.GetItems", "mvc_test.item", "POST, PUT, PATCH"}},
		{"wildcard int", handle(new(wildcardInt)), []string{"wildcardInt.GetByWildcard", "string parameter"}},
		{"variadic", handle(new(variadic)), []string{"variadic.GetBy", "variadic methods cannot be routes"}},
		{"unknown explicit method", handle(new(unknownExplicit)), []string{"unknownExplicit.Nope", "no exported method"}},
		{"explicit route too short", handle(new(explicitTooMany)), []string{"explicitTooMany.Two", "2 path parameters", "has 1"}},
		{"bad explicit pattern", handle(new(badPattern)), []string{"badPattern.Show", "float"}},
		{"nil dependency in BeforeRegister", handle(new(nilDepInBefore)), []string{"nilDepInBefore.BeforeRegister", "nil dependency"}},
		{"nil pointer", handle((*missingField)(nil)), []string{"nil *mvc_test.missingField"}},
		{"not a struct", handle(new(int)), []string{"pointer to a struct", "*int"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			m := mvc.New(app.Group("/e"))
			err := tt.handle(m)
			if err == nil {
				t.Fatal("no error")
			}
			var re *core.RegistrationError
			if !errors.As(err, &re) {
				t.Errorf("error %v (%T) is not a *core.RegistrationError", err, err)
			}
			if berr := app.Build(); berr == nil || !strings.Contains(berr.Error(), re.Err.Error()) {
				t.Errorf("Build() = %v, want it to report %v", berr, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			var list core.RegistrationErrors
			if errors.As(app.Build(), &list); !slices.Contains(list, re) {
				t.Errorf("Build's list %v does not hold the returned %v", list, re)
			}
		})
	}

	t.Run("route conflict", func(t *testing.T) {
		app := quietApp()
		m := mvc.New(app.Group("/e"))
		if err := mvc.Register(m, new(conflictA)); err != nil {
			t.Fatal(err)
		}
		err := mvc.Register(m, new(conflictB))
		if err == nil || !strings.Contains(err.Error(), "conflictB.Get") {
			t.Fatalf("error %v, want a conflict naming conflictB.Get", err)
		}
		if app.Build() == nil {
			t.Error("Build reports no error for the conflicting route")
		}
	})
	for name, tt := range map[string]struct {
		dep  any
		want string
	}{
		"nil dependency": {nil, "nil dependency"},
		"bad provider":   {func(core.Context) (int, int) { return 0, 0 }, "(T, error)"},
	} {
		t.Run(name, func(t *testing.T) {
			app := quietApp()
			err := mvc.New(app.Router).Provide(tt.dep)
			var re *core.RegistrationError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Provide = %v, want a *core.RegistrationError about %q", err, tt.want)
			}
			var list core.RegistrationErrors
			if !errors.As(app.Build(), &list) || len(list) != 1 || list[0] != re {
				t.Errorf("Build's list %v, want the error Provide returned", list)
			}
		})
	}
	t.Run("nil router", func(t *testing.T) {
		m := mvc.New(nil)
		if err := mvc.Register(m, new(conflictA)); err == nil {
			t.Error("Register on a nil router succeeded")
		}
		if err := m.Provide(1); err == nil {
			t.Error("Provide on a nil router succeeded")
		}
	})
}

// isolation controllers: one singleton, one per request.
type sharedCounter struct {
	mu sync.Mutex
	n  int
}

type singletonCtl struct {
	Counter *sharedCounter // static: the controller stays a singleton
}

func (c *singletonCtl) Get() string {
	c.Counter.mu.Lock()
	c.Counter.n++
	c.Counter.mu.Unlock()
	return fmt.Sprintf("%p", c)
}

type perRequestCtl struct {
	Ctx   core.Context
	Count int // per-request state: each request starts from the registered 0
	Seen  []string
}

func (c *perRequestCtl) GetBy(id int) string {
	c.Count++
	c.Seen = append(c.Seen, strconv.Itoa(id))
	return fmt.Sprintf("%p %d %s %s", c, c.Count, strings.Join(c.Seen, ","), c.Ctx.Param("param1"))
}

func TestSingletonAndPerRequestIsolation(t *testing.T) {
	app := quietApp()
	counter := new(sharedCounter)
	m := mvc.New(app.Router)
	if err := m.Provide(counter); err != nil {
		t.Fatal(err)
	}
	var single, perReq bool
	if err := mvc.Register(m.Group("/single"), &singletonProbe{singletonCtl: singletonCtl{}, singleton: &single}); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m.Group("/each"), &perRequestProbe{singleton: &perReq}); err != nil {
		t.Fatal(err)
	}
	if !single || perReq {
		t.Fatalf("Singleton(): singleton controller %v, per-request controller %v", single, perReq)
	}
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}

	const workers, each = 8, 50
	var wg sync.WaitGroup
	singleAddrs := make(chan string, workers*each)
	errs := make(chan string, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				rec := serve(app, "GET", "/single", "", "")
				singleAddrs <- rec.Body.String()
				id := strconv.Itoa(w*each + i)
				rec = serve(app, "GET", "/each/"+id, "", "")
				parts := strings.Fields(rec.Body.String())
				if len(parts) != 4 || parts[1] != "1" || parts[2] != id || parts[3] != id {
					errs <- fmt.Sprintf("per-request controller shared state: %q for id %s", rec.Body.String(), id)
				}
			}
		}(w)
	}
	wg.Wait()
	close(singleAddrs)
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	first := ""
	for a := range singleAddrs {
		if first == "" {
			first = a
		} else if a != first {
			t.Fatalf("singleton served by %s and %s", first, a)
		}
	}
	if counter.n != workers*each {
		t.Errorf("shared dependency counted %d, want %d", counter.n, workers*each)
	}
}

type singletonProbe struct {
	singletonCtl
	singleton *bool
}

func (p *singletonProbe) AfterRegister(a mvc.Registration) { *p.singleton = a.Singleton() }

type perRequestProbe struct {
	perRequestCtl
	singleton *bool
}

func (p *perRequestProbe) AfterRegister(a mvc.Registration) { *p.singleton = a.Singleton() }

// Groups: dependencies flow from parent to child, not back.
type childDep struct{ v string }

type parentDep struct{ v string }

type childController struct{}

func (childController) Get(p *parentDep, c *childDep) string { return p.v + "+" + c.v }

type parentController struct{}

func (parentController) Get(c *childDep) string { return c.v }

func TestPartyDependencies(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Group("/p"))
	child := m.Group("/child", func(ctx core.Context) { ctx.SetResponseHeader("X-Child", "1"); ctx.Next() })
	child.Provide(&childDep{"child"})
	m.Provide(&parentDep{"parent"}) // after Group: still visible to the child
	if err := mvc.Register(child, &childController{}); err != nil {
		t.Fatal(err)
	}
	rec := serve(app, "GET", "/p/child", "", "")
	if rec.Code != 200 || rec.Body.String() != "parent+child" || rec.Header().Get("X-Child") != "1" {
		t.Errorf("child: %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}

	// A second application: the parent does not see the child's
	// dependency, and the failure reaches Build, so that app never serves.
	app2 := quietApp()
	m2 := mvc.New(app2.Group("/p"))
	child2 := m2.Group("/child")
	child2.Provide(&childDep{"child"})
	if err := mvc.Register(m2, &parentController{}); err == nil || !strings.Contains(err.Error(), "*mvc_test.childDep") {
		t.Errorf("parent saw the child's dependency: %v", err)
	}
	if err := app2.Build(); err == nil || !strings.Contains(err.Error(), "childDep") {
		t.Errorf("Build() = %v, want the controller's error", err)
	}
}

// Interface lookup: the newest registration wins, exact types before
// interfaces.
type french struct{}

func (french) Greet(name string) string { return "bonjour, " + name }

type greetController struct{}

func (greetController) Get(g greeter) string { return g.Greet("x") }

type exactController struct{}

func (exactController) Get(e *english) string { return e.Greet("y") }

func TestDependencyLookupOrder(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Router)
	if err := m.Provide(&english{"hi"}, french{}); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m.Group("/iface"), &greetController{}); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m.Group("/exact"), &exactController{}); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/iface", status: 200, want: "bonjour, x"},
		{method: "GET", target: "/exact", status: 200, want: "hi, y"},
	})
}

// Embedded structs: promoted fields are injected, promoted and
// value-receiver methods are routes.
type baseController struct {
	Ctx core.Context
}

func (b baseController) GetBase() string { return "base " + b.Ctx.Path() }

type derivedController struct {
	baseController
	Name string
}

func (d derivedController) GetName() string         { return d.Name + " " + d.Ctx.Method() }
func (d *derivedController) GetItemBy(n uint64) int { return int(200 + n) }
func (d derivedController) GetRaw(s []byte) []byte  { return s }

func TestEmbeddedAndValueReceivers(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Group("/d"))
	if err := m.Provide([]byte("raw dependency")); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m, &derivedController{Name: "derived"}); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/d/base", status: 200, want: "base /d/base"},
		{method: "GET", target: "/d/name", status: 200, want: "derived GET"},
		{method: "GET", target: "/d/item/1", status: 201, want: ""},
		{method: "GET", target: "/d/raw", status: 200, want: "raw dependency"},
	})
}

// TestErrorsReachBuild checks that controller errors reach app.Build as
// registration errors.
func TestErrorsReachBuild(t *testing.T) {
	app := quietApp()
	if err := mvc.Register(mvc.New(app.Router), new(missingParam)); err == nil {
		t.Fatal("no error")
	}
	if err := app.Build(); err == nil || !strings.Contains(err.Error(), "missingParam.GetBy") {
		t.Errorf("Build() = %v, want the controller's error", err)
	}
}
