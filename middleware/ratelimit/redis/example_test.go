package redis_test

import (
	"log"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/middleware/ratelimit/redis"
)

// Every instance configured like this draws from the same buckets: 100
// requests a second per client IP in total, bursts of 200.
func Example() {
	store, err := redis.New(100, 200, redis.WithAddr("127.0.0.1:6379"), redis.WithPrefix("myapp:ratelimit:"))
	if err != nil {
		log.Fatal(err) // Redis unreachable at startup
	}
	app := core.New(core.WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8")) // the load balancers
	app.OnShutdown(func() { store.Close() })
	// 503 while Redis is down; middleware.WithFailOpen() lets requests through instead.
	app.Use(middleware.MustRateLimit(middleware.WithRateStore(store)))
	app.Get("/", func(ctx core.Context) { ctx.WriteString("hello") })
	log.Fatal(app.Listen(":8080"))
}
