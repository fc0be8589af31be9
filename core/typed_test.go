package core

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type tItem struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

type tCreate struct {
	Tenant string  `header:"X-Tenant"`
	Name   string  `json:"name"`
	Price  float64 `json:"price"`
}

type tPage struct {
	Page  int      `query:"page" default:"1"`
	Limit uint8    `query:"limit" default:"20"`
	Q     *string  `query:"q"`
	Tags  []string `query:"tag"`
	IDs   []int    `query:"id"`
	On    bool     `query:"on"`
	Ratio float32  `query:"ratio"`
	Sess  string   `cookie:"sess"`
}

type tByID struct {
	ID int64 `path:"id"`
}

type tUpdate struct {
	ID   int64  `path:"id" json:"id"` // a body "id" must not win over the path
	Name string `json:"name"`
}

type tEmbedded struct {
	tByID
	Verbose bool `query:"verbose"`
}

func typedApp(opts ...Option) *Application {
	app := quietApp(opts...)
	Post(app, "/items", func(ctx Context, in tCreate) (tItem, error) {
		return tItem{ID: 1, Name: in.Name + "@" + in.Tenant, Price: in.Price}, nil
	})
	Get(app, "/items", func(ctx Context, in tPage) (map[string]any, error) {
		q := "<nil>"
		if in.Q != nil {
			q = *in.Q
		}
		return map[string]any{"page": in.Page, "limit": in.Limit, "q": q, "tags": in.Tags, "ids": in.IDs, "on": in.On, "ratio": in.Ratio, "sess": in.Sess}, nil
	})
	Get(app, "/items/{id:int64}", func(ctx Context, in tByID) (tItem, error) {
		if in.ID == 404 {
			return tItem{}, NewHTTPError(http.StatusNotFound, "no such item")
		}
		return tItem{ID: int(in.ID)}, nil
	}, Errors(http.StatusNotFound))
	Put(app, "/items/{id:int64}", func(ctx Context, in tUpdate) (tItem, error) {
		return tItem{ID: int(in.ID), Name: in.Name}, nil
	})
	Patch(app, "/items/{id:int64}/verbose", func(ctx Context, in tEmbedded) (tItem, error) {
		if !in.Verbose {
			return tItem{}, errors.New("internal")
		}
		return tItem{ID: int(in.ID)}, nil
	})
	Delete(app, "/items/{id:int64}", func(ctx Context, in tByID) (NoContent, error) { return NoContent{}, nil })
	Post(app, "/accepted", func(ctx Context, in struct{}) (tItem, error) { return tItem{ID: 7}, nil }, Status(http.StatusAccepted))
	Get(app, "/stopped", func(ctx Context, in struct{}) (tItem, error) {
		ctx.StopWithStatus(http.StatusConflict)
		return tItem{}, nil
	})
	Get(app, "/own", func(ctx Context, in struct{}) (tItem, error) {
		ctx.Text("written by hand")
		return tItem{}, nil
	})
	return app
}

func TestTypedHandlers(t *testing.T) {
	app := typedApp(WithBodyLimit(64))
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, target, ctype, body string
		header                            map[string]string
		code                              int
		want                              string
	}{
		{"post 201 body and header", "POST", "/items", "application/json", `{"name":"pen","price":2.5}`, map[string]string{"X-Tenant": "acme"}, 201, `{"id":1,"name":"pen@acme","price":2.5}`},
		{"post form", "POST", "/items", "application/x-www-form-urlencoded", `name=pen&price=3`, nil, 201, `{"id":1,"name":"pen@","price":3}`},
		{"post 415", "POST", "/items", "text/plain", `x`, nil, 415, ""},
		{"post 400 malformed", "POST", "/items", "application/json", `{"name":`, nil, 400, ""},
		{"post 400 empty", "POST", "/items", "application/json", ``, nil, 400, ""},
		{"post 413", "POST", "/items", "application/json", `{"name":"` + strings.Repeat("x", 100) + `"}`, nil, 413, ""},
		{"query defaults", "GET", "/items", "", "", nil, 200, `{"ids":null,"limit":20,"on":false,"page":1,"q":"\u003cnil\u003e","ratio":0,"sess":"","tags":null}`},
		{"query values", "GET", "/items?page=3&limit=5&q=&tag=a&tag=b&id=1&id=2&on=true&ratio=0.5", "", "", map[string]string{"Cookie": "sess=s1"}, 200, `{"ids":[1,2],"limit":5,"on":true,"page":3,"q":"","ratio":0.5,"sess":"s1","tags":["a","b"]}`},
		{"query 400 names every bad parameter", "GET", "/items?page=x&limit=300&id=1&id=y", "", "", nil, 400, `"errors":{"id":"must be an integer","limit":"must be an integer between 0 and 255","page":"must be an integer"}`},
		{"path", "GET", "/items/42", "", "", nil, 200, `{"id":42,"name":"","price":0}`},
		{"handler error status", "GET", "/items/404", "", "", nil, 404, "no such item"},
		{"path wins over body", "PUT", "/items/5", "application/json", `{"id":9,"name":"n"}`, nil, 200, `{"id":5,"name":"n","price":0}`},
		{"embedded struct", "PATCH", "/items/6/verbose?verbose=true", "", "", nil, 200, `{"id":6,"name":"","price":0}`},
		{"plain error is 500", "PATCH", "/items/6/verbose", "", "", nil, 500, ""},
		{"delete 204", "DELETE", "/items/5", "", "", nil, 204, ""},
		{"status option", "POST", "/accepted", "application/json", `{}`, nil, 202, `{"id":7,"name":"","price":0}`},
		{"handler wrote its own answer", "GET", "/own", "", "", nil, 200, "written by hand"},
		{"handler stopped with a status", "GET", "/stopped", "", "", nil, 409, `"status":409`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			r.Header.Set("Accept", "application/json") // error pages as Problem Details
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			app.ServeHTTP(w, r)
			if w.Code != tt.code {
				t.Fatalf("status %d, want %d (%s)", w.Code, tt.code, w.Body)
			}
			if tt.want != "" && !strings.Contains(w.Body.String(), tt.want) {
				t.Errorf("body %s, want %s", w.Body, tt.want)
			}
			if tt.code == 204 && w.Body.Len() != 0 {
				t.Errorf("204 with a body: %q", w.Body)
			}
		})
	}
}

