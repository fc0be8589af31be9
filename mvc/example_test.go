package mvc_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

// Greeter is what HelloController depends on; the application registers
// an implementation.
type Greeter interface{ Greet(name string) string }

type englishGreeter struct{}

func (englishGreeter) Greet(name string) string { return "Hello, " + name + "!" }

// HelloController gets its Greeter injected: the field is an interface that
// a registered value implements, set once at registration.
type HelloController struct {
	Greeter Greeter
}

// Get serves GET /hello.
func (c *HelloController) Get() string { return c.Greeter.Greet("world") }

// GetBy serves GET /hello/{param1}: the name comes from the path.
func (c *HelloController) GetBy(name string) string { return c.Greeter.Greet(name) }

// PostShout serves POST /hello/shout with a JSON body bound by type, and a
// JSON result.
func (c *HelloController) PostShout(in struct{ Name string }) map[string]string {
	return map[string]string{"greeting": strings.ToUpper(c.Greeter.Greet(in.Name))}
}

// An MVC controller with a dependency: method names are routes, inputs are
// bound by type, results are written by type.
func Example() {
	app := core.New()
	m := mvc.New(app.Group("/hello"))
	m.Provide(englishGreeter{})
	if err := mvc.Register(m, new(HelloController)); err != nil {
		fmt.Println(err)
		return
	}
	for _, rt := range app.Routes() {
		fmt.Println(rt)
	}

	for _, req := range []struct{ method, path, body string }{
		{"GET", "/hello", ""},
		{"GET", "/hello/ann", ""},
		{"POST", "/hello/shout", `{"Name":"bob"}`},
	} {
		r := httptest.NewRequest(req.method, req.path, strings.NewReader(req.body))
		r.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, r)
		fmt.Println(rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	// Output:
	// GET /hello
	// GET /hello/{param1}
	// POST /hello/shout
	// 200 Hello, world!
	// 200 Hello, ann!
	// 200 {"greeting":"HELLO, BOB!"}
}

// A controller whose input nothing provides is refused at registration,
// with a *core.RegistrationError that Build reports too.
func ExampleHandle_registrationError() {
	app := core.New()
	err := mvc.Register(mvc.New(app.Router), new(HelloController)) // no Greeter registered
	fmt.Println(err)
	fmt.Println(app.Build() != nil)
	// Output:
	// mvc: mvc_test.HelloController: field Greeter: no dependency of type mvc_test.Greeter registered
	// true
}
