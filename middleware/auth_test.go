package middleware

import (
	"crypto/subtle"
	"net/http/httptest"
	"testing"

	"github.com/vireo-go/vireo/core"
)

func TestBasicAuth(t *testing.T) {
	mw := MustBasicAuth(WithRealm("admin area"), WithUsers(map[string]string{"admin": "secret"}),
		WithBasicValidator(func(ctx core.Context, u, p string) bool {
			return u == "ldap" && subtle.ConstantTimeCompare([]byte(p), []byte("pw")) == 1
		}))
	app := core.New(core.WithStartupOutput(nil))
	app.Get("/admin", mw, func(ctx core.Context) { ctx.WriteString("hello " + BasicAuthUser(ctx)) })
	tests := []struct {
		name       string
		user, pass string
		noAuth     bool
		status     int
		body       string
	}{
		{name: "none", noAuth: true, status: 401},
		{name: "good", user: "admin", pass: "secret", status: 200, body: "hello admin"},
		{name: "bad password", user: "admin", pass: "secreT", status: 401},
		{name: "unknown user", user: "root", pass: "secret", status: 401},
		{name: "empty password", user: "admin", pass: "", status: 401},
		{name: "validator", user: "ldap", pass: "pw", status: 200, body: "hello ldap"},
		{name: "validator refuses", user: "ldap", pass: "no", status: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/admin", nil)
			if !tt.noAuth {
				req.SetBasicAuth(tt.user, tt.pass)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if tt.status == 401 {
				if got := rec.Header().Get("WWW-Authenticate"); got != `Basic realm="admin area", charset="UTF-8"` {
					t.Errorf("challenge %q", got)
				}
			} else if rec.Body.String() != tt.body {
				t.Errorf("body %q", rec.Body)
			}
		})
	}
	for i, opts := range [][]AuthOption{nil, {WithRealm(`a"b`)}, {WithUsers(map[string]string{"a:b": "x"})}, {WithBasicValidator(nil)},
		{WithUsers(map[string]string{"a": "b"}), WithTokenValidator(func(core.Context, string) bool { return true })}} {
		if _, err := BasicAuth(opts...); err == nil {
			t.Errorf("config %d: no error", i)
		}
	}
}

// bearerCase is one Authorization header and the answer it must get.
type bearerCase struct {
	auth      string
	status    int
	challenge string
}

// checkBearer requests path with each case's header and checks the status,
// the challenge and, when admitted, the body.
func checkBearer(t *testing.T, app *core.Application, path, body string, tests []bearerCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.auth, func(t *testing.T) {
			req := httptest.NewRequest("GET", path, nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status || rec.Header().Get("WWW-Authenticate") != tt.challenge {
				t.Errorf("%d %q, want %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"), tt.status, tt.challenge)
			}
			if tt.status == 200 && rec.Body.String() != body {
				t.Errorf("body %q", rec.Body)
			}
		})
	}
}

func TestBearerAuth(t *testing.T) {
	mw := MustBearerAuth(WithRealm("api"), WithTokenValidator(func(ctx core.Context, tok string) bool { return tok == "t0k3n" }))
	app := core.New(core.WithStartupOutput(nil))
	app.Get("/api", mw, func(ctx core.Context) { ctx.WriteString("token " + BearerToken(ctx)) })
	tests := []bearerCase{
		{"", 401, `Bearer realm="api"`},
		{"Basic dXNlcjpwYXNz", 401, `Bearer realm="api"`},
		{"Bearer ", 401, `Bearer realm="api"`},
		{"Bearer a b", 401, `Bearer realm="api"`},
		{"Bearer wrong", 401, `Bearer realm="api", error="invalid_token"`},
		{"Bearer t0k3n", 200, ""},
		{"bearer t0k3n", 200, ""},
	}
	checkBearer(t, app, "/api", "token t0k3n", tests)
	if _, err := BearerAuth(); err == nil {
		t.Error("BearerAuth without a validator")
	}
}

func TestBearerAuthScheme(t *testing.T) {
	mw := MustBearerAuth(WithRealm("conduit"), WithScheme("Token"),
		WithTokenValidator(func(ctx core.Context, tok string) bool { return tok == "jwt" }))
	app := core.New(core.WithStartupOutput(nil))
	app.Get("/user", mw, func(ctx core.Context) { ctx.WriteString("token " + BearerToken(ctx)) })
	tests := []bearerCase{
		{"", 401, `Token realm="conduit"`},
		{"Bearer jwt", 401, `Token realm="conduit"`},
		{"Tokenjwt", 401, `Token realm="conduit"`},
		{"Token ", 401, `Token realm="conduit"`},
		{"Tokens jwt", 401, `Token realm="conduit"`},
		{"Token wrong", 401, `Token realm="conduit", error="invalid_token"`},
		{"Token jwt", 200, ""},
		{"token jwt", 200, ""},
	}
	checkBearer(t, app, "/user", "token jwt", tests)
	for _, bad := range []string{"", "To ken", "Token:", "Tök"} {
		if _, err := BearerAuth(WithScheme(bad), WithTokenValidator(func(core.Context, string) bool { return true })); err == nil {
			t.Errorf("WithScheme(%q) accepted", bad)
		}
	}
	if _, err := BasicAuth(WithUsers(map[string]string{"a": "b"}), WithScheme("Token")); err == nil {
		t.Error("BasicAuth accepted WithScheme")
	}
}

func BenchmarkBasicAuth(b *testing.B) {
	req := httptest.NewRequest("GET", "/data", nil)
	req.SetBasicAuth("admin", "secret")
	runBench(b, benchApp(b, MustBasicAuth(WithUsers(map[string]string{"admin": "secret"}))), req)
}

func BenchmarkBearerAuth(b *testing.B) {
	req := httptest.NewRequest("GET", "/data", nil)
	req.Header.Set("Authorization", "Bearer t0k3n")
	runBench(b, benchApp(b, MustBearerAuth(WithTokenValidator(func(_ core.Context, t string) bool { return t == "t0k3n" }))), req)
}
