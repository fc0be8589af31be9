// Command echo-middleware is the middleware comparison on Echo v4 with its
// built-in middleware: RequestID, CORS, Secure (the same four headers as
// the other apps; its X-XSS-Protection default is turned off, since the
// others do not send it) and Gzip (level 5), in front of GET /api/data
// writing a 1 KB JSON body marshalled once at start-up.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
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

func main() {
	body := payload()
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.Use(middleware.RequestID())
	e.Use(middleware.CORSWithConfig(middleware.CORSConfig{AllowOrigins: []string{"http://localhost:3000"}}))
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection:         "",
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ContentSecurityPolicy: "frame-ancestors 'none'",
		ReferrerPolicy:        "strict-origin-when-cross-origin",
	}))
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{Level: 5}))
	e.GET("/api/data", func(c echo.Context) error {
		return c.Blob(200, "application/json", body)
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
