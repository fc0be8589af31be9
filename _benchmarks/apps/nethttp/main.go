// Command nethttp is the simple comparison on the standard library alone:
// a Go 1.22+ ServeMux pattern with a path wildcard, GET /api/values/{id}.
// It is the floor of the comparison, what it costs with no framework.
//
// The http.Server has the timeouts Vireo sets by default (core.Serve), so
// the ratio to this app prices the framework, not a safety setting; the
// test keeps the values equal to core's.
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
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := newServer(mux).Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newServer returns the server of this app, with the limits Vireo's Serve
// sets by default (the test compares them): a deadline for the request
// headers, an idle timeout and a header size
// bound. Vireo bounds request bodies and responses by a minimum data rate
// (armed only while a body is read or a large response is written, neither
// of which this app does) and leaves http.Server's ReadTimeout and
// WriteTimeout at zero, as does this app.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}
