package mvc_test

import (
	"context"
	"errors"
	"mime/multipart"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
	"github.com/vireo-go/vireo/sessions"
)

type ctxKey struct{}

type greeter interface{ Greet(name string) string }

type english struct{ greeting string }

func (e *english) Greet(name string) string { return e.greeting + ", " + name }

type store struct{ name string }

type user struct{ Name string }

type item struct {
	Name  string `json:"name" form:"name"`
	Count int    `json:"count" form:"count"`
}

// inputsController takes every kind of input.
type inputsController struct {
	Ctx     core.Context
	Request *http.Request
	Store   *store  // static, by type
	Greeter greeter // static, by interface
	User    user    // provider
	Preset  string  // non-zero: kept
	Free    int     // no dependency: left alone
}

func (c *inputsController) GetCtx(ctx core.Context) string { return "ctx " + ctx.Path() }
func (c *inputsController) GetReq(r *http.Request) string  { return "q " + r.URL.Query().Get("q") }
func (c *inputsController) GetWriter(w http.ResponseWriter) {
	w.Header().Set("X-Writer", "yes")
	w.Write([]byte("written"))
}
func (c *inputsController) GetStd(ctx context.Context) string {
	v, _ := ctx.Value(ctxKey{}).(string)
	return "std " + v
}
func (c *inputsController) GetDep(s *store, g greeter) string {
	return s.name + " " + g.Greet("dep")
}
func (c *inputsController) GetUser(u user) string { return "user " + u.Name }
func (c *inputsController) GetFields() string {
	return strings.Join([]string{c.Ctx.Path(), c.Request.Method, c.Store.name, c.Greeter.Greet("f"), c.User.Name, c.Preset, strconv.Itoa(c.Free)}, "|")
}
func (c *inputsController) PostItems(it item) (item, int) {
	it.Count++
	return it, http.StatusCreated
}
func (c *inputsController) PutItemsBy(id int, it *item) string {
	return strconv.Itoa(id) + " " + it.Name + " " + strconv.Itoa(it.Count)
}
func (c *inputsController) PatchItemsBy(id int, it item, ctx core.Context) string {
	return ctx.Method() + " " + strconv.Itoa(id) + " " + it.Name
}
func (c *inputsController) AnyEcho(it item) string { return "echo " + it.Name }

