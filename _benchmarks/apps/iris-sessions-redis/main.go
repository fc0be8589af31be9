// Command iris-sessions-redis is the Redis sessions comparison on Iris v12
// with its own Redis session database
// (github.com/kataras/iris/v12/sessions/sessiondb/redis, on go-redis v9):
// GET /setget starts a session, sets "key" to "value", reads it back and
// writes it. A request without a cookie gets a new session and its
// Set-Cookie.
//
// Redis is at $REDIS_ADDR (default 127.0.0.1:6379). Iris stores a session
// as a Redis hash (one field per value, plus "session_id") and sets its TTL
// with EXPIRE; each Set is an HSET and each Get an HGET. Its session
// manager also keeps an object per session (with an expiry timer) in
// process memory, and asks Redis about a session only when that object is
// missing.
package main

import (
	"fmt"
	"net"
	"os"
	"time"

	"github.com/kataras/iris/v12"
	"github.com/kataras/iris/v12/sessions"
	"github.com/kataras/iris/v12/sessions/sessiondb/redis"
)

func main() {
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = redis.DefaultRedisAddr
	}
	// MaxActive 0 leaves go-redis's pool size (10 per GOMAXPROCS), as the
	// Vireo app does; Timeout matches the Vireo database's read/write
	// timeouts. New panics when Redis does not answer a PING.
	db := redis.New(redis.Config{Network: "tcp", Addr: addr, Timeout: time.Second, Driver: redis.GoRedis()})
	iris.RegisterOnInterrupt(func() { db.Close() })

	app := iris.New()
	app.Logger().SetLevel("disable")
	// Iris ties the Redis TTL to the cookie's lifetime: Expires -1 (a
	// browser-session cookie, as in the in-memory app) would store keys
	// that never expire. 20 minutes is the server-side lifetime of the
	// Vireo app (sessions.DefaultLifetime), so both keep each session in
	// Redis equally long; the cookie carries an Expires attribute here.
	// DisableSubdomainPersistence keeps Iris from setting
	// Domain=<host:port>, which net/http rejects with a log line on every
	// request.
	sess := sessions.New(sessions.Config{Cookie: "sessionid", Expires: 20 * time.Minute, DisableSubdomainPersistence: true})
	sess.UseDatabase(db)
	app.Get("/setget", func(ctx iris.Context) {
		s := sess.Start(ctx)
		s.Set("key", "value")
		ctx.ContentType("text/plain; charset=utf-8")
		ctx.WriteString(s.GetString("key"))
	})

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
