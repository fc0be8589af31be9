// Command hello-world is the smallest Vireo application: one route that
// greets, one with a path parameter and a query parameter.
//
//	go run ./_examples/hello-world
//	curl http://127.0.0.1:8080/
//	curl http://127.0.0.1:8080/hello/ann?greeting=Hi
package main

import (
	"log"
	"os"

	"github.com/vireo-go/vireo"
)

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()
	app.Get("/", func(ctx *vireo.Context) {
		ctx.Text("Hello, World!")
	})
	app.Get("/hello/{name}", func(ctx *vireo.Context) {
		greeting := ctx.QueryDefault("greeting", "Hello")
		ctx.Text(greeting + ", " + ctx.Param("name") + "!")
	})
	return app
}

func main() {
	if err := newApp().Listen(listenAddr()); err != nil {
		log.Fatal(err)
	}
}

// listenAddr returns the address to serve on: $ADDR if set, else
// 127.0.0.1:$PORT, else 127.0.0.1:8080. Loopback by default so that trying
// an example never exposes it to the network.
func listenAddr() string {
	if addr := os.Getenv("ADDR"); addr != "" {
		return addr
	}
	if port := os.Getenv("PORT"); port != "" {
		return "127.0.0.1:" + port
	}
	return "127.0.0.1:8080"
}