func inputsApp(t *testing.T, opts ...core.Option) *core.Application {
	t.Helper()
	app := quietApp(opts...)
	app.Use(func(ctx core.Context) {
		ctx.SetRequest(ctx.Request().WithContext(context.WithValue(ctx.Request().Context(), ctxKey{}, "from middleware")))
		ctx.Next()
	})
	m := mvc.New(app.Group("/in"))
	err := m.Provide(&store{name: "store"}, &english{greeting: "hello"},
		func(ctx core.Context) (user, error) {
			switch name := ctx.RequestHeader("X-User"); name {
			case "":
				return user{Name: "guest"}, nil
			case "mallory":
				return user{}, core.NewHTTPError(http.StatusUnauthorized, "unknown user")
			default:
				return user{Name: name}, nil
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m, &inputsController{Preset: "preset"}); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestInputs(t *testing.T) {
	app := inputsApp(t, core.WithBodyLimit(64))
	check(t, app, []request{
		{method: "GET", target: "/in/ctx", status: 200, want: "ctx /in/ctx"},
		{method: "GET", target: "/in/req?q=search", status: 200, want: "q search"},
		{method: "GET", target: "/in/writer", status: 200, want: "written", headers: map[string]string{"X-Writer": "yes"}},
		{method: "GET", target: "/in/std", status: 200, want: "std from middleware"},
		{method: "GET", target: "/in/dep", status: 200, want: "store hello, dep"},
		{method: "POST", target: "/in/items", body: `{"name":"pen","count":2}`, contentType: "application/json",
			status: 201, want: `{"name":"pen","count":3}`, headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}},
		{method: "POST", target: "/in/items", body: `{"name":"pen"}`, status: 415, contain: "application/json"}, // no Content-Type: a cross-site page can send that
		{method: "POST", target: "/in/items", body: `name=ink&count=4`, contentType: "application/x-www-form-urlencoded",
			status: 201, want: `{"name":"ink","count":5}`},
		{method: "POST", target: "/in/items", body: `{"name":`, contentType: "application/json", status: 400, contain: "malformed JSON"},
		{method: "POST", target: "/in/items", body: `{"count":"x"}`, contentType: "application/json", status: 400, contain: "count"},
		{method: "POST", target: "/in/items", contentType: "application/json", status: 400, contain: "empty request body"},
		{method: "POST", target: "/in/items", body: `count=many`, contentType: "application/x-www-form-urlencoded", status: 400, contain: "count"},
		{method: "POST", target: "/in/items", body: `<item/>`, contentType: "application/xml", status: 415, contain: "application/xml"},
		{method: "POST", target: "/in/items", body: `{}`, contentType: "bad;;", status: 415, contain: "Content-Type"}, // the binder of typed handlers: not JSON, not a form,
		{method: "POST", target: "/in/items", body: `{"name":"` + strings.Repeat("x", 100) + `"}`, contentType: "application/json", status: 413, contain: "larger than 64"},
		{method: "PUT", target: "/in/items/3", body: `{"name":"cup","count":1}`, contentType: "application/json; charset=utf-8", status: 200, want: "3 cup 1"},
		{method: "PATCH", target: "/in/items/4", body: `{"name":"lid"}`, contentType: "application/merge-patch+json", status: 200, want: "PATCH 4 lid"},
		{method: "POST", target: "/in/echo", body: `{"name":"any"}`, contentType: "application/json", status: 200, want: "echo any"},
		{method: "GET", target: "/in/echo", status: 200, want: "echo "},
	})
}

func TestProviderAndFields(t *testing.T) {
	app := inputsApp(t)
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	req := func(target, userName string) (int, string) {
		r, _ := http.NewRequest(http.MethodGet, target, nil)
		if userName != "" {
			r.Header.Set("X-User", userName)
		}
		rec := newRecorder()
		app.ServeHTTP(rec, r)
		return rec.Code, rec.Body.String()
	}
	if code, body := req("/in/user", "ann"); code != 200 || body != "user ann" {
		t.Errorf("provider parameter: %d %q", code, body)
	}
	if code, body := req("/in/user", ""); code != 200 || body != "user guest" {
		t.Errorf("provider parameter: %d %q", code, body)
	}
	if code, body := req("/in/user", "mallory"); code != 401 || !strings.Contains(body, "unknown user") {
		t.Errorf("provider error: %d %q", code, body)
	}
	if code, body := req("/in/fields", "bob"); code != 200 || body != "/in/fields|GET|store|hello, f|bob|preset|0" {
		t.Errorf("fields: %d %q", code, body)
	}
}

// requester is a non-empty interface core.Context implements: a provider
// taking it needs no import of core.
type requester interface{ Request() *http.Request }

// agent is what agentOf provides.
type agent string

func agentOf(r requester) agent { return agent(r.Request().UserAgent()) }

type agentController struct{}

func (*agentController) Get(a agent) string { return "agent " + string(a) }

// TestProviderOfInterfaceParameter checks a provider whose parameter is an
// interface core.Context implements: it is called with the request's
// Context.
func TestProviderOfInterfaceParameter(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Group("/agent"))
	if err := m.Provide(agentOf); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m, &agentController{}); err != nil {
		t.Fatal(err)
	}
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	r, _ := http.NewRequest(http.MethodGet, "/agent", nil)
	r.Header.Set("User-Agent", "probe/1")
	rec := newRecorder()
	app.ServeHTTP(rec, r)
	if rec.Code != 200 || rec.Body.String() != "agent probe/1" {
		t.Fatalf("%d %q", rec.Code, rec.Body.String())
	}
}

// sessionController reads and writes the session of the request.
type sessionController struct {
	Session *sessions.Session
}

func (c *sessionController) GetSet() string {
	c.Session.Set("n", c.Session.GetInt("n", 0)+1)
	return "set"
}
func (c *sessionController) GetGet(s *sessions.Session) string {
	return strconv.Itoa(s.GetInt("n", 0))
}

