// Command nethttp-h2 is the h2 comparison on the standard library alone,
// its floor: the nethttp app's ServeMux handler served over TLS by
// http.Server.ServeTLS (net/http's HTTP/2 server, offered by ALPN beside
// HTTP/1.1) with the certificate and key in TLS_CERT_FILE and
// TLS_KEY_FILE, and the limits Vireo's Serve sets by default (the test
// compares them), so the ratio prices the framework on HTTP/2.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// textPlain is the Content-Type, assigned to the header map directly (the
// key is canonical) and shared by every response: net/http only reads it.
var textPlain = []string{"text/plain; charset=utf-8"}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/values/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = textPlain
		io.WriteString(w, "value")
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
	if err := newServer(mux).ServeTLS(ln, os.Getenv("TLS_CERT_FILE"), os.Getenv("TLS_KEY_FILE")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newServer returns the server of this app, with the limits Vireo's Serve
// sets by default: a deadline for the request headers, an idle timeout and
// a header size bound (Vireo bounds bodies by a minimum data rate instead
// of a ReadTimeout for the whole request).
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}
