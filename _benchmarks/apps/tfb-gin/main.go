// Command tfb-gin is TechEmpower's six test types on Gin, as Gin's own
// TechEmpower entry writes them (frameworks/Go/gin/gin-std) but on
// PostgreSQL with pgx (db.go): gin.New() in release mode, a middleware
// that sets the Server header, c.JSON, c.String, and the fortunes page by
// c.HTML from the html/template Gin was given (embedded, parsed once).
package main

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed views/fortunes.html
var views embed.FS

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
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.SetHTMLTemplate(page)
	routes(r, db)
	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return err
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	return r.RunListener(ln)
}

func routes(r *gin.Engine, db *pgxpool.Pool) {
	server := []string{"Gin"}
	r.Use(func(c *gin.Context) {
		c.Writer.Header()["Server"] = server
	})
	r.GET("/plaintext", func(c *gin.Context) {
		c.String(http.StatusOK, "Hello, World!")
	})
	r.GET("/json", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"message": "Hello, World!"})
	})
	r.GET("/db", func(c *gin.Context) {
		w, err := oneWorld(c.Request.Context(), db)
		if err != nil {
			c.AbortWithError(http.StatusInternalServerError, err)
			return
		}
		c.JSON(http.StatusOK, w)
	})
	r.GET("/queries", func(c *gin.Context) {
		ws, err := worlds(c.Request.Context(), db, parseQueries(c.Query("queries")))
		if err != nil {
			c.AbortWithError(http.StatusInternalServerError, err)
			return
		}
		c.JSON(http.StatusOK, ws)
	})
	r.GET("/updates", func(c *gin.Context) {
		ws, err := updateWorldRows(c.Request.Context(), db, parseQueries(c.Query("queries")))
		if err != nil {
			c.AbortWithError(http.StatusInternalServerError, err)
			return
		}
		c.JSON(http.StatusOK, ws)
	})
	r.GET("/fortunes", func(c *gin.Context) {
		fs, err := fortunes(c.Request.Context(), db)
		if err != nil {
			c.AbortWithError(http.StatusInternalServerError, err)
			return
		}
		c.HTML(http.StatusOK, "fortunes.html", fs)
	})
}
