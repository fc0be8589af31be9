package core_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
)

// Middleware builds its response headers once, names made canonical then,
// and sets them all in one call per request: a constant field, a field
// whose value is known per request (WithValues), one left out as the zero
// HeaderField, and a Vary token added to what the header already has.
func ExampleContext_SetResponseHeaders() {
	noSniff := core.NewHeaderField("x-content-type-options", "nosniff")
	served := core.NewHeaderField("X-Served-By") // its value per request
	var debug core.HeaderField                   // not configured: sets nothing
	varyOrigin := core.NewHeaderFieldFunc("Vary", func(values []string) []string {
		return append(values, "Origin")
	})

	app := core.New()
	app.UseBeforeRouting(func(ctx core.Context) {
		ctx.SetResponseHeaders(noSniff, served.WithValues("node-1"), debug, varyOrigin)
		ctx.Next()
	})
	app.Get("/", func(ctx core.Context) {
		ctx.AddResponseHeader("Vary", "Accept-Language")
		ctx.Text("ok")
	})

	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	h := w.Result().Header
	fmt.Println(h.Get("X-Content-Type-Options"), h.Get("X-Served-By"), h.Values("Vary"))
	// Output:
	// nosniff node-1 [Origin Accept-Language]
}
