// Command iris-h2 is the h2 comparison on Iris: the iris app's handler on
// GET /api/values/{id}, served by Iris's host on a TLS listener that
// offers HTTP/2 and HTTP/1.1 by ALPN (net/http's HTTP/2 server), with the
// certificate and key in TLS_CERT_FILE and TLS_KEY_FILE. iris.TLS would
// bind the address itself (and start an HTTP redirect server), so the
// listener is bound first and the readiness lines printed after it.
package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"

	"github.com/kataras/iris/v12"
)

func main() {
	app := iris.New()
	app.Logger().SetLevel("disable")
	app.Get("/api/values/{id}", func(ctx iris.Context) {
		ctx.ContentType("text/plain; charset=utf-8")
		ctx.WriteString("value")
	})

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	if err := app.Build(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cert, err := tls.LoadX509KeyPair(os.Getenv("TLS_CERT_FILE"), os.Getenv("TLS_KEY_FILE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tlsLn := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
	fmt.Printf("Now listening on: https://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := app.Run(iris.Listener(tlsLn), iris.WithoutStartupLog, iris.WithoutServerError(iris.ErrServerClosed)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
