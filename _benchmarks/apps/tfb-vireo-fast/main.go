// Command tfb-vireo-fast is TechEmpower's six test types on Vireo's
// fasthttp engine: the tfb-vireo app with the engine changed
// (vireo.WithEngine(fast.Engine(...))) and the Server header the engine's
// (fast.ServerName, as Fiber's entry sets fiber.Config's ServerHeader;
// tfb-vireo sets it in a router middleware): routes on the app, JSON through
// ctx.JSON, the fortunes page through the view package's html/template
// engine (embedded views, parsed once), and pgx for PostgreSQL (db.go). The
// database calls take ctx.RequestContext(), as in tfb-vireo: on this engine
// the request's context alone, without the *http.Request that ctx.Request()
// would build (the apps took ctx.Request().Context() before RequestContext
// existed, which built it for every database request). It serves
// /plaintext, /json, /db, /queries?queries=N, /fortunes and
// /updates?queries=N on 127.0.0.1:$PORT with the database at $DATABASE_URL.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

type message struct {
	Message string `json:"message"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	db, err := connect(context.Background())
	if err != nil {
		return err
	}
	defer db.Close()
	root, err := fs.Sub(views, "views")
	if err != nil {
		return err
	}
	engine, err := view.NewHTML(root, ".html")
	if err != nil {
		return err
	}
	// The Server header from the engine, as Fiber's entry takes it from
	// fiber.Config (fasthttp's Server.Name).
	app := vireo.New(vireo.WithEngine(fast.Engine(fast.ServerName("Vireo"))))
	if err := app.RegisterView(engine); err != nil {
		return err
	}
	routes(app, db)
	return app.Listen("127.0.0.1:" + port())
}

func routes(app *vireo.Application, db *pgxpool.Pool) {
	app.Get("/plaintext", func(ctx vireo.Context) {
		ctx.Text("Hello, World!")
	})
	app.Get("/json", func(ctx vireo.Context) {
		ctx.JSON(message{Message: "Hello, World!"})
	})
	app.Get("/db", func(ctx vireo.Context) {
		w, err := oneWorld(ctx.RequestContext(), db)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(w)
	})
	app.Get("/queries", func(ctx vireo.Context) {
		ws, err := worlds(ctx.RequestContext(), db, parseQueries(ctx.Query("queries")))
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(ws)
	})
	app.Get("/updates", func(ctx vireo.Context) {
		ws, err := updateWorldRows(ctx.RequestContext(), db, parseQueries(ctx.Query("queries")))
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(ws)
	})
	app.Get("/fortunes", func(ctx vireo.Context) {
		fs, err := fortunes(ctx.RequestContext(), db)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.View("fortunes.html", fs)
	})
}

func port() string {
	if p := os.Getenv("PORT"); p != "" {
		return p
	}
	return "5000"
}
