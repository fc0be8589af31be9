// Command sessions-redis is the sessions example with its sessions stored in
// Redis, so that several instances of the application behind a load
// balancer share their users' logins: a visit counter, login and logout
// (with a new session ID at login, against session fixation), a page only
// logged-in users see, and flash messages that show once.
//
//	redis-server --port 6379 --bind 127.0.0.1 &   # or any Redis
//	cd _examples/sessions-redis
//	SESSION_HASH_KEY=$(head -c 32 /dev/urandom | base64) go run .
//	open http://127.0.0.1:8080/     (users: ann/ann-pass, bob/bob-pass)
//
// It listens on $ADDR (default 127.0.0.1:8080). Start a second instance
// with ADDR=127.0.0.1:8081 and the same SESSION_HASH_KEY: a login on one is
// a login on the other. Redis is at $REDIS_ADDR (default 127.0.0.1:6379).
// Each session is one Redis string under "sessions-redis-example:<id>" whose
// TTL is the session's lifetime (20 minutes, sliding); redis-cli shows its
// values as JSON.
//
// When Redis is down at startup the program exits with the reason; when it
// goes away while serving, pages that need the session answer 503 Service
// Unavailable (the stored sessions are intact when it returns) and the
// client reconnects by itself.
//
// This example is a module of its own because the Redis client needs more
// than the framework's dependencies; its go.mod points at the framework and
// at sessions/redis in this repository.
package main

import (
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"html"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/gorilla/securecookie"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/redis"
)

// users are the demo accounts: name -> password. A real application
// stores password hashes (bcrypt, argon2id), never passwords.
var users = map[string]string{"ann": "ann-pass", "bob": "bob-pass"}

// KeyPrefix is the prefix of this example's session keys in Redis, so it
// can share a Redis with other applications.
const KeyPrefix = "sessions-redis-example:"

// newApp builds the application on the session database db, signing
// session cookies with hashKey; main serves it and the test drives it (two
// instances at once) through httptest.
func newApp(db *redis.Database, hashKey []byte) *vireo.Application {
	app := vireo.New()
	m := sessions.MustNew(
		sessions.WithCookie("example_sid"),
		sessions.WithEncoding(securecookie.New(hashKey, nil)),
		sessions.WithDatabase(db),
	)
	// Every route below has a session, found with sessions.Get. Handler
	// loads it from Redis once per request; a changed session is saved
	// once, just before the response goes out. Either failing answers 503
	// when Redis cannot be reached: a login is never confirmed to the
	// browser while its session is lost.
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
		// A new ID at login: the session moves to a new Redis key and the
		// old key is deleted in the same transaction, so an ID an
		// attacker planted or saw before login is worthless afterwards,
		// on every instance. The values are kept.
		sess, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err) // 503 when Redis is unreachable
			return
		}
		sess.Set("user", user)
		sess.SetFlash("notice", "Welcome, "+user+"!")
		ctx.Redirect("/", http.StatusSeeOther)
	})

	app.Post("/logout", func(ctx vireo.Context) {
		// Destroy deletes the session's key from Redis, so the login ends
		// on every instance, and expires the cookie; Start then begins a
		// fresh session for the flash.
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
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = redis.DefaultAddr
	}
	db, err := redis.New(redis.WithAddr(addr), redis.WithPrefix(KeyPrefix))
	if err != nil {
		log.Fatal(err) // for example: cannot reach Redis at 127.0.0.1:6379
	}
	app := newApp(db, hashKey())
	app.OnShutdown(func() { db.Close() })
	if err := app.Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}

// hashKey returns the cookie signing key from $SESSION_HASH_KEY (base64,
// or the raw string). Every instance that shares the sessions must use the
// same key, or each rejects the others' cookies; a random key (with a
// warning) only suits a single instance.
func hashKey() []byte {
	env := os.Getenv("SESSION_HASH_KEY")
	if env == "" {
		log.Print("SESSION_HASH_KEY is not set: using a random key, so other instances cannot read this one's cookies")
		key := make([]byte, 32)
		rand.Read(key)
		return key
	}
	if key, err := base64.StdEncoding.DecodeString(env); err == nil && len(key) >= 32 {
		return key
	}
	return []byte(env)
}
