// Command static-files serves a site embedded in the binary with embed.FS
// through HandleDir, next to an API route.
//
//	go run ./_examples/static-files
//	open http://127.0.0.1:8080/
//	curl -i http://127.0.0.1:8080/css/style.css
//
// HandleDir serves GET and HEAD with ETag, Last-Modified, Range and
// conditional requests, serves index.html for directories, and refuses
// paths that try to leave the root (dot segments, encoded slashes).
package main

import (
	"cmp"
	"embed"
	"io/fs"
	"log"
	"os"
	"time"

	"github.com/vireo-go/vireo"
)

// public holds the site; only what is under public/ is embedded, so the
// program's own sources can never be served.
//
//go:embed public
var public embed.FS

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()
	// Serve public/ at the root: public/css/style.css is /css/style.css.
	site, err := fs.Sub(public, "public")
	if err != nil {
		panic(err) // "public" is a constant, valid name: cannot happen
	}
	app.HandleDir("/", site)

	// Static routes win over the file wildcard, so the API coexists with
	// the files served at the root.
	app.Get("/api/time", func(ctx vireo.Context) {
		ctx.JSON(map[string]string{"time": time.Now().UTC().Format(time.RFC3339)})
	})
	return app
}

func main() {
	if err := newApp().Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
