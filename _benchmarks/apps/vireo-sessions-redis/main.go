// Command vireo-sessions-redis is the sessions comparison on Vireo with the
// sessions stored in Redis (github.com/vireo-go/vireo/sessions/redis), the
// setup of several instances behind a load balancer: GET /setget starts a
// session, sets "key" to "value", reads it back and writes it. A request
// without a cookie gets a new session and its Set-Cookie (browser-session
// cookie, HttpOnly, SameSite=Lax), as in the in-memory comparison.
//
// Redis is at $REDIS_ADDR (default 127.0.0.1:6379); the benchmark runner
// starts a redis-server of its own for each run and passes its address. The
// session Handler loads the session once when a cookie comes back (one
// MULTI GET PTTL EXEC) and saves it once, just before the response goes
// out, when it changed (one SET with the session's TTL): a new session costs the SET, an
// existing one that already holds "value" only the read.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/redis"
)

func main() {
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = redis.DefaultAddr
	}
	// Fails here, with the address in the message, when Redis is down.
	db, err := redis.New(redis.WithAddr(addr))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	m := sessions.MustNew(sessions.WithCookie("sessionid"), sessions.WithDatabase(db))

	app := vireo.New()
	app.OnShutdown(func() { db.Close() })
	app.Use(m.Handler()) // 503 if Redis goes away while serving
	app.Get("/setget", func(ctx vireo.Context) {
		s := sessions.Get(ctx)
		s.Set("key", "value")
		ctx.Text(s.GetString("key", ""))
	})
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
