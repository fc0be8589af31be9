package core_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
)

type exampleNewAlbum struct {
	Artist string  `path:"artist"`
	Title  string  `json:"title"`
	Price  float64 `json:"price"`
}

type exampleAlbum struct {
	ID     int     `json:"id"`
	Artist string  `json:"artist"`
	Title  string  `json:"title"`
	Price  float64 `json:"price"`
}

type exampleAlbumID struct {
	ID      int  `path:"id"`
	Verbose bool `query:"verbose" default:"false"`
}

// A typed handler gets its input bound from the path, the query and the
// body, and its output is written as JSON: 201 for a POST, 204 for
// NoContent. A bad input is a *ValidationError, answered by the error
// page (text here; Problem Details with the fields under "errors" for a
// client that accepts JSON). The same routes are described by
// app.OpenAPI().
func ExampleHandleTyped() {
	app := core.New(core.WithStartupOutput(nil))
	core.Post(app, "/artists/{artist}/albums", func(ctx core.Context, in exampleNewAlbum) (exampleAlbum, error) {
		return exampleAlbum{ID: 1, Artist: in.Artist, Title: in.Title, Price: in.Price}, nil
	}, core.Summary("Add an album"))
	core.Get(app, "/albums/{id:int}", func(ctx core.Context, in exampleAlbumID) (exampleAlbum, error) {
		if in.ID != 1 {
			return exampleAlbum{}, core.NewHTTPError(http.StatusNotFound, "no such album")
		}
		return exampleAlbum{ID: 1, Title: fmt.Sprint("verbose=", in.Verbose)}, nil
	}, core.Errors(http.StatusNotFound))
	core.Delete(app, "/albums/{id:int}", func(ctx core.Context, in exampleAlbumID) (core.NoContent, error) {
		return core.NoContent{}, nil
	})
	send(app, "POST", "/artists/coltrane/albums", "application/json", `{"title":"Blue Train","price":56.99}`)
	send(app, "GET", "/albums/1?verbose=true", "", "")
	send(app, "GET", "/albums/1?verbose=maybe", "", "")
	send(app, "GET", "/albums/2", "", "")
	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest("DELETE", "/albums/1", nil))
	fmt.Println(w.Code, w.Body.Len())
	doc, _ := app.OpenAPI()
	fmt.Println(doc.Paths["/artists/{artist}/albums"].Post.Summary, len(doc.Paths))
	// Output:
	// 201 {"id":1,"artist":"coltrane","title":"Blue Train","price":56.99}
	// 200 {"id":1,"artist":"","title":"verbose=true","price":0}
	// 400 Bad Request: invalid input: verbose: must be true or false
	// 404 Not Found: no such album
	// 204 0
	// Add an album 2
}
