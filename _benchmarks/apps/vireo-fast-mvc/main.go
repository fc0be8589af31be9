// Command vireo-fast-mvc is, on Vireo's fasthttp engine
// (vireo.WithEngine(fast.Engine()), nothing else differs), the mvc
// comparison on Vireo: ValuesController.GetBy maps by naming convention to
// GET /api/values/{param1:int}, the id is bound by type and the string
// result is written as text/plain.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/mvc"
)

// ValuesController serves /api/values. It holds no per-request state, so
// one instance serves every request.
type ValuesController struct{}

// GetBy handles GET /api/values/{id:int}.
func (c *ValuesController) GetBy(id int) string {
	return "value"
}

func main() {
	app := vireo.New(vireo.WithEngine(fast.Engine()))
	if err := mvc.Register(mvc.New(app.Group("/api/values")), new(ValuesController)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := app.Listen("127.0.0.1:" + port()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func port() string {
	if p := os.Getenv("PORT"); p != "" {
		return p
	}
	return "5000"
}
