// Command sessions shows server-side sessions: a visit counter, login and
// logout (with a new session ID at login, against session fixation), a
// page only logged-in users see, and flash messages that show once.
//
//	go run ./_examples/sessions
//	open http://127.0.0.1:8080/     (users: ann/ann-pass, bob/bob-pass)
//
// The session cookie carries only a random ID, signed with HMAC through
// gorilla/securecookie; the values stay on the server, in memory. The
// forms here rely on the cookie's SameSite=Lax default against cross-site
// posts; the mvc-todo example adds CSRF tokens.
package main

import (
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"html"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/gorilla/securecookie"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/sessions"
)

// users are the demo accounts: name -> password. A real application
// stores password hashes (bcrypt, argon2id), never passwords.
var users = map[string]string{"ann": "ann-pass", "bob": "bob-pass"}

// newApp builds the application, signing session cookies with hashKey;
// main serves it and the test drives it through httptest.
func newApp(hashKey []byte) *vireo.Application {
	app := vireo.New()
	m := sessions.MustNew(
		sessions.WithCookie("example_sid"),
		sessions.WithEncoding(securecookie.New(hashKey, nil)),
	)
	// Stop the in-memory store's sweeper when the server stops.
	app.OnShutdown(func() { m.Close() })
	// Every route below has a session, found with sessions.Get.
	app.Use(m.Handler())

	app.Get("/", func(ctx vireo.Context) {
		sess := sessions.Get(ctx)
		visits := sess.GetInt("visits", 0) + 1
		sess.Set("visits", visits)

		page := flash(sess) + "<p>Visits in this session: " + strconv.Itoa(visits) + "</p>"
		if user := sess.GetString("user", ""); user != "" {
			page += "<p>Logged in as " + html.EscapeString(user) + ". <a href=\"/secret\">Secret page</a></p>" +
				`<form method="post" action="/logout"><button>Log out</button></form>`
		} else {
			page += `<form method="post" action="/login">
<input name="user" placeholder="user"> <input name="password" type="password" placeholder="password">
<button>Log in</button></form>`
		}
		ctx.HTML(page)
	})

	app.Post("/login", func(ctx vireo.Context) {
		user, pass := ctx.PostValue("user"), ctx.PostValue("password")
		want, ok := users[user]
		if !ok || subtle.ConstantTimeCompare([]byte(pass), []byte(want)) != 1 {
			sessions.Get(ctx).SetFlash("error", "Wrong user name or password.")
			ctx.Redirect("/", http.StatusSeeOther)
			return
		}
		// A new ID at login: an ID an attacker planted or saw before
		// login is worthless afterwards. The values are kept.
		sess, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		sess.Set("user", user)
		sess.SetFlash("notice", "Welcome, "+user+"!")
		ctx.Redirect("/", http.StatusSeeOther)
	})

	app.Post("/logout", func(ctx vireo.Context) {
		// Destroy removes the session's data from the store and expires
		// the cookie; Start then begins a fresh session for the flash.
		if err := m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
			return
		}
		sess, err := m.Start(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		sess.SetFlash("notice", "You are logged out.")
		ctx.Redirect("/", http.StatusSeeOther)
	})

	app.Get("/secret", func(ctx vireo.Context) {
		user := sessions.Get(ctx).GetString("user", "")
		if user == "" {
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.HTML("<p>The secret of " + html.EscapeString(user) + " is safe.</p>")
	})
	return app
}

// flash renders the pending flash messages, which reading removes.
func flash(sess *sessions.Session) string {
	out := ""
	for _, key := range []string{"notice", "error"} {
		if msg, ok := sess.GetFlash(key).(string); ok {
			out += `<p class="` + key + `">` + html.EscapeString(msg) + "</p>"
		}
	}
	return out
}

func main() {
	// The signing key must stay secret and, with several servers, be the
	// same on all of them: take it from the environment. A random key is
	// fine for one process whose sessions live in its memory anyway.
	key := []byte(os.Getenv("SESSION_HASH_KEY"))
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	if err := newApp(key).Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
