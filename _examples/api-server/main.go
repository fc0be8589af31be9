// Command api-server is a JSON API with the production middleware of the
// middleware package, all at once, and a fixed contract that can be checked
// from outside:
//
//	GET  /healthz         200 "ok"
//	GET  /openapi.json    the OpenAPI 3.1 document of the routes below
//	GET  /api/items       200, a JSON array of the items (50 to start with)
//	GET  /api/items/{id}  200 with the item, 404 when there is none
//	POST /api/items       {"name": string, 1-64 characters, "price": number > 0}
//	                      201 with the item; 400 {"errors": {"field": "reason"}};
//	                      413 for a body over 1 MiB, 415 for one that is not JSON
//	GET  /api/slow        sleeps 2 s under a 500 ms timeout: 503
//	GET  /admin           basic auth, user admin, password $ADMIN_PASSWORD
//	                      (default "secret"); 401 with WWW-Authenticate without
//
// The /api routes are typed handlers: their inputs are bound from the path
// and the body and checked by validate tags (the validator module, which
// is why this example is a module of its own), their outputs written as
// JSON, and all of it described in the document.
//
// On every response: an X-Request-ID (the client's, when it sends a
// sane one), security headers, CORS for http://localhost:3000 only, a rate
// limit of $RATE_LIMIT requests a second per client IP (default 100, burst
// equal; 429 beyond, with Retry-After), and gzip, br or zstd compression as
// the client accepts.
//
//	cd _examples/api-server && go run .
//	curl -i --compressed http://127.0.0.1:8080/api/items
//	curl -s http://127.0.0.1:8080/openapi.json
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

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/openapi"
	"github.com/vireo-go/vireo/validator"
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

// newItem is the body of POST /api/items, checked by its validate tags
// (the validator module) and described by them in the document.
type newItem struct {
	Name  string  `json:"name" validate:"required,max=64"`
	Price float64 `json:"price" validate:"gt=0"`
}

// itemID is the input of the routes of one item.
type itemID struct {
	ID int `path:"id"`
}

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

func (s *store) get(id int) (Item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > len(s.items) {
		return Item{}, false
	}
	return s.items[id-1], true
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
		vireo.WithValidator(validator.MustNew()),
		vireo.WithOpenAPI("", openapi.Info{
			Title: "api-server", Version: "1.0.0",
			Description: "The JSON API of Vireo's api-server example.",
			License:     &openapi.License{Name: "MIT", Identifier: "MIT"},
		}),
	)

	// Router-level middleware runs for every request, unmatched ones and
	// CORS preflights included. The order matters: the logger sees the
	// request ID; CORS headers are on 429s too, so that browsers can read
	// them; compression wraps everything written after it, error pages too.
	app.UseBeforeRouting(
		middleware.RequestLogger(logger),
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

	app.Get("/healthz", func(ctx vireo.Context) { ctx.Text("ok") }).
		Describe(vireo.Summary("Liveness"), vireo.Returns(http.StatusOK, ""))

	// Typed handlers: the input is bound and validated, the output written
	// as JSON, and both are described in /openapi.json.
	items := newStore()
	api := app.Group("/api")
	vireo.Get(api, "/items", func(ctx vireo.Context, _ struct{}) ([]Item, error) {
		return items.list(), nil
	}, vireo.Summary("List the items"), vireo.Tags("items"))
	vireo.Get(api, "/items/{id:int}", func(ctx vireo.Context, in itemID) (Item, error) {
		it, ok := items.get(in.ID)
		if !ok {
			return Item{}, vireo.NewHTTPError(http.StatusNotFound, "no item "+strconv.Itoa(in.ID))
		}
		return it, nil
	}, vireo.Summary("Get an item"), vireo.Tags("items"), vireo.Errors(http.StatusNotFound))
	vireo.Post(api, "/items", func(ctx vireo.Context, in newItem) (Item, error) {
		it := items.add(in)
		ctx.SetResponseHeader("Location", "/api/items/"+strconv.Itoa(it.ID))
		return it, nil // 201, the default of a typed POST
	}, vireo.Summary("Add an item"), vireo.Description("The name is 1 to 64 characters, the price above 0."), vireo.Tags("items"))
	// The handler overruns its deadline: the client gets 503 at 500 ms,
	// and what the handler writes when it wakes up is refused.
	api.Get("/slow", middleware.MustTimeout(500*time.Millisecond), func(ctx vireo.Context) {
		time.Sleep(2 * time.Second)
		ctx.Text("too late")
	}).Describe(vireo.Summary("Always times out"), vireo.Errors(http.StatusServiceUnavailable))

	app.Get("/admin",
		middleware.MustBasicAuth(middleware.WithRealm("api-server admin"),
			middleware.WithUsers(map[string]string{"admin": cfg.adminPassword})),
		func(ctx vireo.Context) { ctx.Text("welcome, " + middleware.BasicAuthUser(ctx)) }).
		Describe(vireo.Summary("Admin area (basic auth)"), vireo.Returns(http.StatusOK, ""), vireo.Errors(http.StatusUnauthorized))
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
