// Command tfb-echo is TechEmpower's six test types on Echo v4, as Echo's
// TechEmpower entry writes them (frameworks/Go/echo) but with pgx (db.go):
// banner and port message hidden, a middleware that sets the Server
// header, c.JSON, c.String, and the fortunes page by c.Render through an
// echo.Renderer over html/template (Echo's documented way to render
// templates; parsed once, embedded).
package main

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
)

//go:embed views/fortunes.html
var views embed.FS

// renderer renders Echo's templates with html/template.
type renderer struct{ t *template.Template }

func (r renderer) Render(w io.Writer, name string, data any, c echo.Context) error {
	return r.t.ExecuteTemplate(w, name, data)
}

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
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Renderer = renderer{page}
	routes(e, db)
	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return err
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	e.Listener = ln
	return e.Start("")
}

func routes(e *echo.Echo, db *pgxpool.Pool) {
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set(echo.HeaderServer, "Echo")
			return next(c)
		}
	})
	e.GET("/plaintext", func(c echo.Context) error {
		return c.String(http.StatusOK, "Hello, World!")
	})
	e.GET("/json", func(c echo.Context) error {
		return c.JSON(http.StatusOK, message{Message: "Hello, World!"})
	})
	e.GET("/db", func(c echo.Context) error {
		w, err := oneWorld(c.Request().Context(), db)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, w)
	})
	e.GET("/queries", func(c echo.Context) error {
		ws, err := worlds(c.Request().Context(), db, parseQueries(c.QueryParam("queries")))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, ws)
	})
	e.GET("/updates", func(c echo.Context) error {
		ws, err := updateWorldRows(c.Request().Context(), db, parseQueries(c.QueryParam("queries")))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, ws)
	})
	e.GET("/fortunes", func(c echo.Context) error {
		fs, err := fortunes(c.Request().Context(), db)
		if err != nil {
			return err
		}
		return c.Render(http.StatusOK, "fortunes.html", fs)
	})
}
