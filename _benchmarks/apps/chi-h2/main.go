// Command chi-h2 is the h2 comparison on the chi router, without
// middleware: the chi app's handler served over TLS by
// http.ServeTLS (net/http's HTTP/2 server, offered by ALPN beside
// HTTP/1.1), with the certificate and key in TLS_CERT_FILE and
// TLS_KEY_FILE.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/go-chi/chi/v5"
)

func main() {
	r := chi.NewRouter()
	r.Get("/api/values/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("value"))
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
	fmt.Printf("Now listening on: https://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := http.ServeTLS(ln, r, os.Getenv("TLS_CERT_FILE"), os.Getenv("TLS_KEY_FILE")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
