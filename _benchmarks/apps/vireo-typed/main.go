// Command vireo-typed is the json comparison on Vireo with a typed
// handler: POST /api/items/{id:int} binds the id from the path and the
// name and price from the JSON body into one input struct and answers the
// returned item as JSON (Status(200): a typed POST answers 201 by
// default, the comparison's answer is 200). vireo-json is the same route
// written by hand with ReadJSON and JSON.
package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/vireo-go/vireo"
)

// newItem is the request: the id from the path, the rest from the body.
type newItem struct {
	ID    int     `path:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// item is the answer.
type item struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

func main() {
	app := vireo.New()
	vireo.Post(app, "/api/items/{id:int}", func(ctx vireo.Context, in newItem) (item, error) {
		return item(in), nil // the same fields: a conversion
	}, vireo.Status(http.StatusOK))
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
