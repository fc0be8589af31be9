// Command iris-mvc-templates is the templates comparison on Iris v12: an MVC
// controller returns an mvc.View of index.html, which Iris's html/template
// engine renders inside views/layouts/layout.html (the layout calls
// {{ yield . }}). The views are embedded and parsed once at startup; they are
// copies of expected/views-html, which the test keeps in sync.
package main

import (
	"embed"
	"fmt"
	"net"
	"os"

	"github.com/kataras/iris/v12"
	"github.com/kataras/iris/v12/mvc"
)

//go:embed views
var views embed.FS

// HomeController serves the site root.
type HomeController struct{}

// Get handles GET / with the index page, passing the title as data.
func (c *HomeController) Get() mvc.View {
	return mvc.View{Name: "index.html", Data: iris.Map{"Title": "Home Page"}}
}

func main() {
	app := iris.New()
	app.Logger().SetLevel("disable")
	app.RegisterView(iris.HTML(views, ".html").RootDir("views").Layout("layouts/layout.html"))
	mvc.New(app).Handle(new(HomeController))

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	if err := app.Build(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := app.Run(iris.Listener(ln), iris.WithoutStartupLog, iris.WithoutServerError(iris.ErrServerClosed)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
