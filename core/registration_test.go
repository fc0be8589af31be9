package core

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRegistrationErrorKinds checks that everything Build refuses is a
// *RegistrationError naming the method and pattern when there is one.
func TestRegistrationErrorKinds(t *testing.T) {
	var nilFS fs.FS
	tests := []struct {
		name          string
		register      func(app *Application)
		method, patt  string
		wantInMessage string
	}{
		{"syntax", func(app *Application) { app.Get("/a/{b", ok("")) }, "GET", "/a/{b", "unclosed"},
		{"conflict", func(app *Application) { app.Get("/a", ok("")); app.Get("/a", ok("")) }, "GET", "/a", "/a"},
		{"nil handler", func(app *Application) { app.Post("/n", nil) }, "POST", "/n", "nil handler"},
		{"no handler", func(app *Application) { app.Put("/n") }, "PUT", "/n", "no handler"},
		{"group prefix", func(app *Application) { app.Group("p") }, "", "p", "begin with '/'"},
		{"nil fs", func(app *Application) { app.HandleDir("/static", nilFS) }, "GET", "/static", "fs.FS"},
		{"trusted proxy", func(app *Application) { WithTrustedProxies("X-Real-IP", "not-an-ip")(app) }, "", "", "WithTrustedProxies"},
		{"body limit", func(app *Application) { WithBodyLimit(-1)(app) }, "", "", "WithBodyLimit"},
		{"response rate", func(app *Application) { WithMinResponseRate(DataRate{BytesPerSecond: -1, Grace: time.Second})(app) }, "", "", "WithMinResponseRate"},
		{"request body rate without grace", func(app *Application) { WithMinRequestBodyRate(DataRate{BytesPerSecond: 100})(app) }, "", "", "WithMinRequestBodyRate"},
		{"shutdown timeout", func(app *Application) { WithShutdownTimeout(-time.Second)(app) }, "", "", "WithShutdownTimeout"},
		{"nil view", func(app *Application) { app.RegisterView(nil) }, "", "", "nil engine"},
		{"nil Use middleware", func(app *Application) { app.Use(nil); app.Get("/x", ok("")) }, "", "", "nil middleware"},
		{"nil group middleware", func(app *Application) { app.Group("/p", nil).Get("/x", ok("")) }, "", "/p", "nil middleware"},
		{"nil UseBeforeRouting middleware", func(app *Application) { app.UseBeforeRouting(nil) }, "", "", "nil middleware"},
		{"nil error handler", func(app *Application) { app.OnErrorCode(http.StatusNotFound, nil) }, "", "", "nil handler"},
		{"error handler for 200", func(app *Application) { app.OnErrorCode(http.StatusOK, ok("")) }, "", "", "OnErrorCode(200)"},
		{"error handler for 9999", func(app *Application) { app.OnErrorCode(9999, ok("")) }, "", "", "OnErrorCode(9999)"},
		{"outside package", func(app *Application) {
			app.Refuse("", "", errors.New("mvc: controller cannot bind"))
		}, "", "", "controller cannot bind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp()
			tt.register(app)
			err := app.Build()
			var re *RegistrationError
			if !errors.As(err, &re) {
				t.Fatalf("Build() = %#v, want a *RegistrationError", err)
			}
			if re.Method != tt.method || re.Pattern != tt.patt {
				t.Errorf("RegistrationError{Method: %q, Pattern: %q}, want %q %q", re.Method, re.Pattern, tt.method, tt.patt)
			}
			if !strings.Contains(re.Error(), tt.wantInMessage) {
				t.Errorf("Error() = %q, want it to contain %q", re.Error(), tt.wantInMessage)
			}
		})
	}
}

// TestNilOption checks that a nil Option is a registration error, not a
// panic in New.
func TestNilOption(t *testing.T) {
	var re *RegistrationError
	if err := New(WithStartupOutput(nil), nil).Build(); !errors.As(err, &re) || !strings.Contains(err.Error(), "nil Option") {
		t.Errorf("Build() = %v, want a RegistrationError for the nil Option", err)
	}
}

