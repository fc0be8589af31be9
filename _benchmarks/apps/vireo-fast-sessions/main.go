// Command vireo-fast-sessions is, on Vireo's fasthttp engine
// (vireo.WithEngine(fast.Engine()), nothing else differs), the sessions
// comparison on Vireo: GET /setget starts a session (in memory,
// browser-session cookie, HttpOnly, SameSite=Lax), sets "key" to "value",
// reads it back and writes it. A request without a cookie gets a new session
// and its Set-Cookie, as with the other stacks.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/sessions"
)

func main() {
	app := vireo.New(vireo.WithEngine(fast.Engine()))
	sess := sessions.MustNew(sessions.WithCookie("sessionid"))
	app.OnShutdown(func() { sess.Close() })
	app.Get("/setget", func(ctx vireo.Context) {
		s, err := sess.Start(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
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
