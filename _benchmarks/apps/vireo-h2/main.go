// Command vireo-h2 is the h2 comparison on Vireo: the simple comparison's
// handler (GET /api/values/{id} writing "value" as text/plain) served over
// TLS by the framework's own ListenTLS, which offers HTTP/2 and HTTP/1.1
// by ALPN, with the certificate and key in TLS_CERT_FILE and TLS_KEY_FILE.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
)

func main() {
	app := vireo.New()
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
