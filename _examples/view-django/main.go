// Command view-django renders pages with the Django-syntax engine
// (pongo2): pages extend a base template and fill its blocks, include
// partials (with their own variables), use builtin and custom filters,
// and see engine globals. Templates are embedded in the binary.
//
//	go run ./_examples/view-django
//	open http://127.0.0.1:8080/
package main

import (
	"cmp"
	"embed"
	"io/fs"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/flosch/pongo2/v6"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

// Post is the model the pages show.
type Post struct {
	Slug, Title, Body string
}

var posts = []Post{
	{Slug: "hello-vireo", Title: "hello, vireo", Body: "Vireo is a small web framework on net/http.\nIt has views, sessions and MVC."},
	{Slug: "escaping", Title: "escaping works", Body: "Data such as <b>this</b> is escaped unless marked safe."},
}

// indexPage is the data of index.html. Pages get structs rather than
// maps: the data is typed and the templates' variables are documented
// here. (The Django engine turns a struct into a pongo2.Context, one small
// map per render, so unlike the HTML engine it does not render a struct
// faster than a map[string]any.)
type indexPage struct {
	Heading string
	Posts   []Post
}

// notFoundPage is the data of 404.html.
type notFoundPage struct {
	Path string `view:"path"`
}

// showPage is the data of posts/show.html; the view tags name the template
// variables.
type showPage struct {
	Post   Post     `view:"post"`
	Author string   `view:"author"`
	Tags   []string `view:"tags"`
	Secret string   `view:"-"` // never visible to the template
}

// readTime is a custom filter: "N min read" at 200 words a minute.
// pongo2 keeps filters per process, so the name must be unique.
func readTime(in *pongo2.Value, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
	minutes := len(strings.Fields(in.String()))/200 + 1
	return pongo2.AsValue(strconv.Itoa(minutes) + " min read"), nil
}

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()
	// A template syntax error, or a filter name pongo2 already has, is
	// returned by NewDjango; the templates are embedded, so either is a bug
	// of this program and MustNewDjango panics with it.
	engine := view.MustNewDjango(mustSub(views, "views"), ".html",
		view.WithGlobals(map[string]any{"SiteName": "Vireo blog"}),
		view.WithFilter("readtime", readTime))
	app.RegisterView(engine)

	app.Get("/", func(ctx vireo.Context) {
		ctx.View("index.html", indexPage{Heading: "Latest posts", Posts: posts})
	})
	app.Get("/posts/{slug}", func(ctx vireo.Context) {
		for _, p := range posts {
			if p.Slug == ctx.Param("slug") {
				ctx.View("posts/show.html", showPage{Post: p, Author: "ann", Tags: []string{"go", "web"}, Secret: "hidden"})
				return
			}
		}
		ctx.StopWithStatus(http.StatusNotFound)
	})
	app.OnErrorCode(http.StatusNotFound, func(ctx vireo.Context) {
		ctx.View("404.html", notFoundPage{Path: ctx.Path()})
	})
	return app
}

// mustSub returns the subtree dir of fsys. It only fails for an invalid
// name, a programming error, hence the panic, as template.Must does.
func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

func main() {
	if err := newApp().Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
