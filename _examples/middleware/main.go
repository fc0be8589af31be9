// Command middleware shows Vireo middleware: request logging with
// vireo.RequestLogger, an authentication middleware on a party, a standard
// net/http middleware mounted through vireo.FromStd, and panic recovery
// with a custom 500 page.
//
//	go run ./_examples/middleware
//	curl -i http://127.0.0.1:8080/
//	curl -i -u admin:admin http://127.0.0.1:8080/admin
//	curl -i http://127.0.0.1:8080/panic      # recovered: 500 page, server keeps serving
//
// A middleware is an ordinary handler that calls ctx.Next() to run the rest
// of the chain (and may act after it returns) or does not call it to stop
// the chain.
package main

import (
	"crypto/subtle"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"

	"github.com/vireo-go/vireo"
)

// newApp builds the application, logging to logOut; main serves it and the
// test drives it through httptest.
func newApp(logOut io.Writer) *vireo.Application {
	logger := slog.New(slog.NewTextHandler(logOut, nil))
	// The application logger receives recovered panics with their stack.
	app := vireo.New(vireo.WithLogger(logger))

	// UseRouter middleware runs before routing, for every request, so
	// 404s are logged too. The standard net/http middleware runs next and
	// gives each request an ID.
	app.UseRouter(vireo.RequestLogger(logger))
	app.UseRouter(vireo.FromStd(requestID))

	app.Get("/", func(ctx *vireo.Context) {
		ctx.Text("hello; your request ID is " + requestIDFrom(ctx.Request()))
	})
	app.Get("/panic", func(ctx *vireo.Context) {
		// A panic anywhere in a handler is recovered by the core: the
		// client gets the 500 page below, the details go to the log only.
		panic(fmt.Errorf("database connection lost (dsn=postgres://app:hunter2@db)"))
	})
	// RequestLogger logs that request with status 500, and the core logs
	// the panic itself, as "vireo: panic recovered" with the stack, on the
	// application logger.

	// The admin party is guarded by basicAuth; its handlers find the
	// authenticated user in the request-scoped values.
	admin := app.Party("/admin", basicAuth(map[string]string{"admin": "admin", "ann": "s3cret"}))
	admin.Get("/", func(ctx *vireo.Context) {
		ctx.Text("welcome to the admin area, " + ctx.Values().GetString(userKey))
	})

	// A panic becomes a 500 without a body; this handler writes the page.
	// The panic's details are logged, never shown to the client.
	app.OnErrorCode(http.StatusInternalServerError, func(ctx *vireo.Context) {
		ctx.HTML("<h1>Something went wrong</h1><p>The error was logged with request ID " +
			requestIDFrom(ctx.Request()) + ".</p>")
	})
	return app
}

func main() {
	if err := newApp(os.Stderr).Listen(listenAddr()); err != nil {
		log.Fatal(err)
	}
}

// listenAddr returns the address to serve on: $ADDR if set, else
// 127.0.0.1:$PORT, else 127.0.0.1:8080.
func listenAddr() string {
	if addr := os.Getenv("ADDR"); addr != "" {
		return addr
	}
	if port := os.Getenv("PORT"); port != "" {
		return "127.0.0.1:" + port
	}
	return "127.0.0.1:8080"
}

// userKey is the ctx.Values() key under which basicAuth stores the user.
const userKey = "user"

// basicAuth returns middleware that admits requests carrying HTTP Basic
// credentials of one of users (name -> password) and answers 401 to the
// rest. Passwords are compared in constant time so response timing does
// not reveal how much of a guess was right.
func basicAuth(users map[string]string) vireo.Handler {
	return func(ctx *vireo.Context) {
		name, pass, ok := ctx.Request().BasicAuth()
		want, known := users[name]
		if !ok || !known || subtle.ConstantTimeCompare([]byte(pass), []byte(want)) != 1 {
			ctx.SetResponseHeader("WWW-Authenticate", `Basic realm="admin", charset="UTF-8"`)
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.Values().Set(userKey, name)
		ctx.Next()
	}
}
