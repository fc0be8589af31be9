// Command vireo-json is the json comparison on Vireo written by hand: POST
// /api/items/{id:int} reads the JSON body with ReadJSON, the id with
// Params().Int, and answers the item with JSON. vireo-typed is the same
// route as a typed handler; the two price the typed layer.
package main

import (
	"fmt"
	"os"

	"github.com/vireo-go/vireo"
)

// newItem is the request's body.
type newItem struct {
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
	app.Post("/api/items/{id:int}", func(ctx vireo.Context) {
		var in newItem
		if err := ctx.ReadJSON(&in); err != nil {
			ctx.StopWithError(err)
			return
		}
		id, err := ctx.Params().Int("id")
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(item{ID: id, Name: in.Name, Price: in.Price})
	})
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