func TestTypedValidation(t *testing.T) {
	var got any
	app := quietApp(WithValidator(ValidatorFunc(func(v any) error {
		got = v
		if c, ok := v.(*tCreate); ok && c.Tenant == "" {
			return &ValidationError{Fields: map[string]string{"X-Tenant": "is required"}}
		}
		return nil
	})))
	Post(app, "/items", func(ctx Context, in tCreate) (tItem, error) { return tItem{Name: in.Name}, nil })
	r := httptest.NewRequest("POST", "/items", strings.NewReader(`{"name":"pen"}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json")
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	if w.Code != 400 || !strings.Contains(w.Body.String(), `"errors":{"X-Tenant":"is required"}`) {
		t.Errorf("missing header: %d %s", w.Code, w.Body)
	}
	if _, ok := got.(*tCreate); !ok {
		t.Errorf("validator got %T, want *tCreate (the whole input, once)", got)
	}
}

func TestTypedRegistrationErrors(t *testing.T) {
	type noTag struct{ Name string }
	type badPath struct {
		ID int `path:"nope"`
	}
	type badType struct {
		C chan int `query:"c"`
	}
	type sliceHeaderOK struct {
		A []string `header:"X-A"`
	}
	type badDefault struct {
		N int `query:"n" default:"x"`
	}
	type pathDefault struct {
		ID int `path:"id" default:"1"`
	}
	type sliceCookie struct {
		S []string `cookie:"s"`
	}
	type unexported struct {
		n int `query:"n"`
	}
	_ = unexported{n: 1} // the field exists for the registration to refuse it
	tests := []struct {
		name string
		reg  func(app *Application) *Route
		want string
	}{
		{"body field on GET", func(app *Application) *Route {
			return Get(app, "/a", func(Context, noTag) (tItem, error) { return tItem{}, nil })
		}, "a GET request has no body"},
		{"path tag without parameter", func(app *Application) *Route {
			return Get(app, "/a/{id}", func(Context, badPath) (tItem, error) { return tItem{}, nil })
		}, "the pattern has no parameter {nope}"},
		{"unsupported type", func(app *Application) *Route {
			return Get(app, "/a", func(Context, badType) (tItem, error) { return tItem{}, nil })
		}, "unsupported type chan int"},
		{"bad default", func(app *Application) *Route {
			return Get(app, "/a", func(Context, badDefault) (tItem, error) { return tItem{}, nil })
		}, `default "x"`},
		{"default on a path parameter", func(app *Application) *Route {
			return Get(app, "/a/{id}", func(Context, pathDefault) (tItem, error) { return tItem{}, nil })
		}, "a default means nothing"},
		{"slice cookie", func(app *Application) *Route {
			return Get(app, "/a", func(Context, sliceCookie) (tItem, error) { return tItem{}, nil })
		}, "only query parameters and headers"},
		{"unexported tagged field", func(app *Application) *Route {
			return Get(app, "/a", func(Context, unexported) (tItem, error) { return tItem{}, nil })
		}, "field n is unexported"},
		{"input not a struct", func(app *Application) *Route {
			return Post(app, "/a", func(Context, []tItem) (tItem, error) { return tItem{}, nil })
		}, "must be a struct"},
		{"nil function", func(app *Application) *Route {
			return Post[tCreate, tItem](app, "/a", nil)
		}, "nil handler"},
		{"bad status", func(app *Application) *Route {
			return Post(app, "/a", func(Context, tCreate) (tItem, error) { return tItem{}, nil }, Status(404))
		}, "not a success status"},
		{"bad error status", func(app *Application) *Route {
			return app.Get("/a", ok("")).Describe(Errors(200))
		}, "not an error status"},
		{"output with no JSON form", func(app *Application) *Route {
			return Get(app, "/a", func(Context, struct{}) (func(), error) { return nil, nil })
		}, "OpenAPI"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp(WithOpenAPI("", openapiInfo))
			tt.reg(app)
			err := app.Build()
			var re *RegistrationError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build: %v, want a RegistrationError with %q", err, tt.want)
			}
		})
	}
	app := quietApp()
	Get(app, "/ok", func(Context, sliceHeaderOK) (tItem, error) { return tItem{}, nil })
	if err := app.Build(); err != nil {
		t.Errorf("repeated header: %v", err)
	}
}

// TestTypedKeepsNothing checks that nothing of one request's input reaches
// the next: every input is a new value, absent parameters are zero.
func TestTypedKeepsNothing(t *testing.T) {
	app := typedApp()
	get := func(target string) string {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		return w.Body.String()
	}
	get("/items?tag=a&q=x&id=3")
	if b := get("/items"); !strings.Contains(b, `"tags":null`) || !strings.Contains(b, `"q":"\u003cnil\u003e"`) || !strings.Contains(b, `"ids":null`) {
		t.Errorf("second request saw the first's values: %s", b)
	}
}
