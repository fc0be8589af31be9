package middleware

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

func corsApp(t testing.TB, router bool, opts ...CORSOption) (*core.Application, *int) {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil))
	mw, err := CORS(opts...)
	if err != nil {
		t.Fatal(err)
	}
	hits := new(int)
	h := func(ctx core.Context) { *hits++; ctx.WriteString("data") }
	if router {
		app.UseBeforeRouting(mw)
		app.Get("/data", h)
		app.Put("/data", h)
	} else {
		api := app.Group("/api", mw)
		api.Get("/data", h)
		api.Options("/data", h)
	}
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app, hits
}

func TestCORS(t *testing.T) {
	std := []CORSOption{
		WithAllowedOrigins("https://app.example.com", "https://*.example.org"),
		WithOriginFunc(func(o string) bool { return o == "http://localhost:3000" }),
		WithAllowedMethods("GET", "PUT"),
		WithAllowedHeaders("Content-Type", "X-Token"),
		WithExposedHeaders("X-Request-ID"),
		WithCredentials(),
		WithMaxAge(10 * time.Minute),
	}
	tests := []struct {
		name        string
		opts        []CORSOption
		group       bool
		method      string
		path        string
		origin      string
		reqMethod   string
		reqHeaders  string
		wantStatus  int
		wantHandler bool
		want        map[string]string // "" means the header must be absent
	}{
		{name: "no origin", opts: std, method: "GET", path: "/data", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Vary": "Origin", "Access-Control-Allow-Origin": ""}},
		{name: "exact origin", opts: std, method: "GET", path: "/data", origin: "https://app.example.com", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com", "Access-Control-Allow-Credentials": "true",
				"Access-Control-Expose-Headers": "X-Request-Id", "Vary": "Origin"}},
		{name: "wildcard subdomain", opts: std, method: "GET", path: "/data", origin: "https://a.b.example.org", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "https://a.b.example.org"}},
		{name: "wildcard does not match bare domain", opts: std, method: "GET", path: "/data", origin: "https://example.org", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": ""}},
		{name: "wildcard does not match a look-alike", opts: std, method: "GET", path: "/data", origin: "https://evil.com/.example.org", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "func origin", opts: std, method: "GET", path: "/data", origin: "http://localhost:3000", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "http://localhost:3000"}},
		{name: "disallowed origin", opts: std, method: "GET", path: "/data", origin: "https://evil.com", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": "", "Access-Control-Expose-Headers": "", "Vary": "Origin"}},
		{name: "preflight", opts: std, method: "OPTIONS", path: "/data", origin: "https://app.example.com", reqMethod: "PUT", reqHeaders: "content-type, x-token", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com", "Access-Control-Allow-Methods": "GET, PUT",
				"Access-Control-Allow-Headers": "Content-Type, X-Token", "Access-Control-Max-Age": "600", "Access-Control-Allow-Credentials": "true",
				"Vary": "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"}},
		{name: "preflight to unmatched path", opts: std, method: "OPTIONS", path: "/nothing", origin: "https://app.example.com", reqMethod: "GET", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com", "Access-Control-Allow-Headers": ""}},
		{name: "preflight disallowed origin", opts: std, method: "OPTIONS", path: "/data", origin: "https://evil.com", reqMethod: "PUT", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": "", "Access-Control-Allow-Headers": ""}},
		{name: "preflight disallowed method", opts: std, method: "OPTIONS", path: "/data", origin: "https://app.example.com", reqMethod: "DELETE", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Methods": ""}},
		{name: "preflight disallowed header", opts: std, method: "OPTIONS", path: "/data", origin: "https://app.example.com", reqMethod: "PUT", reqHeaders: "X-Other", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Headers": ""}},
		{name: "any origin without credentials", opts: []CORSOption{WithAllowedOrigins("*")}, method: "GET", path: "/data", origin: "https://x.test", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "*", "Vary": ""}},
		{name: "any origin without an Origin header", opts: []CORSOption{WithAllowedOrigins("*")}, method: "GET", path: "/data", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "*", "Vary": ""}},
		{name: "any origin mixed with exact ones answers * to all", opts: []CORSOption{WithAllowedOrigins("https://app.example.com", "*")}, method: "GET", path: "/data", origin: "https://app.example.com", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "*", "Vary": ""}},
		{name: "null origin is not matched by a func", opts: []CORSOption{WithOriginFunc(func(string) bool { return true }), WithCredentials()}, method: "GET", path: "/data", origin: "null", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": "", "Vary": "Origin"}},
		{name: "null origin preflight is refused", opts: std, method: "OPTIONS", path: "/data", origin: "null", reqMethod: "PUT", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": ""}},
		{name: "null origin listed exactly", opts: []CORSOption{WithAllowedOrigins("null"), WithCredentials()}, method: "GET", path: "/data", origin: "null", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "null", "Access-Control-Allow-Credentials": "true", "Vary": "Origin"}},
		{name: "any header reflects", opts: []CORSOption{WithAllowedOrigins("*"), WithAllowedHeaders("*")}, method: "OPTIONS", path: "/data", origin: "https://x.test", reqMethod: "PUT", reqHeaders: "X-A, X-B", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Headers": "X-A, X-B", "Access-Control-Allow-Methods": "GET, HEAD, POST, PUT, PATCH, DELETE"}},
		{name: "plain OPTIONS is not a preflight", opts: std, group: true, method: "OPTIONS", path: "/api/data", origin: "https://app.example.com", wantStatus: 200, wantHandler: true,
			want: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com"}},
		{name: "group preflight stops before the OPTIONS handler", opts: std, group: true, method: "OPTIONS", path: "/api/data", origin: "https://app.example.com", reqMethod: "GET", wantStatus: 204,
			want: map[string]string{"Access-Control-Allow-Origin": "https://app.example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app, hits := corsApp(t, !tt.group, tt.opts...)
			req := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.reqMethod != "" {
				req.Header.Set("Access-Control-Request-Method", tt.reqMethod)
			}
			if tt.reqHeaders != "" {
				req.Header.Set("Access-Control-Request-Headers", tt.reqHeaders)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Errorf("status %d, want %d", rec.Code, tt.wantStatus)
			}
			if got := *hits > 0; got != tt.wantHandler {
				t.Errorf("handler ran: %v, want %v", got, tt.wantHandler)
			}
			for k, v := range tt.want {
				if got := strings.Join(rec.Header().Values(k), ", "); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestCORSInvalidOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  CORSOption
	}{
		{"no scheme", WithAllowedOrigins("example.com")},
		{"empty origin", WithAllowedOrigins("")},
		{"wildcard in the middle", WithAllowedOrigins("https://a.*.example.com")},
		{"two wildcards", WithAllowedOrigins("https://*.*.example.com")},
		{"nil func", WithOriginFunc(nil)},
		{"bad method", WithAllowedMethods("GET, POST")},
		{"bad header", WithAllowedHeaders("")},
		{"bad exposed header", WithExposedHeaders("a b")},
		{"negative max age", WithMaxAge(-time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := CORS(tt.opt); err == nil {
				t.Error("no error")
			}
			defer func() {
				if recover() == nil {
					t.Error("MustCORS did not panic")
				}
			}()
			MustCORS(tt.opt)
		})
	}
}

// "*" with credentials would let any site read a logged-in user's
// responses: CORS refuses it, in either order of the options, and MustCORS
// panics (issue 22 item 1).
func TestCORSRefusesAnyOriginWithCredentials(t *testing.T) {
	for _, opts := range [][]CORSOption{
		{WithAllowedOrigins("*"), WithCredentials()},
		{WithCredentials(), WithAllowedOrigins("https://a.test", "*")},
	} {
		if _, err := CORS(opts...); err == nil || !strings.Contains(err.Error(), "credentials") {
			t.Errorf("CORS error = %v, want one about credentials", err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("MustCORS did not panic")
				}
			}()
			MustCORS(opts...)
		}()
	}
}

// Vary set by an earlier handler is kept.
func TestCORSKeepsVary(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(func(ctx core.Context) { ctx.ResponseHeader().Set("Vary", "Accept-Encoding"); ctx.Next() })
	app.UseBeforeRouting(MustCORS(WithAllowedOrigins("https://a.test")))
	app.Get("/", func(ctx core.Context) {})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if got := rec.Header().Values("Vary"); strings.Join(got, ",") != "Accept-Encoding,Origin" {
		t.Errorf("Vary = %q", got)
	}
}

// benchRecorder is an http.ResponseWriter that keeps its header map between
// requests (cleared), so that a benchmark measures the middleware, not the
// recorder.
type benchRecorder struct {
	h    http.Header
	code int
}

func newBenchRecorder() *benchRecorder                     { return &benchRecorder{h: make(http.Header, 16)} }
func (w *benchRecorder) Header() http.Header               { return w.h }
func (w *benchRecorder) Write(p []byte) (int, error)       { return len(p), nil }
func (w *benchRecorder) WriteString(s string) (int, error) { return len(s), nil }
func (w *benchRecorder) WriteHeader(code int)              { w.code = code }
func (w *benchRecorder) reset()                            { clear(w.h); w.code = 0 }

func benchApp(b *testing.B, mw ...core.Handler) *core.Application {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(mw...)
	app.Get("/data", func(ctx core.Context) {})
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	return app
}

func runBench(b *testing.B, app http.Handler, req *http.Request) {
	w := newBenchRecorder()
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		app.ServeHTTP(w, req)
	}
}

func BenchmarkCORS(b *testing.B) {
	mw := MustCORS(WithAllowedOrigins("https://app.example.com"), WithExposedHeaders("X-Request-ID"))
	b.Run("baseline", func(b *testing.B) {
		runBench(b, benchApp(b), httptest.NewRequest("GET", "/data", nil))
	})
	b.Run("simple", func(b *testing.B) {
		req := httptest.NewRequest("GET", "/data", nil)
		req.Header.Set("Origin", "https://app.example.com")
		runBench(b, benchApp(b, mw), req)
	})
	b.Run("preflight", func(b *testing.B) {
		req := httptest.NewRequest("OPTIONS", "/data", nil)
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Access-Control-Request-Method", "PUT")
		runBench(b, benchApp(b, mw), req)
	})
}
