// Command iris is the simple comparison on Iris v12 with a plain handler:
// logger disabled, Iris's own startup message off (this app prints the
// readiness lines itself, like every other app), router built before the
// readiness lines are printed.
package main

import (
	"fmt"
	"net"
	"os"

	"github.com/kataras/iris/v12"
)

func main() {
	app := iris.New()
	app.Logger().SetLevel("disable")
	app.Get("/api/values/{id}", func(ctx iris.Context) {
		ctx.ContentType("text/plain; charset=utf-8")
		ctx.WriteString("value")
	})

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	if err := app.Build(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := app.Run(iris.Listener(ln), iris.WithoutStartupLog, iris.WithoutServerError(iris.ErrServerClosed)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
