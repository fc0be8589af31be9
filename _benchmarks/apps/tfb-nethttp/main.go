// Command tfb-nethttp is TechEmpower's six test types on the standard
// library alone, the floor of the comparison: a Go 1.22+ ServeMux, the
// headers assigned to the header map directly (canonical keys, shared
// values), JSON by encoding/json into a buffer written with its
// Content-Length, the fortunes page by html/template parsed once, and pgx
// for PostgreSQL (db.go). The http.Server has the limits Vireo's Serve sets
// by default, so Vireo ÷ this app prices the framework.
package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed views/fortunes.html
var views embed.FS

var (
	server          = []string{"Go"}
	textPlain       = []string{"text/plain; charset=utf-8"}
	applicationJSON = []string{"application/json"}
	textHTML        = []string{"text/html; charset=utf-8"}
	helloWorld      = []byte("Hello, World!")
)

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

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

func routes(db *pgxpool.Pool, page *template.Template) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /plaintext", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Server"], h["Content-Type"] = server, textPlain
		w.Write(helloWorld)
	})
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, message{Message: "Hello, World!"})
	})
	mux.HandleFunc("GET /db", func(w http.ResponseWriter, r *http.Request) {
		world, err := oneWorld(r.Context(), db)
		if err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, world)
	})
	mux.HandleFunc("GET /queries", func(w http.ResponseWriter, r *http.Request) {
		ws, err := worlds(r.Context(), db, parseQueries(r.URL.Query().Get("queries")))
		if err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, ws)
	})
	mux.HandleFunc("GET /updates", func(w http.ResponseWriter, r *http.Request) {
		ws, err := updateWorldRows(r.Context(), db, parseQueries(r.URL.Query().Get("queries")))
		if err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, ws)
	})
	mux.HandleFunc("GET /fortunes", func(w http.ResponseWriter, r *http.Request) {
		fs, err := fortunes(r.Context(), db)
		if err != nil {
			fail(w, err)
			return
		}
		buf := buffers.Get().(*bytes.Buffer)
		defer func() { buf.Reset(); buffers.Put(buf) }()
		if err := page.Execute(buf, fs); err != nil {
			fail(w, err)
			return
		}
		write(w, textHTML, buf.Bytes())
	})
	return mux
}

// writeJSON encodes v into a pooled buffer and writes it with its length.
func writeJSON(w http.ResponseWriter, v any) {
	buf := buffers.Get().(*bytes.Buffer)
	defer func() { buf.Reset(); buffers.Put(buf) }()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		fail(w, err)
		return
	}
	write(w, applicationJSON, buf.Bytes())
}

func write(w http.ResponseWriter, contentType []string, body []byte) {
	h := w.Header()
	h["Server"], h["Content-Type"] = server, contentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.Write(body)
}

func fail(w http.ResponseWriter, err error) {
	w.Header()["Server"] = server
	http.Error(w, err.Error(), http.StatusInternalServerError)
}

// newServer returns the server with the limits Vireo's Serve sets by
// default (see apps/nethttp; the test compares them): ReadTimeout and
// WriteTimeout stay zero, as Vireo's do.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}
