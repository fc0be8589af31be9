// Command api-server is a JSON API with the production middleware of the
// middleware package, all at once, and a fixed contract that can be checked
// from outside:
//
//	GET  /healthz      200 "ok"
//	GET  /api/items    200, a JSON array of the items (50 to start with)
//	POST /api/items    {"name": string, 1-64 characters, "price": number > 0}
//	                   201 with the item; 400 {"errors": {"field": "reason"}};
//	                   413 for a body over 1 MiB
//	GET  /api/slow     sleeps 2 s under a 500 ms timeout: 503
//	GET  /admin        basic auth, user admin, password $ADMIN_PASSWORD
//	                   (default "secret"); 401 with WWW-Authenticate without
//
// and on every response: an X-Request-ID (the client's, when it sends a
// sane one), security headers, CORS for http://localhost:3000 only, a rate
// limit of $RATE_LIMIT requests a second per client IP (default 100, burst
// equal; 429 beyond, with Retry-After), and gzip, br or zstd compression as
// the client accepts.
//
//	go run ./_examples/api-server
//	curl -i --compressed http://127.0.0.1:8080/api/items
//	curl -i -H 'Content-Type: application/json' -d '{"name":"","price":0}' http://127.0.0.1:8080/api/items
//	curl -i -u admin:secret http://127.0.0.1:8080/admin
package main

import (
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
)

// config is what the environment can change.
type config struct {
	adminPassword string
	rateLimit     int // requests a second per client IP, and the burst
	logOut        io.Writer
}

// configFromEnv reads $ADMIN_PASSWORD and $RATE_LIMIT.
func configFromEnv() (config, error) {
	cfg := config{adminPassword: "secret", rateLimit: 100, logOut: os.Stderr}
	if p := os.Getenv("ADMIN_PASSWORD"); p != "" {
		cfg.adminPassword = p
	}
	if v := os.Getenv("RATE_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return cfg, fmt.Errorf("RATE_LIMIT=%q: a positive integer expected", v)
		}
		cfg.rateLimit = n
	}
	return cfg, nil
}

// Item is what the API stores.
type Item struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// newItem is the body of POST /api/items. Its Validate method is called
// by ReadJSON through the application's validator.
type newItem struct {
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// Validate reports each bad field and why.
func (in *newItem) Validate() error {
	errs := map[string]string{}
	switch n := utf8.RuneCountInString(in.Name); {
	case n == 0:
		errs["name"] = "required"
	case n > 64:
		errs["name"] = "must be at most 64 characters"
	}
	if !(in.Price > 0) {
		errs["price"] = "must be greater than 0"
	}
	if len(errs) > 0 {
		return &core.ValidationError{Fields: errs}
	}
	return nil
}

// validator calls the Validate method of the values that have one.
var validator = core.ValidatorFunc(func(v any) error {
	if s, ok := v.(interface{ Validate() error }); ok {
		return s.Validate()
	}
	return nil
})

// store keeps the items in memory.
type store struct {
	mu    sync.Mutex
	items []Item
}

func newStore() *store {
	s := &store{}
	for i := 1; i <= 50; i++ {
		s.items = append(s.items, Item{ID: i, Name: "item " + strconv.Itoa(i), Price: float64(i) + 0.99})
	}
	return s
}

func (s *store) list() []Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Item(nil), s.items...)
}

func (s *store) add(in newItem) Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := Item{ID: len(s.items) + 1, Name: in.Name, Price: in.Price}
	s.items = append(s.items, it)
	return it
}

// newApp builds the application; main serves it and the test drives it
// over HTTP.
func newApp(cfg config) *vireo.Application {
	logger := slog.New(slog.NewTextHandler(cfg.logOut, nil))
	app := vireo.New(
		vireo.WithLogger(logger),
		vireo.WithBodyLimit(1<<20), // 1 MiB: larger bodies get 413
		core.WithValidator(validator),
	)

	// Router-level middleware runs for every request, unmatched ones and
	// CORS preflights included. The order matters: the logger sees the
	// request ID; CORS headers are on 429s too, so that browsers can read
	// them; compression wraps everything written after it, error pages too.
	app.UseBeforeRouting(
		vireo.RequestLogger(logger),
		middleware.MustRequestID(),
		middleware.MustSecureHeaders(),
		middleware.MustCORS(
			middleware.WithAllowedOrigins("http://localhost:3000"),
			middleware.WithAllowedMethods("GET", "POST"),
			middleware.WithAllowedHeaders("Content-Type", "Authorization", "X-Request-ID"),
			middleware.WithExposedHeaders("X-Request-ID", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"),
			middleware.WithMaxAge(10*time.Minute),
		),
		middleware.MustCompress(),
		middleware.MustRateLimit(middleware.WithRate(float64(cfg.rateLimit), cfg.rateLimit)),
	)

	app.Get("/healthz", func(ctx vireo.Context) { ctx.Text("ok") })

	items := newStore()
	api := app.Group("/api")
	api.Get("/items", func(ctx vireo.Context) { ctx.JSON(items.list()) })
	api.Post("/items", func(ctx vireo.Context) {
		var in newItem
		if err := ctx.ReadJSON(&in); err != nil {
			ctx.StopWithError(err) // 400 with the field errors, 413, 415...
			return
		}
		it := items.add(in)
		ctx.SetResponseHeader("Location", "/api/items/"+strconv.Itoa(it.ID))
		ctx.SetStatus(http.StatusCreated)
		ctx.JSON(it)
	})
	// The handler overruns its deadline: the client gets 503 at 500 ms,
	// and what the handler writes when it wakes up is refused.
	api.Get("/slow", middleware.MustTimeout(500*time.Millisecond), func(ctx vireo.Context) {
		time.Sleep(2 * time.Second)
		ctx.Text("too late")
	})

	app.Get("/admin",
		middleware.MustBasicAuth(middleware.WithRealm("api-server admin"),
			middleware.WithUsers(map[string]string{"admin": cfg.adminPassword})),
		func(ctx vireo.Context) { ctx.Text("welcome, " + middleware.BasicAuthUser(ctx)) })
	return app
}

func main() {
	cfg, err := configFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	addr := os.Getenv("ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	if err := newApp(cfg).Listen(addr); err != nil {
		log.Fatal(err)
	}
}
