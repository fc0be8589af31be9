package fast_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

// TestRequestContext: on the fast engine RequestContext is the context
// that Request's request carries, live while the request runs and done
// once it is over, also when Request is never called.
func TestRequestContext(t *testing.T) {
	kept := make(chan context.Context, 2)
	app := newApp()
	app.Get("/ctx", func(ctx core.Context) {
		c := ctx.RequestContext()
		if c.Err() != nil {
			t.Errorf("the context of a running request is done: %v", c.Err())
		}
		kept <- c
	})
	app.Get("/both", func(ctx core.Context) {
		c := ctx.RequestContext()
		if r := ctx.Request(); r.Context() != c {
			t.Error("Request().Context() is not RequestContext()")
		}
		kept <- c
	})
	base := serve(t, app)
	for _, path := range []string{"/ctx", "/both"} {
		get(t, http.DefaultClient, base+path)
		select {
		case <-(<-kept).Done():
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the context is not done after the request", path)
		}
	}
}
