// Command vireo-fast-mvc-templates is, on Vireo's fasthttp engine
// (vireo.WithEngine(fast.Engine()), nothing else differs), the templates
// comparison on Vireo: an MVC controller returns an mvc.View of index.html,
// which the html/template engine renders inside views/layouts/layout.html
// (the layout calls {{ yield . }}). The views are embedded and parsed once
// at startup; they are copies of expected/views-html, which the test keeps
// in sync.
//
// The view data is a struct, as a Vireo application should pass it:
// html/template reads a struct field directly, while a map[string]any costs
// a map lookup through reflection and allocations on every render.
// vireo-mvc-templates-map is this app with the map of the original
// article's Iris app.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

// HomeController serves the site root.
type HomeController struct{}

// page is the data of the index page.
type page struct {
	Title string
}

// Get handles GET / with the index page, passing the title as data.
func (c *HomeController) Get() mvc.View {
	return mvc.View{Name: "index.html", Data: page{Title: "Home Page"}}
}

func main() {
	root, err := fs.Sub(views, "views")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	app := vireo.New(vireo.WithEngine(fast.Engine()))
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
