// Command echo-h2 is the h2 comparison on Echo: the echo app's handler on
// GET /api/values/:id, served over TLS by Echo's StartTLS on a listener
// bound first (net/http's HTTP/2 server, offered by ALPN beside HTTP/1.1),
// with the certificate and key in TLS_CERT_FILE and TLS_KEY_FILE.
package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"

	"github.com/labstack/echo/v4"
)

func main() {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	value := []byte("value")
	e.GET("/api/values/:id", func(c echo.Context) error {
		return c.Blob(200, "text/plain; charset=utf-8", value)
	})

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
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
	// StartTLS serves e.TLSListener when set, wrapping it with this config.
	e.TLSServer.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}}
	e.TLSListener = tls.NewListener(ln, e.TLSServer.TLSConfig)
	fmt.Printf("Now listening on: https://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := e.StartServer(e.TLSServer); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
