// Command middleware shows Vireo middleware: request logging with
// middleware.RequestLogger and request IDs from the middleware package (on
// every log line of a request, and readable by error pages), basic
// authentication on a group, a standard net/http middleware mounted
// through vireo.WrapMiddleware, and panic recovery with a custom 500 page.
// _examples/api-server uses the rest of the middleware package.
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
	"cmp"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
)

// newApp builds the application, logging to logOut; main serves it and the
// test drives it through httptest.
func newApp(logOut io.Writer) *vireo.Application {
	logger := slog.New(slog.NewTextHandler(logOut, nil))
	// The application logger receives recovered panics with their stack.
	app := vireo.New(vireo.WithLogger(logger))

	// UseBeforeRouting middleware runs before routing, for every request, so
	// 404s are logged too. RequestID runs next and gives each request an
	// ID (the client's X-Request-ID when it is sane), which RequestLogger
	// adds to its line.
	app.UseBeforeRouting(middleware.RequestLogger(logger), middleware.MustRequestID())

	app.Get("/", func(ctx vireo.Context) {
		ctx.Logger().Info("saying hello") // a handler's own line, with the request ID
		ctx.Text("hello; your request ID is " + ctx.RequestID())
	})
	app.Get("/panic", func(ctx vireo.Context) {
		// A panic anywhere in a handler is recovered by the core: the
		// client gets the 500 page below, the details go to the log only.
		panic(fmt.Errorf("database connection lost (dsn=postgres://app:hunter2@db)"))
	})
	// RequestLogger logs that request with status 500, and the core logs
	// the panic itself, as "vireo: panic recovered" with the stack, on the
	// application logger.

	// The admin group is guarded by middleware.BasicAuth (passwords
	// compared as SHA-256 digests in constant time; 401 with a
	// WWW-Authenticate challenge otherwise); its handlers find the
	// authenticated user with middleware.BasicAuthUser.
	// noIndex is a standard net/http middleware (see noindex.go), mounted
	// with vireo.WrapMiddleware.
	admin := app.Group("/admin", vireo.WrapMiddleware(noIndex), middleware.MustBasicAuth(
		middleware.WithRealm("admin"),
		middleware.WithUsers(map[string]string{"admin": "admin", "ann": "s3cret"})))
	admin.Get("/", func(ctx vireo.Context) {
		ctx.Text("welcome to the admin area, " + middleware.BasicAuthUser(ctx))
	})

	// A panic becomes a 500 without a body; this handler writes the page.
	// The panic's details are logged, never shown to the client.
	app.OnErrorCode(http.StatusInternalServerError, func(ctx vireo.Context) {
		ctx.HTML("<h1>Something went wrong</h1><p>The error was logged with request ID " +
			ctx.RequestID() + ".</p>")
	})
	return app
}

func main() {
	if err := newApp(os.Stderr).Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
