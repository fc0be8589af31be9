// Command iris-mvc is the mvc comparison on Iris v12: a controller whose
// GetBy(id int) method Iris maps to GET /api/values/{id:int}, returning a
// string that Iris's MVC writes as the body. Logger and startup message off.
package main

import (
	"fmt"
	"net"
	"os"

	"github.com/kataras/iris/v12"
	"github.com/kataras/iris/v12/mvc"
)

// ValuesController serves /api/values.
type ValuesController struct{}

// GetBy handles GET /api/values/{id:int}.
func (c *ValuesController) GetBy(id int) string {
	return "value"
}

func main() {
	app := iris.New()
	app.Logger().SetLevel("disable")
	mvc.New(app.Party("/api/values")).Handle(new(ValuesController))

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	if err := app.Build(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := app.Run(iris.Listener(ln), iris.WithoutStartupLog, iris.WithoutServerError(iris.ErrServerClosed)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
