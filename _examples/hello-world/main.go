// Command hello-world is the smallest Vireo application: one route that
// greets, one with a path parameter and a query parameter.
//
//	go run ./_examples/hello-world
//	curl http://127.0.0.1:8080/
//	curl http://127.0.0.1:8080/hello/ann?greeting=Hi
//
// Like every example it listens on $ADDR, else on 127.0.0.1:8080 (loopback,
// so that trying it never exposes it to the network):
//
//	ADDR=127.0.0.1:9000 go run ./_examples/hello-world
package main

import (
	"cmp"
	"log"
	"os"

	"github.com/vireo-go/vireo"
)

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()
	app.Get("/", func(ctx vireo.Context) {
		ctx.Text("Hello, World!")
	})
	app.Get("/hello/{name}", func(ctx vireo.Context) {
		greeting := ctx.QueryDefault("greeting", "Hello")
		ctx.Text(greeting + ", " + ctx.Param("name") + "!")
	})
	return app
}

func main() {
	if err := newApp().Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