// TestRegistrationErrorList checks that there is one list: what each
// registering function returns is the very *RegistrationError Build's
// RegistrationErrors holds, in the order found, wherever it came from (a
// route, an option, RegisterView, Refuse on a group); and that the list
// Build returned stays as it was when more errors come later.
func TestRegistrationErrorList(t *testing.T) {
	app := New(WithStartupOutput(nil), WithBodyLimit(-1))
	route := app.Get("/a/{", ok(""))
	viewErr := app.RegisterView(nil)
	refused := app.Group("/g").Refuse("POST", "/g/x", errors.New("cannot bind"))
	if err := app.Group("/h").Refuse("", "", nil); err != nil {
		t.Errorf("Refuse(nil) = %v, want nil", err)
	}
	err := app.Build()
	var list RegistrationErrors
	if !errors.As(err, &list) || len(list) != 4 {
		t.Fatalf("Build() = %#v, want a RegistrationErrors of 4", err)
	}
	for i, want := range []error{nil, route.Err(), viewErr, refused} {
		if i > 0 && error(list[i]) != want {
			t.Errorf("list[%d] = %v, want the value its function returned, %v", i, list[i], want)
		}
	}
	if !strings.Contains(list[0].Error(), "WithBodyLimit") || list[3].Method != "POST" || list[3].Pattern != "/g/x" {
		t.Errorf("list %v", list)
	}
	if !errors.Is(err, list[3].Err) {
		t.Error("errors.Is does not see the third error's cause")
	}
	app.Get("/late", ok(""))
	if errors.As(err, &list); len(list) != 4 {
		t.Errorf("the list Build returned grew to %d", len(list))
	}
	if err := quietApp().Build(); err != nil {
		t.Errorf("Build() of a clean application = %#v, want nil", err)
	}
}

// TestFailedAppLogsOnce checks that an application with registration
// errors served as an http.Handler answers 500 every time but logs once.
func TestFailedAppLogsOnce(t *testing.T) {
	var logs bytes.Buffer
	app := New(WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	app.Get("/a/{", ok(""))
	for i := 0; i < 3; i++ {
		if w := do(app, "GET", "/a", nil); w.Code != http.StatusInternalServerError {
			t.Fatalf("request %d: status %d, want 500", i, w.Code)
		}
	}
	if n := strings.Count(logs.String(), "refusing to serve"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, logs.String())
	}
}

// TestAnyMethodsIsACopy checks that changing AnyMethods' result does not
// change what Any registers.
func TestAnyMethodsIsACopy(t *testing.T) {
	m := AnyMethods()
	m[0] = "BREW"
	if AnyMethods()[0] != http.MethodGet {
		t.Fatal("AnyMethods returned the shared slice")
	}
	app := quietApp()
	if routes := app.Any("/x", ok("")); len(routes) != len(m) || routes[0].Method != http.MethodGet {
		t.Errorf("Any registered %v", routes)
	}
}

// TestParamsTyped checks the typed getters, Uint included.
func TestParamsTyped(t *testing.T) {
	ps := paramsOf(paramList{{"u", "42"}, {"neg", "-1"}, {"b", "true"}})
	if u, err := ps.Uint("u"); err != nil || u != 42 {
		t.Errorf("Uint(u) = %d, %v", u, err)
	}
	if _, err := ps.Uint("neg"); err == nil {
		t.Error("Uint(-1) gave no error")
	}
	if b, err := ps.Bool("b"); err != nil || !b {
		t.Errorf("Bool(b) = %v, %v", b, err)
	}
}

// TestForeignParamSyntax checks that the parameter syntax of Gin, Echo,
// httprouter and Fiber (":id", "*rest"), which would register as static
// text and never match, is a registration error naming the Vireo form, and
// that an escaped leading ':' or '*' is a literal segment.
func TestForeignParamSyntax(t *testing.T) {
	for _, tt := range []struct{ pattern, want string }{
		{"/b/:id", "write {id}"},
		{"/c/*rest", "write {rest...}"},
		{"/d/*", "write {name...}"},
		{"/g/:id/x", "write {id}"},
	} {
		app := quietApp()
		app.Get(tt.pattern, ok("x"))
		err := app.Build()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Get(%q): Build() = %v, want an error containing %q", tt.pattern, err, tt.want)
		}
	}
	app := quietApp()
	app.Get(`/lit/\:id`, ok("colon"))
	app.Get(`/lit/\*`, ok("star"))
	app.Get("/in/a:b", ok("inner")) // a ':' inside a segment is plain text
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/lit/:id": "colon", "/lit/*": "star", "/in/a:b": "inner"} {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 || w.Body.String() != want {
			t.Errorf("GET %s = %d %q, want 200 %q", path, w.Code, w.Body, want)
		}
	}
}
