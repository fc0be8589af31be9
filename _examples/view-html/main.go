// Command view-html renders pages with the html/template engine: a default
// layout, a second layout chosen per request, partials, template funcs,
// data every page sees, and templates embedded in the binary.
//
//	go run ./_examples/view-html
//	open http://127.0.0.1:8080/
//
// In the layout, {{ yield . }} is where the page goes; in any template,
// {{ partial "partials/nav.html" . }} includes another one. Template names
// are paths under views/, extension included.
//
// Every page gets a struct as its data, never a map[string]any: the
// template reaches a struct field by index, while a map costs its own
// allocations (2 to 3 per render) and a hashed lookup per {{ .Key }},
// about 1.7K instructions per render on the templates benchmark. The data
// the layout needs (title, menu, current path) is one struct, Layout, that
// every page struct embeds, so {{ .Title }} works in the layout and in the
// page alike.
package main

import (
	"cmp"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

// User is the model the pages show.
type User struct {
	ID           int
	Name         string
	Bio          string
	BalanceCents int
}

// menuItem is an entry of the navigation partial.
type menuItem struct{ Href, Label string }

// Layout is the data of the layouts and their partials. Every page's data
// embeds it, so its fields are the page's too.
type Layout struct {
	Title   string
	AppName string
	Path    string // the request path, to mark the current menu entry
	Menu    []menuItem
}

// layoutFor returns the layout data of a request's page.
func layoutFor(ctx vireo.Context, title string) Layout {
	return Layout{Title: title, AppName: "Vireo demo", Path: ctx.Path(), Menu: menu}
}

var menu = []menuItem{{"/", "Home"}, {"/users/1", "Ann"}, {"/users/2", "Bob"}}

// indexPage is the data of index.html.
type indexPage struct {
	Layout
	Users []User
}

// userPage is the data of users/show.html and fragment.html.
type userPage struct {
	Layout
	User User
}

var users = []User{
	{ID: 1, Name: "Ann", Bio: "Writes Go <and> HTML.", BalanceCents: 123456},
	{ID: 2, Name: "Bob", Bio: `<script>alert("escaped")</script>`, BalanceCents: 99},
}

// funcs are the template functions every template can call.
var funcs = template.FuncMap{
	"upper": strings.ToUpper,
	"year":  func() int { return time.Now().Year() },
	// money formats cents; an error from a func aborts the render, and
	// the core answers 500 without sending any of the page.
	"money": func(cents int) (string, error) {
		if cents < 0 {
			return "", errors.New("money: negative amount")
		}
		return fmt.Sprintf("$%d.%02d", cents/100, cents%100), nil
	},
}

// newApp builds the application; main serves it and the test drives it
// through httptest.
func newApp() *vireo.Application {
	app := vireo.New()
	// The templates are embedded, so an error in them is a bug of this
	// program: MustNewHTML panics with it (a parse error, an unknown
	// partial or a bad layout, naming the file and line). Use NewHTML to
	// get the error instead.
	engine := view.MustNewHTML(mustSub(views, "views"), ".html",
		view.WithLayout("layouts/main.html"),
		view.WithFuncs(funcs))
	app.RegisterView(engine)

	app.Get("/", func(ctx vireo.Context) {
		ctx.View("index.html", indexPage{Layout: layoutFor(ctx, "Users"), Users: users})
	})
	app.Get("/users/{id:int}", func(ctx vireo.Context) {
		u, ok := findUser(ctx)
		if !ok {
			return
		}
		ctx.View("users/show.html", userPage{Layout: layoutFor(ctx, u.Name), User: u})
	})
	// Another layout for this request only.
	app.Get("/users/{id:int}/print", func(ctx vireo.Context) {
		u, ok := findUser(ctx)
		if !ok {
			return
		}
		ctx.SetViewLayout("layouts/print.html")
		ctx.View("users/show.html", userPage{Layout: layoutFor(ctx, u.Name), User: u})
	})
	// No layout at all: an HTML fragment, for example for htmx or fetch.
	app.Get("/users/{id:int}/fragment", func(ctx vireo.Context) {
		u, ok := findUser(ctx)
		if !ok {
			return
		}
		ctx.SetViewLayout(view.NoLayout)
		ctx.View("fragment.html", userPage{User: u})
	})
	// A render that fails halfway: the client gets a clean 500.
	app.Get("/broken", func(ctx vireo.Context) {
		ctx.View("broken.html", indexPage{Layout: layoutFor(ctx, "Broken")})
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

// findUser returns the user named by the id parameter, or answers 404.
func findUser(ctx vireo.Context) (User, bool) {
	id, _ := ctx.Params().Int("id")
	for _, u := range users {
		if u.ID == id {
			return u, true
		}
	}
	ctx.StopWithStatus(http.StatusNotFound)
	return User{}, false
}

func main() {
	if err := newApp().Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
