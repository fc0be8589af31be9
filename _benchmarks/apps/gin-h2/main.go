// Command gin-h2 is the h2 comparison on Gin: the gin app's handler on
// GET /api/values/:id, its engine served over TLS by http.Server.ServeTLS
// (what Gin's RunTLS does: net/http's HTTP/2 server, offered by ALPN
// beside HTTP/1.1), with the certificate and key in TLS_CERT_FILE and
// TLS_KEY_FILE.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/gin-gonic/gin"
)

func main() {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/api/values/:id", func(c *gin.Context) {
		c.String(200, "value")
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
	srv := &http.Server{Handler: r.Handler()}
	if err := srv.ServeTLS(ln, os.Getenv("TLS_CERT_FILE"), os.Getenv("TLS_KEY_FILE")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
