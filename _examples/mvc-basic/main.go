// Command mvc-basic shows MVC controllers: routes named after methods,
// dependency injection by type, results written by type, an explicit
// route and middleware from BeforeRegister, and a per-request
// dependency that authenticates.
//
//	go run ./_examples/mvc-basic
//	curl http://127.0.0.1:8080/ann                 # HelloController.GetByName
//	curl http://127.0.0.1:8080/books/1             # BooksController.GetByID
//	curl -H 'Content-Type: application/json' -d '{"title":"Go","author":"Ann"}' http://127.0.0.1:8080/books
//	curl -X DELETE -H 'X-Admin-Token: let-me-in' http://127.0.0.1:8080/books/1
//
// The Content-Type header matters: curl -d alone sends
// application/x-www-form-urlencoded, and a request body is decoded by its
// Content-Type (JSON, or a form), so the JSON above would be read as a form
// without it. main_test.go runs these commands as written.
//
// Routes:
//
//	HelloController.Get              GET /
//	HelloController.GetByName        GET /{name}
//	HelloController.GetPing          GET /ping
//	BooksController.Get              GET /books
//	BooksController.GetByID          GET /books/{id:int}
//	BooksController.GetAuthorByName  GET /books/author/{name}
//	BooksController.Post             POST /books
//	BooksController.DeleteByID       DELETE /books/{id:int}
//	BooksController.Search           GET /books/search (explicit)
//
// and GET /openapi.json, the OpenAPI 3.1 document of these routes, each
// described from its method's signature.
package main

import (
	"cmp"
	"log"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/openapi"
)

// newApp builds the application over repo; main serves it and the test
// drives it through httptest.
func newApp(repo *BookRepository, adminToken string) *vireo.Application {
	// The OpenAPI document of the controllers' routes, at /openapi.json.
	app := vireo.New(vireo.WithOpenAPI("", openapi.Info{Title: "mvc-basic", Version: "1.0.0",
		License: &openapi.License{Name: "MIT", Identifier: "MIT"}}))

	m := mvc.New(app.Router)
	// Values are injected by type (an interface field gets a registered
	// value implementing it); funcs of the context are per-request
	// providers.
	m.Provide(englishGreeter{}, repo, adminProvider(adminToken))

	// Register returns registration problems (a method that cannot be
	// routed, an input nothing provides), each naming the controller and
	// method. They are also recorded by the application, whose Build and
	// Listen refuse to start with them, so main need not check here.
	mvc.Register(m.Group("/books"), new(BooksController))
	mvc.Register(m, new(HelloController))
	return app
}

func main() {
	repo := NewBookRepository(
		Book{Title: "The Go Programming Language", Author: "Donovan"},
		Book{Title: "Learning Go", Author: "Bodner"},
	)
	token := cmp.Or(os.Getenv("ADMIN_TOKEN"), "let-me-in") // for DELETE (X-Admin-Token)
	if err := newApp(repo, token).Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
