// Command echo is the simple comparison on Echo v4, banner and port message
// hidden and no logger middleware. The body is written with an explicit
// lower-case "charset=utf-8", since Echo's own text constant says "UTF-8"
// and every stack must send the same Content-Type.
package main

import (
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
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e.Listener = ln
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := e.Start(""); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
