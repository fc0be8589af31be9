package core_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/vireo-go/vireo/core"
)

// send serves one request and prints the status and body.
func send(app http.Handler, method, target, contentType, body string) {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	fmt.Println(w.Code, strings.TrimSpace(w.Body.String()))
}

// A route with a typed parameter matches only values of its type, and
// Params parses them.
func Example_typedParameter() {
	app := core.New()
	app.Get("/users/{id:int}", func(ctx core.Context) {
		id, _ := ctx.Params().Int("id") // {id:int} guarantees the parse
		ctx.Text(fmt.Sprintf("user %d", id))
	})
	app.Get("/users/{name}", func(ctx core.Context) {
		ctx.Text("user named " + ctx.Param("name"))
	})
	send(app, "GET", "/users/42", "", "")
	send(app, "GET", "/users/ann", "", "")
	send(app, "DELETE", "/users/42", "", "")
	// Output:
	// 200 user 42
	// 200 user named ann
	// 405 Method Not Allowed
}

// Middleware is a Handler that calls Next; Use applies it to the routes of
// its group, before their handlers, whatever the registration order.
func Example_middleware() {
	app := core.New()
	requireKey := func(ctx core.Context) {
		if ctx.RequestHeader("X-Key") != "secret" {
			ctx.StopWithError(core.NewHTTPError(http.StatusUnauthorized, "X-Key required"))
			return
		}
		ctx.Next()
	}
	api := app.Group("/api", requireKey)
	api.Get("/status", func(ctx core.Context) { ctx.Text("up") })

	r := httptest.NewRequest("GET", "/api/status", nil)
	r.Header.Set("X-Key", "secret")
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Body.String())
	send(app, "GET", "/api/status", "", "")
	// Output:
	// 200 up
	// 401 Unauthorized: X-Key required
}

// album is the input of the JSON API example.
type album struct {
	Title string  `json:"title"`
	Price float64 `json:"price"`
}

