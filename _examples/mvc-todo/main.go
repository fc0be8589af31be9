// Command mvc-todo is a complete small application: MVC controllers,
// html/template views in a layout with partials, embedded templates and
// static files, sessions (login with a new session ID, a todo list per
// user, flash messages), CSRF tokens on every form, and custom 403 and
// 404 pages.
//
//	go run ./_examples/mvc-todo
//	open http://127.0.0.1:8080/     (users: ann/ann-pass, bob/bob-pass)
//
// See controllers.go for the routes, csrf.go for the CSRF protection and
// auth.go for the login checks. browsertest/ drives the app in headless
// Chromium (see ../run-browser-tests.sh).
package main

import (
	"cmp"
	"embed"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/view"
)

//go:embed views
var views embed.FS

//go:embed static
var static embed.FS

// funcs are the template functions.
var funcs = template.FuncMap{
	// plural returns "1 item" or "n items".
	"plural": func(n int, word string) string {
		if n == 1 {
			return "1 " + word
		}
		return strconv.Itoa(n) + " " + word + "s"
	},
}

// newApp builds the application; main serves it, the tests drive it
// through httptest and the browser test runs the built binary.
func newApp() *vireo.Application {
	app := vireo.New()
	// The templates are embedded: an error in them (named with its file
	// and line) is a bug of this program, and MustNewHTML panics with it.
	app.RegisterView(view.MustNewHTML(mustSub(views, "views"), ".html",
		view.WithLayout("layouts/main.html"),
		view.WithFuncs(funcs)))

	m := sessions.MustNew(sessions.WithCookie("todo_sid"))
	app.OnShutdown(func() { m.Close() })

	// For every request, pages and error pages alike: security headers
	// and the session.
	app.UseBeforeRouting(middleware.MustSecureHeaders(
		middleware.WithContentSecurityPolicy("default-src 'self'; form-action 'self'; frame-ancestors 'none'"),
		middleware.WithReferrerPolicy("same-origin")), m.Handler())
	app.HandleDir("/static", mustSub(static, "static"))
	app.Get("/", func(ctx vireo.Context) { ctx.Redirect("/todos", http.StatusSeeOther) })

	// Every page and form goes through the CSRF check and sees the user.
	pages := mvc.New(app.Group("", csrfProtect(), userViewData))
	// m itself for the AuthController, m.Start for every *sessions.Session
	// parameter or field (the session m.Handler started).
	if err := pages.Provide(m, m.Start, NewTodoStore(), provideUser); err != nil {
		panic(err) // a bug of this program; Build would refuse it too
	}
	mvc.Register(pages, new(AuthController))
	mvc.Register(pages.Group("/todos", requireLogin), new(TodoController))

	app.OnErrorCode(http.StatusNotFound, errorPage("404.html", "Not found"))
	app.OnErrorCode(http.StatusForbidden, errorPage("403.html", "Forbidden"))
	return app
}

// userViewData is middleware that gives every page the logged-in user
// (nil when nobody is), for the layout's header.
func userViewData(ctx vireo.Context) {
	ctx.SetViewData("User", currentUser(sessions.Get(ctx)))
	ctx.Next()
}

// errorPage returns an error handler rendering name in the layout. It
// runs outside the route's middleware (for unmatched paths there is no
// route), so it sets the layout's data itself.
func errorPage(name, title string) vireo.Handler {
	return func(ctx vireo.Context) {
		sess := sessions.Get(ctx)
		ctx.SetViewData("User", currentUser(sess))
		ctx.SetViewData("CSRFToken", lazyToken(ctx))
		ctx.View(name, map[string]any{"Title": title, "Path": ctx.Path()})
	}
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
