package redis_test

import (
	"log"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/redis"
)

// Two or more instances configured like this share their users' sessions.
func Example() {
	db, err := redis.New(redis.WithAddr("127.0.0.1:6379"), redis.WithPrefix("myapp:session:"))
	if err != nil {
		log.Fatal(err) // Redis unreachable at startup
	}
	m := sessions.MustNew(sessions.WithDatabase(db))

	app := core.New()
	app.OnShutdown(func() { db.Close() })
	app.Use(m.Handler()) // 503 Service Unavailable while Redis is down
	app.Get("/login", func(ctx core.Context) {
		s, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("user", ctx.Query("user"))
	})
	app.Get("/me", func(ctx core.Context) {
		ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous"))
	})
	log.Fatal(app.Listen(":8080"))
}
