// The controllers: AuthController (login page, login, logout) at the
// root and TodoController under /todos. Routes come from method names,
// and the two with a segment after the ID from BeforeRegister:
//
//	AuthController.GetLogin       GET  /login
//	AuthController.PostLogin      POST /login
//	AuthController.PostLogout     POST /logout
//	TodoController.Get            GET  /todos
//	TodoController.Post           POST /todos
//	TodoController.Toggle         POST /todos/{id:int}/toggle
//	TodoController.Remove         POST /todos/{id:int}/delete
//
// Every state change answers with a redirect (POST/redirect/GET), so a
// reload never posts a form twice, and reports its outcome with a flash
// message shown by the next page.

package main

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/sessions"
)

// maxTitle is the longest todo title accepted, in characters.
const maxTitle = 200

// flash is a message shown once, on the next page.
type flash struct{ Kind, Text string }

// page returns the view name in the default layout with data, the page
// title and the session's pending flash messages (reading them removes
// them). The CSRF token and the user come from middleware, as ViewData.
func page(sess *sessions.Session, name, title string, data map[string]any) mvc.View {
	if data == nil {
		data = map[string]any{}
	}
	data["Title"] = title
	var flashes []flash
	for _, kind := range []string{"notice", "error"} {
		if text, ok := sess.GetFlash(kind).(string); ok {
			flashes = append(flashes, flash{kind, text})
		}
	}
	data["Flashes"] = flashes
	return mvc.View{Name: name, Data: data}
}

// redirect is the answer to every successful form post.
func redirect(path string) mvc.Response {
	return mvc.Response{Path: path, Code: http.StatusSeeOther}
}

// AuthController logs users in and out. Sessions is injected once, at
// registration; the *sessions.Session parameters are the request's.
type AuthController struct {
	Sessions *sessions.Manager
}

// loginForm is the body of POST /login (the form fields user and
// password; csrf_token was checked by the middleware).
type loginForm struct {
	User     string `form:"user"`
	Password string `form:"password"`
}

// GetLogin shows the login form, or sends a logged-in user to the list.
// The any result is written by its dynamic type: a View or a Response.
func (c *AuthController) GetLogin(sess *sessions.Session) any {
	if currentUser(sess) != nil {
		return redirect("/todos")
	}
	return page(sess, "login.html", "Log in", nil)
}

// PostLogin checks the credentials, then gives the session a new ID (so
// an ID known before login is worthless after it) and a new CSRF token.
func (c *AuthController) PostLogin(ctx vireo.Context, in loginForm) mvc.Response {
	name := strings.TrimSpace(in.User)
	if !checkPassword(name, in.Password) {
		sessions.Get(ctx).SetFlash("error", "Wrong user name or password.")
		return redirect("/login")
	}
	sess, err := c.Sessions.Regenerate(ctx)
	if err != nil {
		return mvc.Response{Err: err}
	}
	sess.Set(userKey, name)
	rotateCSRFToken(sess)
	sess.SetFlash("notice", "Welcome back, "+name+"!")
	return redirect("/todos")
}

// PostLogout destroys the session (its data and cookie) and starts a
// fresh one to carry the goodbye message.
func (c *AuthController) PostLogout(ctx vireo.Context) mvc.Response {
	if err := c.Sessions.Destroy(ctx); err != nil {
		return mvc.Response{Err: err}
	}
	sess, err := c.Sessions.Start(ctx)
	if err != nil {
		return mvc.Response{Err: err}
	}
	sess.SetFlash("notice", "You have been logged out.")
	return redirect("/login")
}

// TodoController manages the logged-in user's list. Todos is set once at
// registration; Session and User are set for each request (which makes
// the controller per-request: each request gets its own copy).
type TodoController struct {
	Todos   *TodoStore
	Session *sessions.Session
	User    *User
}

// todoForm is the body of POST /todos.
type todoForm struct {
	Title string `form:"title"`
}

// todoItem is what the todo partial renders: the todo and the token its
// forms need (a partial gets a single value).
type todoItem struct {
	Todo
	CSRFToken string
}

// Get shows the list.
func (c *TodoController) Get() mvc.View {
	todos := c.Todos.List(c.User.Name)
	items := make([]todoItem, len(todos))
	left := 0
	for i, t := range todos {
		items[i] = todoItem{t, middleware.MaskCSRFToken(csrfToken(c.Session))} // masked per form, as pages are (BREACH)
		if !t.Done {
			left++
		}
	}
	return page(c.Session, "todos/index.html", "Todos", map[string]any{"Items": items, "Left": left})
}

// Post adds a todo.
func (c *TodoController) Post(in todoForm) mvc.Response {
	title := strings.TrimSpace(in.Title)
	switch {
	case title == "":
		c.Session.SetFlash("error", "A todo needs a title.")
	case utf8.RuneCountInString(title) > maxTitle:
		c.Session.SetFlash("error", "That title is too long.")
	default:
		c.Todos.Add(c.User.Name, title)
		c.Session.SetFlash("notice", "Added “"+title+"”.")
	}
	return redirect("/todos")
}

// BeforeRegister declares the routes whose ID is followed by a segment,
// which a method name cannot say (GetByID names the parameter).
func (c *TodoController) BeforeRegister(r mvc.Registrar) {
	r.Handle(http.MethodPost, "/{id:int}/toggle", "Toggle")
	r.Handle(http.MethodPost, "/{id:int}/delete", "Remove")
}

// Toggle marks a todo done or not done.
func (c *TodoController) Toggle(id int) mvc.Response {
	t, ok := c.Todos.Toggle(c.User.Name, id)
	if !ok {
		return mvc.Response{Err: errNoSuchTodo}
	}
	if t.Done {
		c.Session.SetFlash("notice", "Done: “"+t.Title+"”.")
	}
	return redirect("/todos")
}

// Remove removes a todo.
func (c *TodoController) Remove(id int) mvc.Response {
	if !c.Todos.Delete(c.User.Name, id) {
		return mvc.Response{Err: errNoSuchTodo}
	}
	c.Session.SetFlash("notice", "Deleted.")
	return redirect("/todos")
}

// errNoSuchTodo answers an ID that is not in the user's list (someone
// else's, or deleted): 404, rendered by the not-found page.
var errNoSuchTodo = vireo.NewHTTPError(http.StatusNotFound, "no such todo")
