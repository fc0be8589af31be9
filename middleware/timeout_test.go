package middleware

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	var lateMu sync.Mutex
	var lateErr error
	var lateParam string
	lateDone := make(chan struct{}, 1)

	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.UseBeforeRouting(MustRequestID())
	app.Use(MustTimeout(100 * time.Millisecond))
	app.Get("/fast/{id}", func(ctx core.Context) {
		ctx.SetResponseHeader("X-Handler", "yes")
		ctx.SetStatus(http.StatusCreated)
		ctx.WriteString("fast " + ctx.Param("id"))
	})
	app.Get("/slow/{id}", func(ctx core.Context) {
		select {
		case <-ctx.Request().Context().Done(): // the deadline is on the request's context
		case <-time.After(5 * time.Second):
		}
		<-release
		_, err := ctx.WriteString("late") // refused
		ctx.SetResponseHeader("X-Late", "1")
		lateMu.Lock()
		lateErr, lateParam = err, ctx.Param("id") // still its own request
		lateMu.Unlock()
		lateDone <- struct{}{}
	})
	app.Get("/fail", func(ctx core.Context) { ctx.StopWithError(core.NewHTTPError(http.StatusConflict, "taken")) })
	app.Get("/panic", func(ctx core.Context) { panic("boom") })
	srv := httptest.NewServer(app)
	defer srv.Close()

	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}

	tests := []struct {
		path   string
		status int
		body   string
		header string
	}{
		{"/fast/1", 201, "fast 1", "X-Handler"},
		{"/fail", 409, "Conflict: taken", ""},
		{"/panic", 500, "Internal Server Error", ""},
	}
	for _, tt := range tests {
		res, body := get(tt.path)
		if res.StatusCode != tt.status || body != tt.body {
			t.Errorf("%s: %d %q, want %d %q", tt.path, res.StatusCode, body, tt.status, tt.body)
		}
		if tt.header != "" && res.Header.Get(tt.header) == "" {
			t.Errorf("%s: header %s lost", tt.path, tt.header)
		}
	}

	start := time.Now()
	res, body := get("/slow/A")
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("503 after %v: the client waited for the handler", elapsed)
	}
	if res.StatusCode != 503 || !strings.Contains(body, "took too long") {
		t.Errorf("slow: %d %q", res.StatusCode, body)
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Error("the 503 lost the headers set before the deadline")
	}
	// While the stale handler is still running, other requests are served
	// normally, and its late write reaches none of them.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := srv.Client().Get(srv.URL + "/fast/B")
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if string(b) != "fast B" || res.Header.Get("X-Late") != "" {
				t.Errorf("another request saw %q, X-Late %q", b, res.Header.Get("X-Late"))
			}
		}()
	}
	close(release)
	<-lateDone
	wg.Wait()
	lateMu.Lock()
	defer lateMu.Unlock()
	if !errors.Is(lateErr, http.ErrHandlerTimeout) {
		t.Errorf("late write: %v, want ErrHandlerTimeout", lateErr)
	}
	if lateParam != "A" {
		t.Errorf("late Param = %q, want its own request's", lateParam)
	}
}

func TestTimeoutOptions(t *testing.T) {
	if _, err := Timeout(0); err == nil {
		t.Error("zero duration accepted")
	}
	if _, err := Timeout(time.Second, WithTimeoutResponse(200, "", "")); err == nil {
		t.Error("200 accepted as a timeout status")
	}
	app := core.New(core.WithStartupOutput(nil))
	app.Use(MustTimeout(10*time.Millisecond, WithTimeoutResponse(504, "application/json", `{"error":"timeout"}`)))
	app.Get("/", func(ctx core.Context) { <-ctx.Request().Context().Done() })
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 504 || rec.Body.String() != `{"error":"timeout"}` || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("%d %q %q", rec.Code, rec.Body, rec.Header().Get("Content-Type"))
	}
}

// TestTimeoutBeforeRouting checks the application-wide timeout: Timeout
// installed with UseBeforeRouting covers routed and unmatched requests.
func TestTimeoutBeforeRouting(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(MustTimeout(10 * time.Millisecond))
	app.Get("/", func(ctx core.Context) { <-ctx.Request().Context().Done(); ctx.WriteString("late") })
	app.Get("/ok", func(ctx core.Context) { ctx.WriteString("ok") })
	for path, want := range map[string]int{"/": 503, "/ok": 200, "/missing": 404} {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want {
			t.Errorf("%s: %d, want %d", path, rec.Code, want)
		}
	}
	if _, err := Timeout(-1); err == nil {
		t.Error("negative timeout accepted")
	}
}

// A handler under a deadline writes through the compression installed
// before it, and error pages too.
func TestTimeoutInsideCompress(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(MustCompress(WithMinSize(0)))
	app.Get("/", MustTimeout(time.Second), func(ctx core.Context) { ctx.WriteString(bigText) })
	app.Get("/fail", MustTimeout(time.Second), func(ctx core.Context) { ctx.StopWithError(core.NewHTTPError(400, "bad")) })
	for path, want := range map[string]string{"/": bigText, "/fail": "Bad Request: bad"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: Content-Encoding %q", path, rec.Header().Get("Content-Encoding"))
		}
		if got := decode(t, "gzip", rec.Body); got != want {
			t.Errorf("%s: body %.40q", path, got)
		}
	}
}

func BenchmarkTimeout(b *testing.B) {
	runBench(b, benchApp(b, MustTimeout(time.Second)), httptest.NewRequest("GET", "/data", nil))
}
