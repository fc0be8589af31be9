// Command routing shows Vireo's router: path parameters, typed parameters,
// wildcards, groups (route groups with their own middleware and error
// pages), and custom 404 and 405 responses.
//
//	go run ./_examples/routing
//	curl http://127.0.0.1:8080/users/42        # typed {id:int}
//	curl http://127.0.0.1:8080/users/ann       # plain {name}
//	curl http://127.0.0.1:8080/files/a/b.txt   # wildcard {path...}
//	curl http://127.0.0.1:8080/api/v1/status   # a group
//	curl -X DELETE http://127.0.0.1:8080/users/42   # 405 with Allow
package main

import (
	"cmp"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/vireo-go/vireo"
)

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()

	// Static segments win over parameters, typed parameters over plain
	// ones and parameters over wildcards, whatever the registration order.
	app.Get("/users/new", func(ctx vireo.Context) {
		ctx.Text("the new-user form")
	})
	app.Get("/users/{id:int}", func(ctx vireo.Context) {
		// The pattern guarantees an int: the error cannot happen here.
		id, _ := ctx.Params().Int("id")
		ctx.Text("user #" + strconv.Itoa(id))
	})
	app.Get("/users/{name}", func(ctx vireo.Context) {
		ctx.Text("user named " + ctx.Param("name"))
	})
	app.Post("/users", func(ctx vireo.Context) {
		ctx.SetStatus(http.StatusCreated)
		ctx.Text("created " + ctx.PostValue("name"))
	})
	app.Get("/posts/{year:uint}/{slug:alpha}", func(ctx vireo.Context) {
		ctx.Text("post " + ctx.Param("slug") + " of " + ctx.Param("year"))
	})
	app.Get("/orders/{id:uuid}", func(ctx vireo.Context) {
		ctx.Text("order " + ctx.Param("id"))
	})
	app.Get("/features/{on:bool}", func(ctx vireo.Context) {
		on, _ := ctx.Params().Bool("on")
		if on {
			ctx.Text("feature enabled")
			return
		}
		ctx.Text("feature disabled")
	})
	// A wildcard takes the rest of the path, slashes included; it may be
	// empty, so /files/ lists the root.
	app.Get("/files/{path...}", func(ctx vireo.Context) {
		p := ctx.Param("path")
		if p == "" {
			ctx.Text("listing of /")
			return
		}
		ctx.Text("file " + p)
	})

	// A group groups routes under a prefix with middleware that runs only
	// for them, and may have its own error pages.
	api := app.Group("/api/v1", func(ctx vireo.Context) {
		ctx.SetResponseHeader("X-API-Version", "1")
		ctx.Next()
	})
	api.Get("/status", func(ctx vireo.Context) {
		ctx.JSON(map[string]string{"status": "ok"})
	})
	admin := api.Group("/admin", requireToken("secret"))
	admin.Get("/stats", func(ctx vireo.Context) {
		ctx.JSON(map[string]int{"users": 2})
	})
	// Unmatched paths under /api get a JSON 404, the rest an HTML page.
	api.OnErrorCode(http.StatusNotFound, func(ctx vireo.Context) {
		ctx.JSON(map[string]string{"error": "no such endpoint", "path": ctx.Path()})
	})

	app.OnErrorCode(http.StatusNotFound, func(ctx vireo.Context) {
		ctx.HTML("<h1>Page not found</h1><p>Try <a href=\"/users/42\">/users/42</a>.</p>")
	})
	// The router has already set the Allow header when this runs.
	app.OnErrorCode(http.StatusMethodNotAllowed, func(ctx vireo.Context) {
		ctx.Text("method " + ctx.Method() + " is not allowed here; use one of: " +
			ctx.ResponseHeader().Get("Allow"))
	})
	return app
}

// requireToken is group middleware: without the right bearer token the
// chain stops with 401 and the route's handler never runs.
func requireToken(token string) vireo.Handler {
	return func(ctx vireo.Context) {
		if ctx.RequestHeader("Authorization") != "Bearer "+token {
			ctx.SetResponseHeader("WWW-Authenticate", "Bearer")
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.Next()
	}
}

func main() {
	if err := newApp().Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
