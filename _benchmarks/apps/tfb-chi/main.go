// Command tfb-chi is TechEmpower's six test types on chi, as chi's
// TechEmpower entry writes them (frameworks/Go/chi) but with pgx (db.go):
// a chi.Router with a middleware that sets the Server header, handlers of
// net/http, JSON by encoding/json, and the fortunes page by html/template
// (chi has no template engine of its own), parsed once and embedded. The
// http.Server has the limits of the net/http floor.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/go-chi/chi/v5"
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
	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return err
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	return newServer(routes(db, page)).Serve(ln)
}

// newServer returns the server with the limits of the net/http floor,
// which are Vireo's defaults (the test compares them).
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}

func routes(db *pgxpool.Pool, page *template.Template) chi.Router {
	r := chi.NewRouter()
	r.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Server", "chi")
			next.ServeHTTP(w, r)
		})
	})
	r.Get("/plaintext", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("Hello, World!"))
	})
	r.Get("/json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, message{Message: "Hello, World!"})
	})
	r.Get("/db", func(w http.ResponseWriter, r *http.Request) {
		world, err := oneWorld(r.Context(), db)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, world)
	})
	r.Get("/queries", func(w http.ResponseWriter, r *http.Request) {
		ws, err := worlds(r.Context(), db, parseQueries(r.URL.Query().Get("queries")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, ws)
	})
	r.Get("/updates", func(w http.ResponseWriter, r *http.Request) {
		ws, err := updateWorldRows(r.Context(), db, parseQueries(r.URL.Query().Get("queries")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, ws)
	})
	r.Get("/fortunes", func(w http.ResponseWriter, r *http.Request) {
		fs, err := fortunes(r.Context(), db)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page.Execute(w, fs)
	})
	return r
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
