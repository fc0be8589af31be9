package mvc_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
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

// GetByName serves GET /hello/{name}: the name comes from the path.
func (c *HelloController) GetByName(name string) string { return c.Greeter.Greet(name) }

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
	// GET /hello/{name}
	// POST /hello/shout
	// 200 Hello, world!
	// 200 Hello, ann!
	// 200 {"greeting":"HELLO, BOB!"}
}

// A controller whose input nothing provides is refused at registration,
// with a *core.RegistrationError that Build reports too.
func ExampleRegister_registrationError() {
	app := core.New()
	err := mvc.Register(mvc.New(app.Router), new(HelloController)) // no Greeter registered
	fmt.Println(err)
	fmt.Println(app.Build() != nil)
	// Output:
	// mvc: mvc_test.HelloController: field Greeter: no dependency of type mvc_test.Greeter registered
	// true
}

// BooksController shows the naming rule: the words after By name the
// parameter.
type BooksController struct{}

func (c *BooksController) Get() string           { return "all books" }
func (c *BooksController) GetByID(id int) string { return fmt.Sprint("book ", id) }
func (c *BooksController) GetByIDByPage(id, page int) string {
	return fmt.Sprint("book ", id, " page ", page)
}
func (c *BooksController) GetAuthorByName(name string) string { return "books of " + name }
func (c *BooksController) DeleteByID(id int) int              { return 204 }
func (c *BooksController) Toggle(id int) string               { return fmt.Sprint("toggled ", id) }
func (c *BooksController) BeforeRegister(r mvc.Registrar) {
	r.Handle("POST", "/{id:int}/toggle", "Toggle")
}
func (c *BooksController) GetFilesByWildcard(p string) string { return "file " + p }

// Method names become routes whose parameters are named after the words
// following By, as ASP.NET Core's templates name them; a static segment
// after a parameter is an explicit route. Each route is logged at Debug
// level as it is registered.
func ExampleRegister_names() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	app := core.New(core.WithLogger(logger))
	if err := mvc.Register(mvc.New(app.Group("/books")), new(BooksController)); err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range []string{"/books/7", "/books/7/3", "/books/author/ann"} {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		fmt.Println(path, "->", rec.Body.String())
	}
	// Output:
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.Toggle route="POST /books/{id:int}/toggle"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.DeleteByID route="DELETE /books/{id:int}"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.Get route="GET /books"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.GetAuthorByName route="GET /books/author/{name}"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.GetByID route="GET /books/{id:int}"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.GetByIDByPage route="GET /books/{id:int}/{page:int}"
	// level=DEBUG msg="mvc: route" method=mvc_test.BooksController.GetFilesByWildcard route="GET /books/files/{path:path}"
	// /books/7 -> book 7
	// /books/7/3 -> book 7 page 3
	// /books/author/ann -> books of ann
}
