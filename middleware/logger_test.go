package middleware

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// TestRequestLogger checks the line of each kind of request: the status
// and bytes logged are those the client got, error pages written after the
// chain and the 500 of a recovered panic included (they were once logged
// as 0), with the request ID when RequestID gave one.
func TestRequestLogger(t *testing.T) {
	var buf bytes.Buffer
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.UseBeforeRouting(MustRequestID(), RequestLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	app.Get("/ok", func(ctx core.Context) { ctx.WriteString("fine") })
	app.Get("/panic", func(ctx core.Context) { panic("boom") })
	app.Get("/stop", func(ctx core.Context) { ctx.StopWithStatus(http.StatusForbidden) })
	app.Get("/denied", func(ctx core.Context) {
		ctx.StopWithError(core.NewHTTPError(http.StatusUnauthorized, "token required"))
	})
	app.Get("/fail", func(ctx core.Context) { ctx.StopWithError(errors.New("database down")) })
	app.OnErrorCode(http.StatusTeapot, func(ctx core.Context) { ctx.WriteString("custom teapot page") })
	app.Get("/teapot", func(ctx core.Context) { ctx.StopWithStatus(http.StatusTeapot) })
	tests := []struct {
		path   string
		status int
	}{
		{"/ok", 200},
		{"/panic", 500},
		{"/stop", 403},
		{"/denied", 401},
		{"/fail", 500},
		{"/missing", 404},
		{"/teapot", 418},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			buf.Reset()
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", tt.path, nil)
			req.RemoteAddr = "192.0.2.7:5555"
			app.ServeHTTP(rec, req)
			var line struct {
				Msg, Method, Path, Remote string
				Status, Bytes             int
				Duration                  int64
				RequestID                 string `json:"request_id"`
			}
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("log %q: %v", buf.String(), err)
			}
			if rec.Code != tt.status || line.Status != rec.Code || line.Bytes != rec.Body.Len() || line.Bytes == 0 {
				t.Errorf("logged status %d bytes %d, response %d (want %d) with %d bytes", line.Status, line.Bytes, rec.Code, tt.status, rec.Body.Len())
			}
			if line.Msg != "request" || line.Method != "GET" || line.Path != tt.path || line.Remote != "192.0.2.7" ||
				line.RequestID == "" || line.RequestID != rec.Header().Get("X-Request-ID") || line.Duration <= 0 {
				t.Errorf("line %+v", line)
			}
		})
	}
}

// TestRequestLoggerDefault checks that a nil logger logs to slog.Default.
func TestRequestLoggerDefault(t *testing.T) {
	var buf bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(RequestLogger(nil))
	app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/nothing", nil))
	if !bytes.Contains(buf.Bytes(), []byte("path=/nothing status=404")) {
		t.Errorf("default logger got %q", buf.String())
	}
}

func BenchmarkRequestLogger(b *testing.B) {
	runBench(b, benchApp(b, RequestLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))), httptest.NewRequest("GET", "/data", nil))
}
