package vireotest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/vireotest"
)

func TestClient(t *testing.T) {
	app := vireo.New()
	app.Get("/set", func(ctx vireo.Context) {
		ctx.SetCookie(&http.Cookie{Name: "n", Value: "1", Path: "/"})
		ctx.Redirect("/get", http.StatusFound)
	})
	app.Get("/get", func(ctx vireo.Context) {
		v, _ := ctx.RequestCookie("n")
		ctx.Text("cookie=" + v)
	})
	app.Post("/form", func(ctx vireo.Context) { ctx.Text(ctx.PostValue("a")) })
	app.Put("/json", func(ctx vireo.Context) {
		var m map[string]int
		if err := ctx.ReadJSON(&m); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(m)
	})
	c := vireotest.New(t, app)
	if res := c.Get("/set"); res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/get" {
		t.Fatalf("redirect followed or lost: %d %v", res.StatusCode, res.Header)
	}
	c.Get("/get").Expect(t, 200, "cookie=1")
	c.PostForm("/form", url.Values{"a": {"b"}}).Expect(t, 200, "b")
	var m map[string]int
	res := c.SendJSON("PUT", "/json", map[string]int{"x": 1})
	res.DecodeJSON(t, &m)
	if m["x"] != 1 {
		t.Fatalf("json: %v", m)
	}
	c.Do("PUT", "/json", nil, "Content-Type", "application/json").Expect(t, 400, "Bad Request: empty request body, JSON expected")
}

// recordingTB records Fatalf instead of failing the real test.
type recordingTB struct {
	testing.TB
	failed string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestDoOddHeaderList checks that a header name without its value fails
// the test instead of being dropped silently.
func TestDoOddHeaderList(t *testing.T) {
	app := vireo.New(vireo.WithStartupOutput(nil))
	app.Get("/", func(ctx vireo.Context) { ctx.Text(ctx.RequestHeader("X-A")) })
	rec := &recordingTB{TB: t}
	c := vireotest.New(rec, app)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Get("/", "X-A", "1", "X-B")
	}()
	<-done
	if !strings.Contains(rec.failed, "X-B") {
		t.Errorf("odd header list: failure %q, want one naming X-B", rec.failed)
	}
}
