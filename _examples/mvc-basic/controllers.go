// The controllers. Routes come from method names (Get, GetByID, PostLogin,
// GetAuthorByName...), inputs are bound by type (path parameters, a JSON
// body, registered services) and results are written by type (string,
// struct -> JSON, (T, bool) -> 404 when false, int -> status,
// mvc.Response).

package main

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/mvc"
)

// HelloController is mounted at /. Its Greeter field is injected once, at
// registration, so one instance serves every request (a singleton): it
// must not keep request state in its fields.
type HelloController struct {
	Greeter Greeter
}

// Get serves GET /.
func (c *HelloController) Get() string { return c.Greeter.Greet("world") }

// GetByName serves GET /{name}: a string parameter is a plain segment,
// named after the words following By.
func (c *HelloController) GetByName(name string) string { return c.Greeter.Greet(name) }

// GetPing serves GET /ping: static segments win over the parameter.
func (c *HelloController) GetPing() string { return "pong" }

// BooksController is mounted at /books.
type BooksController struct {
	Repo *BookRepository
}

// bookInput is the JSON body of Post.
type bookInput struct {
	Title  string `json:"title"`
	Author string `json:"author"`
}

// Get serves GET /books: a slice is written as JSON.
func (c *BooksController) Get() []Book { return c.Repo.All() }

// GetByID serves GET /books/{id:int}: an int parameter makes a typed
// segment, so /books/abc is a 404; false answers 404 too.
func (c *BooksController) GetByID(id int) (Book, bool) { return c.Repo.Get(id) }

// GetAuthorByName serves GET /books/author/{name}.
func (c *BooksController) GetAuthorByName(author string) []Book {
	out := []Book{}
	for _, b := range c.Repo.All() {
		if strings.EqualFold(b.Author, author) {
			out = append(out, b)
		}
	}
	return out
}

// Post serves POST /books: the struct parameter is the decoded body (a
// malformed one is a 400 before the method runs).
func (c *BooksController) Post(in bookInput) mvc.Response {
	in.Title, in.Author = strings.TrimSpace(in.Title), strings.TrimSpace(in.Author)
	if in.Title == "" || in.Author == "" {
		return mvc.Response{Code: http.StatusBadRequest, Object: map[string]string{"error": "title and author are required"}}
	}
	b := c.Repo.Add(Book{Title: in.Title, Author: in.Author})
	return mvc.Response{Code: http.StatusCreated, Object: b}
}

// DeleteByID serves DELETE /books/{id:int}, for administrators only:
// asking for an *Admin makes the provider run first. The int result is
// the status.
func (c *BooksController) DeleteByID(id int, _ *Admin) int {
	if !c.Repo.Delete(id) {
		return http.StatusNotFound
	}
	return http.StatusNoContent
}

// Search is routed explicitly in BeforeRegister; its name alone would
// not make it a route.
func (c *BooksController) Search(ctx vireo.Context) []Book {
	q := strings.ToLower(ctx.Query("q"))
	out := []Book{}
	for _, b := range c.Repo.All() {
		if strings.Contains(strings.ToLower(b.Title), q) {
			out = append(out, b)
		}
	}
	return out
}

// BeforeRegister runs once, at registration: it adds middleware to the
// controller's routes and an explicit route.
func (c *BooksController) BeforeRegister(b mvc.Registrar) {
	b.Router().Use(func(ctx vireo.Context) {
		ctx.SetResponseHeader("X-Books-Count", strconv.Itoa(len(c.Repo.All())))
		ctx.Next()
	})
	b.Handle("GET", "/search", "Search")
}
