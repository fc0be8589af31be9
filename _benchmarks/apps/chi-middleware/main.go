// Command chi-middleware is the middleware comparison on chi: request ID
// (chi/middleware.RequestID, plus a line to put the ID on the response, as
// the Vireo and Echo middleware do), CORS (github.com/rs/cors, the CORS
// handler chi's documentation points to), security headers (four
// chi/middleware.SetHeader) and gzip (chi/middleware.Compress, level 5), in
// front of GET /api/data writing a 1 KB JSON body marshalled once at
// start-up, served by net/http.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/rs/cors"
)

type item struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

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

// requestIDHeader puts chi's request ID on the response.
func requestIDHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(middleware.RequestIDHeader, middleware.GetReqID(r.Context()))
		next.ServeHTTP(w, r)
	})
}

func main() {
	body := payload()
	r := chi.NewRouter()
	r.Use(middleware.RequestID, requestIDHeader)
	r.Use(cors.New(cors.Options{AllowedOrigins: []string{"http://localhost:3000"}}).Handler)
	r.Use(
		middleware.SetHeader("X-Content-Type-Options", "nosniff"),
		middleware.SetHeader("X-Frame-Options", "DENY"),
		middleware.SetHeader("Content-Security-Policy", "frame-ancestors 'none'"),
		middleware.SetHeader("Referrer-Policy", "strict-origin-when-cross-origin"),
	)
	r.Use(middleware.Compress(5, "application/json"))
	r.Get("/api/data", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := http.Serve(ln, r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
