package vireotest_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/vireotest"
)

func TestClient(t *testing.T) {
	app := vireo.New()
	app.Get("/set", func(ctx *vireo.Context) {
		ctx.SetCookie(&http.Cookie{Name: "n", Value: "1", Path: "/"})
		ctx.Redirect("/get", http.StatusFound)
	})
	app.Get("/get", func(ctx *vireo.Context) {
		v, _ := ctx.Cookie("n")
		ctx.Text("cookie=" + v)
	})
	app.Post("/form", func(ctx *vireo.Context) { ctx.Text(ctx.PostValue("a")) })
	app.Put("/json", func(ctx *vireo.Context) {
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
