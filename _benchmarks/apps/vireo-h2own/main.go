// Command vireo-h2own is vireo-h2 (the h2 comparison's handler on Vireo's
// ListenTLS) with HTTP/2 served by Vireo's own path, the h2 module
// (vireo.WithHTTP2(h2.MustNew())), instead of net/http's: the certificate
// and key are in TLS_CERT_FILE and TLS_KEY_FILE.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/h2"
)

func main() {
	app := vireo.New(vireo.WithHTTP2(h2.MustNew()))
	app.Get("/api/values/{id}", func(ctx vireo.Context) {
		ctx.Text("value")
	})
	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	if err := app.ListenTLS("127.0.0.1:"+port, os.Getenv("TLS_CERT_FILE"), os.Getenv("TLS_KEY_FILE")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
