// The services the controllers depend on, registered once on the MVC
// application and injected by type: a Greeter (an interface, so the
// controller does not care which implementation it gets), a book
// repository, and a per-request Admin provided from the request headers.

package main

import (
	"crypto/subtle"
	"net/http"
	"sort"
	"sync"

	"github.com/vireo-go/vireo"
)

// Greeter makes greetings.
type Greeter interface {
	Greet(name string) string
}

// englishGreeter is the Greeter main registers.
type englishGreeter struct{}

func (englishGreeter) Greet(name string) string { return "Hello, " + name + "!" }

// Book is the model of the books API.
type Book struct {
	ID     int    `json:"id"`
	Title  string `json:"title"`
	Author string `json:"author"`
}

// BookRepository keeps books in memory; it is shared by all requests, so
// it locks.
type BookRepository struct {
	mu     sync.RWMutex
	books  map[int]Book
	nextID int
}

// NewBookRepository returns a repository holding seed.
func NewBookRepository(seed ...Book) *BookRepository {
	r := &BookRepository{books: map[int]Book{}, nextID: 1}
	for _, b := range seed {
		r.Add(b)
	}
	return r
}

// All returns the books ordered by ID.
func (r *BookRepository) All() []Book {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Book, 0, len(r.books))
	for _, b := range r.books {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Get returns the book with id.
func (r *BookRepository) Get(id int) (Book, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, ok := r.books[id]
	return b, ok
}

// Add stores b under a new ID and returns it.
func (r *BookRepository) Add(b Book) Book {
	r.mu.Lock()
	defer r.mu.Unlock()
	b.ID = r.nextID
	r.nextID++
	r.books[b.ID] = b
	return b
}

// Delete removes the book with id, reporting whether it existed.
func (r *BookRepository) Delete(id int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.books[id]
	delete(r.books, id)
	return ok
}

// Admin is the authenticated administrator of a request.
type Admin struct{ Name string }

// adminProvider returns a provider of *Admin: a method asking for an
// *Admin runs only when the request carries the token; otherwise the
// provider's error answers 401 and the method is never called.
func adminProvider(token string) func(vireo.Context) (*Admin, error) {
	return func(ctx vireo.Context) (*Admin, error) {
		if subtle.ConstantTimeCompare([]byte(ctx.RequestHeader("X-Admin-Token")), []byte(token)) != 1 {
			return nil, vireo.NewHTTPError(http.StatusUnauthorized, "admin token required")
		}
		return &Admin{Name: "root"}, nil
	}
}
