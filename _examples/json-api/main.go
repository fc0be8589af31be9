// Command json-api is a JSON REST API over an in-memory store: list,
// read, create, replace and delete albums, with request validation
// answered as 400 with a JSON body and JSON 404s.
//
//	go run ./_examples/json-api
//	curl http://127.0.0.1:8080/albums
//	curl -i -H 'Content-Type: application/json' -d '{"title":"Kind of Blue","artist":"Miles Davis","year":1959}' http://127.0.0.1:8080/albums
//	curl -i -H 'Content-Type: application/json' -d '{"title":""}' http://127.0.0.1:8080/albums   # 400 with the failing fields
//	curl -i -X DELETE http://127.0.0.1:8080/albums/1
//
// A body sent without that header (curl -d alone sends a form's
// Content-Type) is refused with 415 Unsupported Media Type.
package main

import (
	"cmp"
	"log"
	"net/http"
	"os"

	"github.com/vireo-go/vireo"
)

// bodyLimit caps request bodies: an album is far smaller, and a client
// sending megabytes gets 413 before the server reads them.
const bodyLimit = 64 << 10

// newApp builds the application over albums; main serves it and the test
// drives it through httptest.
func newApp(albums *store) *vireo.Application {
	app := vireo.New(vireo.WithBodyLimit(bodyLimit))
	h := &api{albums: albums}

	r := app.Group("/albums")
	r.Get("/", h.list)
	r.Post("/", h.create)
	r.Get("/{id:int}", h.get)
	r.Put("/{id:int}", h.update)
	r.Delete("/{id:int}", h.delete)

	for _, code := range jsonErrorCodes {
		app.OnErrorCode(code, jsonError)
	}
	app.Get("/", func(ctx vireo.Context) {
		ctx.Redirect("/albums", http.StatusFound)
	})
	return app
}

func main() {
	albums := newStore(
		Album{Title: "Blue Train", Artist: "John Coltrane", Year: 1958},
		Album{Title: "Jeru", Artist: "Gerry Mulligan", Year: 1962},
	)
	if err := newApp(albums).Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
