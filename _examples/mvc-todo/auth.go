// Authentication: the demo accounts, the logged-in user kept in the
// session, the middleware that sends anonymous visitors to the login
// page, and the provider that injects the *User into controllers.

package main

import (
	"crypto/subtle"
	"net/http"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/sessions"
)

// userKey is the session key holding the logged-in user's name.
const userKey = "user"

// User is the logged-in user.
type User struct{ Name string }

// accounts are the demo users: name -> password. A real application keeps
// password hashes (bcrypt, argon2id) in a database.
var accounts = map[string]string{"ann": "ann-pass", "bob": "bob-pass"}

// checkPassword reports whether name and password match an account. The
// comparison takes the same time however much of the password matched.
func checkPassword(name, password string) bool {
	want, ok := accounts[name]
	if !ok {
		// Compare anyway so an unknown name costs what a known one does.
		want = "\x00"
	}
	return subtle.ConstantTimeCompare([]byte(password), []byte(want)) == 1 && ok
}

// currentUser returns the session's user, or nil when nobody is logged in.
func currentUser(sess *sessions.Session) *User {
	if sess == nil {
		return nil
	}
	if name := sess.GetString(userKey, ""); name != "" {
		return &User{Name: name}
	}
	return nil
}

// requireLogin is middleware for pages that need a user: anonymous
// requests are redirected to the login page with a flash message.
func requireLogin(ctx vireo.Context) {
	sess := sessions.Get(ctx)
	if currentUser(sess) == nil {
		sess.SetFlash("error", "Please log in first.")
		ctx.Redirect("/login", http.StatusSeeOther)
		return
	}
	ctx.Next()
}

// provideUser is the MVC provider of *User. requireLogin runs before it on
// the todo routes; the 401 only guards against wiring it elsewhere.
func provideUser(ctx vireo.Context) (*User, error) {
	if u := currentUser(sessions.Get(ctx)); u != nil {
		return u, nil
	}
	return nil, vireo.NewHTTPError(http.StatusUnauthorized, "not logged in")
}
