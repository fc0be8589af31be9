// The /metrics output of an instrumented application, checked by the real
// promtool (Debian's prometheus package) and read for the route series.

package otelprom_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/testtool"
	"github.com/vireo-go/vireo/otelvireo"
	"github.com/vireo-go/vireo/otelvireo/otelprom"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/trace/noop"
)

// instrumented returns an application with the middleware, a few routes
// and /metrics served by an Exporter.
func instrumented(t *testing.T, opts ...otelprom.Option) *core.Application {
	t.Helper()
	prom, err := otelprom.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(prom.Reader()))
	t.Cleanup(func() { mp.Shutdown(context.Background()) })
	app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	app.UseBeforeRouting(otelvireo.MustNew(otelvireo.WithMeterProvider(mp), otelvireo.WithTracerProvider(noop.NewTracerProvider())))
	app.Get("/metrics", prom.Handler())
	app.Get("/users/{id}", func(ctx core.Context) { ctx.JSON(map[string]string{"id": ctx.Param("id")}) })
	app.Get("/fail", func(ctx core.Context) { ctx.StopWithStatus(http.StatusBadGateway) })
	for i := range 5 {
		app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", fmt.Sprintf("/users/%d", i), nil))
	}
	app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/fail", nil))
	app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/nope", nil))
	return app
}

func scrape(t *testing.T, app *core.Application) string {
	t.Helper()
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	return rec.Body.String()
}

func TestMetricsEndpoint(t *testing.T) {
	body := scrape(t, instrumented(t))
	for _, want := range []string{
		"# TYPE http_server_request_duration_seconds histogram",
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="200",http_route="/users/{id}",otel_scope_name="github.com/vireo-go/vireo/otelvireo"`,
		`http_route="/users/{id}",otel_scope_name="github.com/vireo-go/vireo/otelvireo",otel_scope_schema_url="https://opentelemetry.io/schemas/1.40.0",otel_scope_version="0.1.0",url_scheme="http",le="0.005"}`,
		`error_type="502"`,
		`http_server_active_requests{http_request_method="GET"`,
		"# TYPE http_server_response_body_size_bytes histogram",
		"# TYPE http_server_request_body_size_bytes histogram",
		"go_goroutines ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "http_server_request_duration_seconds_count{") && strings.Contains(line, `http_route="/users/{id}"`) && !strings.HasSuffix(line, " 5") {
			t.Errorf("count line %q, want 5", line)
		}
		if strings.Contains(line, "/users/1") || strings.Contains(line, "/nope") {
			t.Errorf("a raw path in a series: %s", line)
		}
	}
}

// TestPromtoolCheckMetrics runs `promtool check metrics` on the output: it
// parses it and lints names, units and help texts.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool := testtool.Require(t, "promtool", "prometheus")
	body := scrape(t, instrumented(t))
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(body)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out.String())
	}
	if strings.TrimSpace(out.String()) != "" {
		t.Fatalf("promtool reports problems:\n%s", out.String())
	}
}

func TestWithRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "app_jobs_total", Help: "Jobs run."})
	reg.MustRegister(c)
	c.Inc()
	body := scrape(t, instrumented(t, otelprom.WithRegistry(reg)))
	if !strings.Contains(body, "app_jobs_total 1") || strings.Contains(body, "go_goroutines") {
		t.Fatalf("the given registry is not the one served:\n%s", body)
	}
	if _, err := otelprom.New(otelprom.WithRegistry(nil)); err == nil {
		t.Error("New accepted a nil registry")
	}
	if _, err := otelprom.New(nil); err == nil {
		t.Error("New accepted a nil option")
	}
}
