// Command iris-sessions is the sessions comparison on Iris v12: GET /setget
// starts a session, sets "key" to "value",
// reads it back and writes it. Sessions live in memory with no expiry
// (Iris's default store). A request without a cookie gets a new
// session and its Set-Cookie, as with the other stacks.
package main

import (
	"fmt"
	"net"
	"os"

	"github.com/kataras/iris/v12"
	"github.com/kataras/iris/v12/sessions"
)

func main() {
	app := iris.New()
	app.Logger().SetLevel("disable")
	// Expires -1 makes a browser-session cookie (no Expires/Max-Age), like
	// the other stacks' defaults. DisableSubdomainPersistence keeps Iris
	// from setting Domain=<host:port>, which net/http rejects with a log
	// line on every request.
	sess := sessions.New(sessions.Config{Cookie: "sessionid", Expires: -1, DisableSubdomainPersistence: true})
	app.Get("/setget", func(ctx iris.Context) {
		s := sess.Start(ctx)
		s.Set("key", "value")
		ctx.ContentType("text/plain; charset=utf-8")
		ctx.WriteString(s.GetString("key"))
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