// TestSessionInjection checks the session as a dependency: Provide(mgr.Start)
// binds the middleware's session when it ran and starts one when it did
// not; nothing provided is a registration error naming the remedy, for a
// field and for a parameter (it was a 500 at request time).
func TestSessionInjection(t *testing.T) {
	tests := []struct {
		name       string
		middleware bool
		provide    bool
	}{
		{"middleware and provider", true, true},
		{"provider alone", false, true},
		{"middleware alone", true, false},
		{"neither", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			mgr := sessions.MustNew(sessions.WithCookie("sid"), sessions.WithExpires(time.Hour))
			t.Cleanup(func() { mgr.Close() })
			m := mvc.New(app.Group("/s"))
			if tt.middleware {
				m.Router.Use(mgr.Handler())
			}
			if tt.provide {
				if err := m.Provide(mgr.Start); err != nil {
					t.Fatal(err)
				}
			}
			err := mvc.Register(m, new(sessionController))
			if !tt.provide {
				for _, want := range []string{"field Session", "GetGet: parameter 1", "Provide(manager.Start)"} {
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("Register = %v, want an error with %q", err, want)
					}
				}
				if app.Build() == nil {
					t.Error("Build accepted the controller")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := app.Build(); err != nil {
				t.Fatal(err)
			}
			rec := serve(app, "GET", "/s/set", "", "")
			if rec.Code != 200 {
				t.Fatalf("status %d (%q)", rec.Code, rec.Body.String())
			}
			cookie := rec.Result().Cookies()
			if len(cookie) == 0 {
				t.Fatal("no session cookie")
			}
			for i, want := range []string{"1", "1"} {
				r := newRequest("GET", "/s/get")
				r.AddCookie(cookie[0])
				rec := newRecorder()
				app.ServeHTTP(rec, r)
				if rec.Body.String() != want {
					t.Errorf("read %d: %q, want %q", i, rec.Body.String(), want)
				}
			}
		})
	}
}

// TestNoSessionsLinked checks that the mvc package does not import the
// sessions package, so an MVC application without sessions does not link
// them (the session is a dependency, see TestSessionInjection).
func TestNoSessionsLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/vireo-go/vireo/mvc").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/vireo-go/vireo/core") {
		t.Fatalf("go list -deps does not list core: %q", deps)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/vireo-go/vireo/sessions") {
			t.Errorf("mvc depends on %s", d)
		}
	}
}

// errProvider fails for every request.
var errProvider = errors.New("database down")

type failingFieldController struct {
	User user
}

func (c *failingFieldController) Get() string { return "unreachable" }

func TestProviderErrorInField(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Group("/f"))
	if err := m.Provide(func(core.Context) (user, error) { return user{}, errProvider }); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(m, new(failingFieldController)); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{{method: "GET", target: "/f", status: 500, want: "Internal Server Error"}})
}

// netFieldsController takes the net/http values as fields.
type netFieldsController struct {
	W   http.ResponseWriter
	Std context.Context
}

func (c *netFieldsController) Get() {
	v, _ := c.Std.Value(ctxKey{}).(string)
	c.W.Header().Set("X-Std", v)
	c.W.Write([]byte("fields"))
}

func (c *netFieldsController) PostUpload(it item) string {
	return it.Name + " " + strconv.Itoa(it.Count)
}

func TestNetHTTPFieldsAndMultipart(t *testing.T) {
	app := quietApp()
	app.Use(func(ctx core.Context) {
		ctx.SetRequest(ctx.Request().WithContext(context.WithValue(ctx.Request().Context(), ctxKey{}, "std value")))
		ctx.Next()
	})
	if err := mvc.Register(mvc.New(app.Group("/n")), new(netFieldsController)); err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	mw.WriteField("name", "scan")
	mw.WriteField("count", "7")
	mw.Close()
	check(t, app, []request{
		{method: "GET", target: "/n", status: 200, want: "fields", headers: map[string]string{"X-Std": "std value"}},
		{method: "POST", target: "/n/upload", body: body.String(), contentType: mw.FormDataContentType(), status: 200, want: "scan 7"},
	})
}

// TestInputsValidator checks that a body bound for a controller goes
// through the application's Validator, JSON and form alike, and that a
// *core.ValidationError is answered 400 with the fields as JSON.
func TestInputsValidator(t *testing.T) {
	validate := core.ValidatorFunc(func(v any) error {
		it, ok := v.(*item)
		if !ok {
			return nil
		}
		fields := map[string]string{}
		if it.Name == "" {
			fields["name"] = "required"
		}
		if it.Count < 0 {
			fields["count"] = "must not be negative"
		}
		if len(fields) > 0 {
			return &core.ValidationError{Fields: fields}
		}
		return nil
	})
	app := inputsApp(t, core.WithValidator(validate))
	check(t, app, []request{
		{method: "POST", target: "/in/items", body: `{"name":"pen","count":2}`, contentType: "application/json", status: 201, want: `{"name":"pen","count":3}`},
		{method: "POST", target: "/in/items", body: `{"count":-1}`, contentType: "application/json",
			status: 400, want: `Bad Request: invalid input: count: must not be negative; name: required`},
		{method: "POST", target: "/in/items", body: `count=1`, contentType: "application/x-www-form-urlencoded",
			status: 400, want: `Bad Request: invalid input: name: required`},
		{method: "PUT", target: "/in/items/3", body: `{"count":1}`, contentType: "application/json", status: 400, contain: `name: required`},
	})
}
