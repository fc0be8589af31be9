package middleware

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
)

func TestRequestID(t *testing.T) {
	tests := []struct {
		name     string
		opts     []RequestIDOption
		header   string // request header name
		incoming string
		keep     bool // the incoming ID is kept
	}{
		{name: "generated", header: "X-Request-ID"},
		{name: "trusted", header: "X-Request-ID", incoming: "abc-123_DEF.4:5", keep: true},
		{name: "too long", header: "X-Request-ID", incoming: strings.Repeat("a", 65)},
		{name: "max length", header: "X-Request-ID", incoming: strings.Repeat("a", 64), keep: true},
		{name: "bad charset", header: "X-Request-ID", incoming: "abc\x1b[31m"},
		{name: "space", header: "X-Request-ID", incoming: "a b"},
		{name: "not trusted", opts: []RequestIDOption{WithTrustIncoming(false)}, header: "X-Request-ID", incoming: "abc"},
		{name: "custom header", opts: []RequestIDOption{WithRequestIDHeader("X-Correlation-ID")}, header: "X-Correlation-ID", incoming: "corr-1", keep: true},
		{name: "custom length", opts: []RequestIDOption{WithMaxIDLength(3)}, header: "X-Request-ID", incoming: "abcd"},
		{name: "custom generator", opts: []RequestIDOption{WithIDGenerator(func() string { return "fixed" })}, header: "X-Request-ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, nil))
			app := core.New(core.WithStartupOutput(nil), core.WithLogger(logger))
			app.UseBeforeRouting(RequestLogger(logger), MustRequestID(tt.opts...))
			var seen, errSeen string
			app.Get("/", func(ctx core.Context) {
				seen = ctx.RequestID()
				ctx.Logger().Info("handler line")
			})
			app.OnErrorCode(http.StatusNotFound, func(ctx core.Context) { errSeen = ctx.RequestID() })
			for _, path := range []string{"/", "/missing"} {
				logs.Reset()
				req := httptest.NewRequest("GET", path, nil)
				if tt.incoming != "" {
					req.Header.Set(tt.header, tt.incoming)
				}
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				got := rec.Header().Get(tt.header)
				if got == "" {
					t.Fatalf("%s: no %s on the response", path, tt.header)
				}
				if tt.keep && got != tt.incoming || !tt.keep && got == tt.incoming {
					t.Errorf("%s: ID %q, incoming %q, keep %v", path, got, tt.incoming, tt.keep)
				}
				if tt.name == "custom generator" && got != "fixed" {
					t.Errorf("ID %q, want the generator's", got)
				}
				want := seen
				if path == "/missing" {
					want = errSeen
				}
				if want != got {
					t.Errorf("%s: handler saw %q, response has %q", path, want, got)
				}
				lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
				if path == "/" && len(lines) != 2 {
					t.Errorf("log lines %q", lines)
				}
				for _, l := range lines {
					if !strings.Contains(l, "request_id="+got) {
						t.Errorf("%s: log line without the ID: %s", path, l)
					}
				}
			}
		})
	}
}

// The core's own line for a recovered panic carries the request ID too.
func TestRequestIDInPanicLog(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(logger))
	app.UseBeforeRouting(MustRequestID())
	app.Get("/", func(ctx core.Context) { panic("boom") })
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("X-Request-ID", "req-77")
	app.ServeHTTP(httptest.NewRecorder(), req)
	if !strings.Contains(logs.String(), "vireo: panic recovered") || !strings.Contains(logs.String(), "request_id=req-77") {
		t.Errorf("panic log without the request ID: %s", logs.String())
	}
}

func TestRequestIDUnique(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(MustRequestID())
	app.Get("/", func(ctx core.Context) {})
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		id := rec.Header().Get("X-Request-Id")
		if seen[id] || len(id) < 10 {
			t.Fatalf("ID %q repeated or short", id)
		}
		seen[id] = true
	}
}

func TestRequestIDOptions(t *testing.T) {
	for i, opt := range []RequestIDOption{WithRequestIDHeader(""), WithMaxIDLength(0), WithIDGenerator(nil)} {
		if _, err := RequestID(opt); err == nil {
			t.Errorf("option %d: no error", i)
		}
	}
}

func BenchmarkRequestID(b *testing.B) {
	mw := MustRequestID()
	b.Run("trusted", func(b *testing.B) {
		req := httptest.NewRequest("GET", "/data", nil)
		req.Header.Set("X-Request-ID", "0123456789abcdef")
		runBench(b, benchApp(b, mw), req)
	})
	b.Run("generated", func(b *testing.B) {
		runBench(b, benchApp(b, mw), httptest.NewRequest("GET", "/data", nil))
	})
}