// A JSON API: ReadJSON decodes the body and runs the application's
// Validator; any error goes to StopWithError, whose status and page come
// from the error (415 for a body that is not JSON, 400 for malformed JSON
// or invalid fields).
func Example_jsonAPI() {
	validate := core.ValidatorFunc(func(v any) error {
		a := v.(*album)
		fields := map[string]string{}
		if a.Title == "" {
			fields["title"] = "required"
		}
		if a.Price <= 0 {
			fields["price"] = "must be positive"
		}
		if len(fields) > 0 {
			return &core.ValidationError{Fields: fields}
		}
		return nil
	})
	app := core.New(core.WithValidator(validate), core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.Post("/albums", func(ctx core.Context) {
		var a album
		if err := ctx.ReadJSON(&a); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.SetStatus(http.StatusCreated)
		ctx.JSON(a)
	})
	send(app, "POST", "/albums", "application/json", `{"title":"Blue Train","price":56.99}`)
	send(app, "POST", "/albums", "application/json", `{"price":0}`)
	send(app, "POST", "/albums", "application/json", `{"title":`)
	send(app, "POST", "/albums", "text/plain", `{"title":"x","price":1}`)
	// Output:
	// 201 {"title":"Blue Train","price":56.99}
	// 400 Bad Request: invalid input: price: must be positive; title: required
	// 400 Bad Request: malformed JSON: unexpected end of body
	// 415 Unsupported Media Type: request body must be JSON (Content-Type: application/json), got "text/plain"
}

// Error pages are negotiated: a client that prefers JSON gets RFC 9457
// Problem Details (application/problem+json) with the request ID, the
// others text. An HTTPError's Message is public, its cause Err is not.
func Example_problemDetails() {
	app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.UseBeforeRouting(func(ctx core.Context) { // what middleware.RequestID does
		ctx.Values().Set(core.RequestIDKey, "req-1")
		ctx.Next()
	})
	app.Get("/files/{name}", func(ctx core.Context) {
		ctx.StopWithError(&core.HTTPError{Code: http.StatusNotFound, Message: "no such file", Err: errors.New("open /srv/data/x: no such file")})
	})
	for _, accept := range []string{"application/json", "*/*"} {
		req := httptest.NewRequest("GET", "/files/x", nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		app.ServeHTTP(w, req)
		fmt.Println(w.Code, w.Header().Get("Content-Type"))
		fmt.Println(w.Body)
	}
	// Output:
	// 404 application/problem+json; charset=utf-8
	// {"type":"about:blank","title":"Not Found","status":404,"detail":"no such file","instance":"/files/x","requestId":"req-1"}
	// 404 text/plain; charset=utf-8
	// Not Found: no such file
}

// OnError writes every error page no OnErrorCode handler claims; what it
// shows comes from ctx.ErrorMessage, which never holds an internal cause,
// here the value of a recovered panic.
func ExampleApplication_OnError() {
	app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.OnError(func(ctx core.Context, err error) {
		ctx.JSON(map[string]any{"code": ctx.Status(), "message": ctx.ErrorMessage()})
	})
	app.Get("/boom", func(ctx core.Context) { panic("boom: secret") })
	for _, path := range []string{"/boom", "/missing"} {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		fmt.Println(w.Code, w.Body)
	}
	// Output:
	// 500 {"code":500,"message":"Internal Server Error"}
	// 404 {"code":404,"message":"Not Found"}
}

// A goroutine that outlives its handler takes a Clone. The Context itself
// is only a handle to its request: once the request is over it reads
// nothing and refuses to write, even after its pooled state has served
// other requests.
func ExampleContext_Clone() {
	app := core.New()
	ended := make(chan struct{})
	done := make(chan struct{})
	app.Get("/users/{id}", func(ctx core.Context) {
		clone := ctx.Clone()
		go func() {
			defer close(done)
			<-ended
			_, err := ctx.WriteString("late")
			fmt.Printf("clone: id=%s\n", clone.Param("id"))
			fmt.Printf("ctx: id=%q alive=%t write error=%v\n", ctx.Param("id"), ctx.Alive(), err)
		}()
		ctx.Text("user " + ctx.Param("id"))
	})
	app.Get("/ping", func(ctx core.Context) { ctx.Text("pong") })
	send(app, "GET", "/users/42", "", "")
	send(app, "GET", "/ping", "", "") // may reuse the same pooled state
	close(ended)
	<-done
	// Output:
	// 200 user 42
	// 200 pong
	// clone: id=42
	// ctx: id="" alive=false write error=vireo: Context used after its handler returned (use Clone to keep request data)
}

// RequestHeaderValues reads a header a client may send on several lines
// (Cookie, Forwarded, Accept) line by line; RequestHeader gives the first.
func ExampleContext_RequestHeaderValues() {
	app := core.New()
	app.Get("/", func(ctx core.Context) {
		for i, v := range ctx.RequestHeaderValues("Forwarded") {
			fmt.Printf("line %d: %s\n", i, v)
		}
		fmt.Println("first:", ctx.RequestHeader("Forwarded"))
	})
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Add("Forwarded", "for=192.0.2.60;proto=https")
	r.Header.Add("Forwarded", "for=198.51.100.17")
	app.ServeHTTP(httptest.NewRecorder(), r)
	// Output:
	// line 0: for=192.0.2.60;proto=https
	// line 1: for=198.51.100.17
	// first: for=192.0.2.60;proto=https
}

// Every registration error goes into one list: each registering call
// returns its own (Route.Err here), and Build returns them all.
func ExampleApplication_Build() {
	app := core.New(core.WithBodyLimit(-1))
	route := app.Get("/users/:id", func(ctx core.Context) {})
	app.Group("/api").Refuse("", "", errors.New("controller cannot bind")) // as mvc reports its own
	err := app.Build()
	var list core.RegistrationErrors
	if errors.As(err, &list) {
		for _, re := range list {
			fmt.Println(re)
		}
	}
	fmt.Println(errors.Is(err, route.Err()))
	// Output:
	// WithBodyLimit: negative size -1
	// vireo: GET "/users/:id": segment ":id" is another router's parameter syntax: write {id} (or \:id for a literal segment)
	// controller cannot bind
	// true
}
