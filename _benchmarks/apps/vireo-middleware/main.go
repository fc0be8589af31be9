// Command vireo-middleware is the middleware comparison on Vireo: request
// ID, CORS, security headers and gzip compression from the middleware
// package, installed with UseBeforeRouting, in front of GET /api/data writing a
// 1 KB JSON body (marshalled once at start-up, as in the chi and Echo apps,
// so that the comparison is about the middleware). The header set, the
// gzip level (5) and the allowed origin are the same in the three apps.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
)

type item struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// payload returns the 1 KB body of expected/middleware.json.
func payload() []byte {
	items := make([]item, 28)
	for i := range items {
		items[i] = item{ID: i + 1, Name: fmt.Sprintf("item %d", i+1), Price: float64(i+1) + 0.5}
	}
	b, err := json.Marshal(items)
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
	body := payload()
	app := vireo.New()
	app.UseBeforeRouting(
		middleware.MustRequestID(),
		middleware.MustCORS(middleware.WithAllowedOrigins("http://localhost:3000")),
		middleware.MustSecureHeaders(middleware.WithCrossOriginOpenerPolicy("")),
		middleware.MustCompress(middleware.WithEncodings(middleware.EncodingGzip), middleware.WithLevel(middleware.EncodingGzip, 5)),
	)
	app.Get("/api/data", func(ctx vireo.Context) {
		ctx.SetContentType("application/json")
		ctx.Write(body)
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
