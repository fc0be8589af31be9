// Command vireo is the simple comparison on Vireo: a plain handler on
// GET /api/values/{id} writing "value" as text/plain, served by the
// framework's own server (Listen: default timeouts, graceful shutdown).
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
)

func main() {
	app := vireo.New()
	app.Get("/api/values/{id}", func(ctx vireo.Context) {
		ctx.Text("value")
	})
	if err := app.Listen("127.0.0.1:" + port()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func port() string {
	if p := os.Getenv("PORT"); p != "" {
		return p
	}
	return "5000"
}
