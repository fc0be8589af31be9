// Command http-interop shows that Vireo and net/http mix both ways:
//
//   - a Vireo application is an http.Handler, so it can live inside a
//     standard http.ServeMux (here under /v2/);
//
//   - any http.Handler runs inside Vireo: one handler per route with
//     vireo.WrapHandler (reading route parameters with r.PathValue thanks to
//     vireo.WithPathValues), or a whole subtree with Mount.
//
//     go run ./_examples/http-interop
//     curl http://127.0.0.1:8080/healthz            # std mux
//     curl http://127.0.0.1:8080/v2/users/7         # Vireo route, std handler
//     curl http://127.0.0.1:8080/v2/legacy/hello/ann  # std mux mounted in Vireo
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vireo-go/vireo"
)

// newApp builds the Vireo application; newMux puts it inside a standard
// mux. main serves the mux and the test drives it through httptest.
func newApp() *vireo.Application {
	// WithPathValues copies route parameters into the request so that
	// net/http handlers read them with r.PathValue.
	app := vireo.New(vireo.WithPathValues())

	app.Get("/hello", func(ctx vireo.Context) {
		ctx.Text("hello from Vireo, path " + ctx.Path())
	})
	// A plain net/http handler serving a typed Vireo route.
	app.Get("/users/{id:int}", vireo.WrapHandler(http.HandlerFunc(userHandler)))
	// A whole net/http tree under /legacy: Mount strips the prefix, so
	// the mux sees /hello/ann. Any method reaches it.
	app.Mount("/legacy", legacyMux())
	// Vireo handlers can also use net/http functions directly.
	app.Get("/teapot", func(ctx vireo.Context) {
		http.Error(ctx.ResponseWriter(), "I'm a teapot", http.StatusTeapot)
	})
	return app
}

// userHandler is ordinary net/http code; it knows nothing of Vireo.
func userHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"id": r.PathValue("id"), "served_by": "net/http handler"})
}

// legacyMux is an existing net/http application, with Go 1.22 patterns.
func legacyMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("legacy hello, " + r.PathValue("name") + " (path " + r.URL.Path + ")"))
	})
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		var v any
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&v); err != nil {
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	})
	return mux
}

// newMux is the outer, standard server: it owns /healthz and hands
// everything under /v2/ to Vireo with the prefix stripped.
func newMux(app *vireo.Application) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("try /healthz (net/http), /v2/hello (Vireo), /v2/users/7 and /v2/legacy/hello/ann\n"))
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok"))
	})
	mux.Handle("/v2/", http.StripPrefix("/v2", app))
	return mux
}

func main() {
	app := newApp()
	// Routes are checked here since app.Listen, which would do it, is not
	// used: the outer server is a plain http.Server.
	if err := app.Build(); err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{
		Addr:              cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080"),
		Handler:           newMux(app),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	// What app.Listen does for a Vireo-only server: stop gracefully on
	// CTRL+C or SIGTERM.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(shutdownCtx)
	}()
	log.Printf("listening on http://%s", srv.Addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
