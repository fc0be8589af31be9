// Command vireo-fast is the simple comparison on Vireo's fasthttp engine:
// the vireo app's handler (GET /api/values/{id} writing "value" as
// text/plain), only the engine differs (vireo.WithEngine(fast.Engine()):
// Listen's default timeouts and graceful shutdown, served by fasthttp).
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/fast"
)

func main() {
	app := vireo.New(vireo.WithEngine(fast.Engine()))
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
