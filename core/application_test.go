package core

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func ok(body string) Handler { return func(c Context) { c.WriteString(body) } }

func do(app http.Handler, method, target string, body io.Reader) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	app.ServeHTTP(w, httptest.NewRequest(method, target, body))
	return w
}

func quietApp(opts ...Option) *Application {
	return New(append([]Option{WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}, opts...)...)
}

func TestUnmatched(t *testing.T) {
	newApp := func(opts ...Option) *Application {
		app := quietApp(opts...)
		app.Get("/users", ok("list"))
		app.Post("/users", ok("create"))
		app.Get("/users/{id:int}/", ok("user"))
		app.Delete("/items/{id}", ok("del"))
		app.Put("/exact", ok("put"))
		return app
	}
	tests := []struct {
		name     string
		opts     []Option
		method   string
		target   string
		code     int
		body     string
		location string
		allow    string
	}{
		{name: "get", method: "GET", target: "/users", code: 200, body: "list"},
		{name: "head uses get", method: "HEAD", target: "/users", code: 200},
		{name: "405 with allow", method: "PATCH", target: "/users", code: 405, body: "Method Not Allowed", allow: "GET, HEAD, OPTIONS, POST"},
		{name: "405 param route", method: "GET", target: "/items/3", code: 405, allow: "DELETE, OPTIONS"},
		{name: "options", method: "OPTIONS", target: "/users", code: 204, allow: "GET, HEAD, OPTIONS, POST"},
		{name: "404", method: "GET", target: "/nothing", code: 404, body: "Not Found"},
		{name: "options unknown path", method: "OPTIONS", target: "/nothing", code: 404},
		{name: "trailing slash added", method: "GET", target: "/users/7?x=1", code: 301, location: "/users/7/?x=1"},
		{name: "trailing slash removed", method: "GET", target: "/users/", code: 301, location: "/users"},
		{name: "trailing slash post keeps method", method: "POST", target: "/users/", code: 308, location: "/users"},
		{name: "strict slash", opts: []Option{WithTrailingSlash(StrictSlash)}, method: "GET", target: "/users/", code: 404},
		{name: "ignore slash", opts: []Option{WithTrailingSlash(IgnoreSlash)}, method: "GET", target: "/users/", code: 200, body: "list"},
		{name: "clean double slash", method: "GET", target: "/users//7/", code: 301, location: "/users/7/"},
		{name: "clean dot", method: "GET", target: "/./users", code: 301, location: "/users"},
		{name: "clean dotdot keeps query", method: "GET", target: "/a/../users?q=1", code: 301, location: "/users?q=1"},
		{name: "clean dotdot above root", method: "GET", target: "/../../users", code: 301, location: "/users"},
		{name: "clean protocol-relative", method: "GET", target: "//evil.example/x", code: 301, location: "/evil.example/x"},
		{name: "clean put is 308", method: "PUT", target: "//exact", code: 308, location: "/exact"},
		{name: "dot never a param", method: "DELETE", target: "/items/.", code: 308, location: "/items"},
		{name: "dotdot never a param", method: "DELETE", target: "/items/..", code: 308, location: "/"},
		{name: "clean escaped path keeps escapes", method: "DELETE", target: "/items//a%2Fb", code: 308, location: "/items/a%2Fb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(newApp(tt.opts...), tt.method, tt.target, nil)
			if w.Code != tt.code {
				t.Fatalf("code = %d, want %d (body %q)", w.Code, tt.code, w.Body)
			}
			if tt.body != "" && w.Body.String() != tt.body {
				t.Errorf("body = %q, want %q", w.Body, tt.body)
			}
			if got := w.Header().Get("Location"); got != tt.location {
				t.Errorf("Location = %q, want %q", got, tt.location)
			}
			if got := w.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestHeadRouteWins(t *testing.T) {
	app := quietApp()
	app.Get("/x", ok("get"))
	app.Head("/x", func(c Context) { c.SetResponseHeader("X-Head", "1") })
	w := do(app, "HEAD", "/x", nil)
	if w.Header().Get("X-Head") != "1" {
		t.Fatal("explicit HEAD route not used")
	}
}

func TestMiddlewareOrder(t *testing.T) {
	var trace []string
	mark := func(name string) Handler {
		return func(c Context) {
			trace = append(trace, name)
			c.Next()
			trace = append(trace, "/"+name)
		}
	}
	app := quietApp()
	app.UseBeforeRouting(mark("router"))
	app.Use(mark("app"))
	api := app.Group("/api", mark("group"))
	api.Get("/x", mark("route"), func(c Context) { trace = append(trace, "handler") })
	api.Use(mark("group-late")) // registered after the route: still applies
	app.Get("/stop", func(c Context) { c.StopWithStatus(http.StatusForbidden); c.Next() }, mark("never"))

	do(app, "GET", "/api/x", nil)
	want := "router app group group-late route handler /route /group-late /group /app /router"
	if got := strings.Join(trace, " "); got != want {
		t.Fatalf("order:\n got %s\nwant %s", got, want)
	}

	trace = nil
	w := do(app, "GET", "/missing", nil)
	if w.Code != 404 || strings.Join(trace, " ") != "router /router" {
		t.Fatalf("router middleware on 404: code %d trace %v", w.Code, trace)
	}

	trace = nil
	w = do(app, "GET", "/stop", nil)
	if w.Code != 403 || strings.Join(trace, " ") != "router app /app /router" {
		t.Fatalf("Stop: code %d trace %v", w.Code, trace)
	}
}

func TestNotCallingNextEndsChain(t *testing.T) {
	app := quietApp()
	ran := false
	app.Get("/", func(c Context) { c.WriteString("auth failed") }, func(c Context) { ran = true })
	if w := do(app, "GET", "/", nil); w.Body.String() != "auth failed" || ran {
		t.Fatalf("chain continued without Next: %q ran=%v", w.Body, ran)
	}
}

func TestErrorHandlers(t *testing.T) {
	app := quietApp()
	app.OnErrorCode(404, func(c Context) { c.WriteString("app 404") })
	app.OnErrorCode(500, func(c Context) { c.WriteString("app 500: " + c.StopError().Error()) })
	admin := app.Group("/admin")
	admin.OnErrorCode(404, func(c Context) { c.WriteString("admin 404") })
	admin.Get("/users/{id:int}", func(c Context) { c.StopWithStatus(404) })
	admin.Get("/boom", func(c Context) { panic("kaboom") })
	app.Get("/teapot", func(c Context) { c.SetStatus(418) })
	app.Get("/written", func(c Context) { c.SetStatus(404); c.WriteString("custom body") })
	app.Get("/bad", func(c Context) { c.StopWithError(NewHTTPError(400, "name is required")) })
	app.Get("/internal", func(c Context) { c.StopWithError(fmt.Errorf("db password is hunter2")) })

	tests := []struct {
		target, body string
		code         int
	}{
		{"/nope", "app 404", 404},
		{"/admin/nope", "admin 404", 404},
		{"/administrator", "app 404", 404},
		{"/admin/users/1", "admin 404", 404},
		{"/admin/boom", "app 500: panic: kaboom", 500},
		{"/teapot", "I'm a teapot", 418},
		{"/written", "custom body", 404},
		{"/bad", "Bad Request: name is required", 400},
	}
	for _, tt := range tests {
		w := do(app, "GET", tt.target, nil)
		if w.Code != tt.code || w.Body.String() != tt.body {
			t.Errorf("%s: got %d %q, want %d %q", tt.target, w.Code, w.Body, tt.code, tt.body)
		}
	}

	// Internal error text never reaches the client by default.
	plain := quietApp()
	plain.Get("/internal", func(c Context) { c.StopWithError(fmt.Errorf("db password is hunter2")) })
	if w := do(plain, "GET", "/internal", nil); w.Code != 500 || strings.Contains(w.Body.String(), "hunter2") {
		t.Errorf("internal error leaked: %d %q", w.Code, w.Body)
	}
	detailed := quietApp(WithErrorDetails())
	detailed.Get("/internal", func(c Context) { c.StopWithError(fmt.Errorf("db down")) })
	if w := do(detailed, "GET", "/internal", nil); w.Body.String() != "Internal Server Error: db down" {
		t.Errorf("WithErrorDetails: %q", w.Body)
	}
}

func TestRecoverKeepsServing(t *testing.T) {
	var logs bytes.Buffer
	app := New(WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	app.Get("/panic", func(c Context) { panic("boom") })
	app.Get("/ok", ok("fine"))
	srv := httptest.NewServer(app)
	defer srv.Close()
	for i := 0; i < 3; i++ {
		res, err := http.Get(srv.URL + "/panic")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 500 {
			t.Fatalf("panic gave %d", res.StatusCode)
		}
	}
	res, err := http.Get(srv.URL + "/ok")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("server stopped serving after panics: %v", err)
	}
	res.Body.Close()
	if !strings.Contains(logs.String(), "panic recovered") || !strings.Contains(logs.String(), "goroutine") {
		t.Fatalf("panic not logged with stack: %s", logs.String())
	}
}

// TestPoolReset runs many concurrent requests with different parameters,
// values and headers through pooled contexts and checks that no request sees
// anything of another. Run with -race.
func TestPoolReset(t *testing.T) {
	app := quietApp()
	app.Use(func(c Context) {
		if c.Values().Get("seen") != nil || c.Param("id") == "" || c.Status() != 200 || c.IsStopped() {
			c.StopWithError(fmt.Errorf("stale context state"))
			return
		}
		c.Values().Set("seen", c.Param("id"))
		c.Next()
	})
	app.Get("/items/{id}", func(c Context) {
		if c.Query("q") != c.Param("id") {
			c.StopWithStatus(409)
			return
		}
		c.SetResponseHeader("X-Id", c.Param("id"))
		if c.Param("id")[0] == '5' {
			c.SetStatus(http.StatusAccepted)
		}
		c.WriteString(c.Values().GetString("seen"))
	})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				id := fmt.Sprintf("%d-%d", g, i)
				w := do(app, "GET", "/items/"+id+"?q="+id, nil)
				want := 200
				if id[0] == '5' {
					want = 202
				}
				if w.Code != want || w.Body.String() != id || w.Header().Get("X-Id") != id {
					errs <- fmt.Sprintf("%s: %d %q %q", id, w.Code, w.Body, w.Header().Get("X-Id"))
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestContextAfterReturn(t *testing.T) {
	app := quietApp()
	held := make(chan Context, 1)
	clones := make(chan Context, 1)
	app.Get("/users/{id}", func(c Context) {
		c.Values().Set("user", "ann")
		held <- c
		clones <- c.Clone()
	})
	do(app, "GET", "/users/42", nil)
	c, clone := <-held, <-clones

	// The released Context reads nothing and says why.
	if c.Param("id") != "" || c.Values().GetString("user") != "" || c.Request() != nil || c.Alive() {
		t.Fatal("a released Context still reads its request")
	}
	if c.StopError() != ErrContextReleased {
		t.Fatalf("Err after return: %v, want ErrContextReleased", c.StopError())
	}
	if _, err := c.WriteString("late"); err != ErrContextReleased {
		t.Fatalf("write after return: %v", err)
	}
	// The clone keeps the request data and refuses to write.
	if clone.Param("id") != "42" || clone.Values().GetString("user") != "ann" || clone.Request().URL.Path != "/users/42" {
		t.Fatal("clone lost request data")
	}
	if _, err := clone.WriteString("x"); err == nil {
		t.Fatal("clone wrote to a finished response")
	}
}

func TestRouteAfterBuildRefused(t *testing.T) {
	app := quietApp()
	app.Get("/", ok("x"))
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	if err := app.Get("/late", ok("y")).Err(); err == nil {
		t.Fatal("route registered after Build accepted")
	}
}

// TestErrorPageDropsEntityHeaders checks that an error page does not go
// out under the headers a handler set for the body it meant to send: a
// Content-Length that does not fit the page (the client would read a
// truncated or hanging body), and validators, caching and download headers
// that would make caches or browsers keep the page as that content.
func TestErrorPageDropsEntityHeaders(t *testing.T) {
	for _, custom := range []bool{false, true} {
		app := quietApp()
		if custom {
			app.OnErrorCode(http.StatusConflict, func(c Context) { c.WriteString("custom conflict page") })
		}
		app.Get("/", func(c Context) {
			h := c.ResponseWriter().Header()
			h.Set("Content-Length", "1000")
			h.Set("Etag", `"v1"`)
			h.Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
			h.Set("Cache-Control", "public, max-age=31536000")
			h.Set("Content-Disposition", `attachment; filename="report.csv"`)
			h.Set("X-Custom", "kept")
			c.StopWithError(NewHTTPError(http.StatusConflict, "taken"))
		})
		srv := httptest.NewServer(app)
		res, err := srv.Client().Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		srv.Close()
		want := "Conflict: taken"
		if custom {
			want = "custom conflict page"
		}
		if err != nil || res.StatusCode != http.StatusConflict || string(body) != want {
			t.Errorf("custom=%v: %d %q, %v; want 409 %q", custom, res.StatusCode, body, err, want)
		}
		for _, k := range []string{"Etag", "Last-Modified", "Cache-Control", "Content-Disposition"} {
			if v := res.Header.Get(k); v != "" {
				t.Errorf("custom=%v: error page sent with %s: %q", custom, k, v)
			}
		}
		if res.Header.Get("X-Custom") != "kept" {
			t.Errorf("custom=%v: other headers should stay", custom)
		}
	}
}
