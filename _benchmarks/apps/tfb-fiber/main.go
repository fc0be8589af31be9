// Command tfb-fiber is TechEmpower's six test types on Fiber v2 (fasthttp),
// as Fiber's TechEmpower entry writes them (frameworks/Go/fiber/fiber-v2)
// but with pgx (db.go): the Server header from fiber.Config, startup
// message off, c.JSON and c.SendString, and the fortunes page by
// html/template written into the Ctx (Fiber's template engines are a
// separate module, gofiber/template; its TechEmpower entry uses
// quicktemplate), parsed once and embedded.
package main

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"net"
	"os"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed views/fortunes.html
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
	page, err := template.ParseFS(views, "views/fortunes.html")
	if err != nil {
		return err
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true, ServerHeader: "Fiber"})
	routes(app, db, page)
	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return err
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	return app.Listener(ln)
}

func routes(app *fiber.App, db *pgxpool.Pool, page *template.Template) {
	app.Get("/plaintext", func(c *fiber.Ctx) error {
		return c.SendString("Hello, World!")
	})
	app.Get("/json", func(c *fiber.Ctx) error {
		return c.JSON(message{Message: "Hello, World!"})
	})
	app.Get("/db", func(c *fiber.Ctx) error {
		w, err := oneWorld(c.UserContext(), db)
		if err != nil {
			return err
		}
		return c.JSON(w)
	})
	app.Get("/queries", func(c *fiber.Ctx) error {
		ws, err := worlds(c.UserContext(), db, parseQueries(c.Query("queries")))
		if err != nil {
			return err
		}
		return c.JSON(ws)
	})
	app.Get("/updates", func(c *fiber.Ctx) error {
		ws, err := updateWorldRows(c.UserContext(), db, parseQueries(c.Query("queries")))
		if err != nil {
			return err
		}
		return c.JSON(ws)
	})
	app.Get("/fortunes", func(c *fiber.Ctx) error {
		fs, err := fortunes(c.UserContext(), db)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return page.Execute(c, fs)
	})
}
