// Command vireo-mvc-templates-map is vireo-mvc-templates with the view data
// of the original article's Iris app, a map[string]any, where
// vireo-mvc-templates passes a struct: the difference between the two rows
// is what map data costs a render (html/template looks the key up through
// reflection, and the map is built on every request).
//
// As there, an MVC controller returns an mvc.View of index.html, which the
// html/template engine renders inside views/layouts/layout.html (the layout
// calls {{ yield . }}). The views are embedded and parsed once at startup;
// they are copies of expected/views-html, which the test keeps in sync.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

// HomeController serves the site root.
type HomeController struct{}

// Get handles GET / with the index page, passing the title in a map.
func (c *HomeController) Get() mvc.View {
	return mvc.View{Name: "index.html", Data: map[string]any{"Title": "Home Page"}}
}

func main() {
	root, err := fs.Sub(views, "views")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	app := vireo.New()
	engine, err := view.NewHTML(root, ".html", view.WithLayout("layouts/layout.html"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := app.RegisterView(engine); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := mvc.Register(mvc.New(app.Router), new(HomeController)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := app.Listen("127.0.0.1:" + port()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func port() string {
	if p := os.Getenv("PORT"); p != "" {
		return p
	}
	return "5000"
}
