package middleware_test

import (
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
)

// A typical API: every response gets a request ID, security headers, CORS
// for one origin and compression; one route has a deadline.
func Example() {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(
		middleware.MustRequestID(),
		middleware.MustSecureHeaders(),
		middleware.MustCORS(middleware.WithAllowedOrigins("https://app.example.com")),
		middleware.MustCompress(),
	)
	app.Get("/hello", func(ctx core.Context) { ctx.Text("hello") })
	app.Get("/report", middleware.MustTimeout(2*time.Second), func(ctx core.Context) { ctx.Text("report") })

	req := httptest.NewRequest("GET", "/hello", nil)
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("X-Request-ID", "abc-123")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.String())
	fmt.Println(rec.Header().Get("X-Request-Id"))
	fmt.Println(rec.Header().Get("Access-Control-Allow-Origin"))
	fmt.Println(rec.Header().Get("X-Frame-Options"))
	fmt.Println(rec.Header().Values("Vary"))
	// Output:
	// 200 hello
	// abc-123
	// https://app.example.com
	// DENY
	// [Origin Accept-Encoding]
}

func ExampleBasicAuth() {
	auth, err := middleware.BasicAuth(middleware.WithRealm("admin"), middleware.WithUsers(map[string]string{"ann": "s3cret"}))
	if err != nil {
		panic(err)
	}
	app := core.New(core.WithStartupOutput(nil))
	app.Get("/admin", auth, func(ctx core.Context) { ctx.Text("hi " + middleware.BasicAuthUser(ctx)) })

	for _, pass := range []string{"guess", "s3cret"} {
		req := httptest.NewRequest("GET", "/admin", nil)
		req.SetBasicAuth("ann", pass)
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		fmt.Println(rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body.String())
	}
	// Output:
	// 401 Basic realm="admin", charset="UTF-8" Unauthorized
	// 200  hi ann
}

func ExampleRateLimit() {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(middleware.MustRateLimit(middleware.WithRate(1, 2))) // 1/s, bursts of 2
	app.Get("/", func(ctx core.Context) { ctx.Text("ok") })
	for i := 0; i < 3; i++ {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		fmt.Println(rec.Code, "remaining:", rec.Header().Get("RateLimit-Remaining"), "retry after:", rec.Header().Get("Retry-After")+"s")
	}
	// Output:
	// 200 remaining: 1 retry after: s
	// 200 remaining: 0 retry after: s
	// 429 remaining: 0 retry after: 1s
}
