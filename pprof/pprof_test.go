// Tests of the guarded profiles: unreachable without the guard's consent,
// served with it, on the public app or on a separate loopback listener;
// Register refuses no guard.

package pprof_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/pprof"
)

func guarded(t *testing.T) *core.Application {
	t.Helper()
	app := core.New()
	app.Get("/", func(ctx core.Context) { ctx.WriteString("public") })
	if err := pprof.Register(app, middleware.MustBasicAuth(middleware.WithUsers(map[string]string{"ops": "s3cret"}))); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestGuard(t *testing.T) {
	app := guarded(t)
	tests := []struct {
		name, method, path string
		user, password     string
		wantStatus         int
		wantBody           string
	}{
		{"index without credentials", "GET", "/debug/pprof/", "", "", 401, ""},
		{"heap without credentials", "GET", "/debug/pprof/heap?debug=1", "", "", 401, ""},
		{"cmdline without credentials", "GET", "/debug/pprof/cmdline", "", "", 401, ""},
		{"symbol post without credentials", "POST", "/debug/pprof/symbol", "", "", 401, ""},
		{"wrong password", "GET", "/debug/pprof/goroutine?debug=1", "ops", "guess", 401, ""},
		{"index", "GET", "/debug/pprof/", "ops", "s3cret", 200, "goroutine"},
		{"goroutine", "GET", "/debug/pprof/goroutine?debug=1", "ops", "s3cret", 200, "goroutine profile:"},
		{"heap", "GET", "/debug/pprof/heap?debug=1", "ops", "s3cret", 200, "heap profile:"},
		{"cmdline", "GET", "/debug/pprof/cmdline", "ops", "s3cret", 200, "pprof.test"},
		{"unknown profile", "GET", "/debug/pprof/nothing", "ops", "s3cret", 404, "Unknown profile"},
		{"public route untouched", "GET", "/", "", "", 200, "public"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.user != "" {
				req.SetBasicAuth(tt.user, tt.password)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Fatalf("%d %.200q, want %d containing %q", rec.Code, rec.Body.String(), tt.wantStatus, tt.wantBody)
			}
			if tt.wantStatus == 401 && strings.Contains(rec.Body.String(), "profile") {
				t.Fatalf("a refused request got profile data: %q", rec.Body.String())
			}
		})
	}
}

// TestSeparateListener mounts the profiles on a second application served
// on a loopback listener: the public application does not have them.
func TestSeparateListener(t *testing.T) {
	public := core.New()
	public.Get("/", func(ctx core.Context) { ctx.WriteString("public") })
	debug := core.New()
	token := middleware.MustBearerAuth(middleware.WithTokenValidator(func(_ core.Context, tok string) bool { return tok == "t0ken" }))
	if err := pprof.Register(debug, token); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: debug}
	go srv.Serve(ln)
	defer srv.Close()

	rec := httptest.NewRecorder()
	public.ServeHTTP(rec, httptest.NewRequest("GET", "/debug/pprof/", nil))
	if rec.Code != 404 {
		t.Fatalf("public app: /debug/pprof/ %d, want 404", rec.Code)
	}
	get := func(auth string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/debug/pprof/goroutine?debug=1", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(""); code != 401 {
		t.Fatalf("debug listener without a token: %d, want 401", code)
	}
	if code, body := get("Bearer t0ken"); code != 200 || !strings.Contains(body, "goroutine profile:") {
		t.Fatalf("debug listener with the token: %d %.100q", code, body)
	}
}

func TestRegisterNeedsGuard(t *testing.T) {
	app := core.New()
	if err := pprof.Register(app, nil); err == nil || !strings.Contains(err.Error(), "needs a guard") {
		t.Fatalf("Register(nil guard): %v", err)
	}
	if len(app.Routes()) != 0 {
		t.Fatalf("routes mounted without a guard: %v", app.Routes())
	}
}
