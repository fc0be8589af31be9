package core_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
)

// accessLog prints a request once its response is finished.
type accessLog struct{}

func (accessLog) Done(ctx core.Context) {
	route := "(unmatched)"
	if rt := ctx.Route(); rt != nil {
		route = rt.Pattern
	}
	fmt.Println(ctx.Method(), route, ctx.Status(), ctx.BytesWritten(), "bytes")
}

func ExampleContext_OnDone() {
	app := core.New()
	app.UseBeforeRouting(func(ctx core.Context) {
		ctx.OnDone(accessLog{})
		ctx.Next() // the 404 page is not written yet when Next returns
	})
	app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("user " + ctx.Param("id")) })

	for _, path := range []string{"/users/7", "/nowhere"} {
		app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	// Output:
	// GET /users/{id} 200 6 bytes
	// GET (unmatched) 404 9 bytes
}
