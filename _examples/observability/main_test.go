// Tests of the example from outside, over loopback: the contract with no
// collector (OTEL_*_EXPORTER=none), the readiness probe's 503, the startup
// refusals. otlp_test.go checks the spans an OTLP collector receives and
// prometheus_test.go a real Prometheus server scraping /metrics.
package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve starts the example as the environment configures it on a free
// loopback port and returns its base URL; the cleanup shuts it down, which
// flushes its telemetry.
func serve(t *testing.T) (*server, string) {
	t.Helper()
	s, err := newServer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.app.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.app.Shutdown(ctx)
		<-done
	})
	return s, "http://" + ln.Addr().String()
}

func get(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// noCollector sets the environment of a run without any collector.
func noCollector(t *testing.T) {
	t.Setenv("OTEL_TRACES_EXPORTER", "none")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
}

func TestContract(t *testing.T) {
	noCollector(t)
	_, base := serve(t)
	tests := []struct {
		path        string
		wantStatus  int
		contentType string
		check       func(t *testing.T, body string)
	}{
		{"/", 200, "text/plain", nil},
		{"/users/42", 200, "application/json", func(t *testing.T, body string) {
			var u map[string]string
			if err := json.Unmarshal([]byte(body), &u); err != nil || u["id"] != "42" || u["name"] != "user 42" {
				t.Errorf("user %q: %v", body, err)
			}
		}},
		{"/healthz", 200, "application/json", func(t *testing.T, body string) {
			if !strings.Contains(body, `"status":"pass"`) {
				t.Errorf("liveness %s", body)
			}
		}},
		{"/readyz", 200, "application/json", func(t *testing.T, body string) {
			if !strings.Contains(body, `"warm-up":{"status":"pass"`) {
				t.Errorf("readiness %s", body)
			}
		}},
		{"/nowhere", 404, "text/plain", nil},
		{"/metrics", 200, "text/plain", func(t *testing.T, body string) {
			// The requests above, by route; the probes are left out.
			for _, want := range []string{`http_route="/users/{id}"`, `http_route="/"`, `http_response_status_code="404"`} {
				if !strings.Contains(body, want) {
					t.Errorf("/metrics lacks %s", want)
				}
			}
			if strings.Contains(body, `http_route="/healthz"`) || strings.Contains(body, "/nowhere") {
				t.Errorf("/metrics has a probe or a raw path")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, h, body := get(t, base+tt.path)
			if code != tt.wantStatus || !strings.HasPrefix(h.Get("Content-Type"), tt.contentType) {
				t.Fatalf("%d %s, want %d %s: %s", code, h.Get("Content-Type"), tt.wantStatus, tt.contentType, body)
			}
			if tt.check != nil {
				tt.check(t, body)
			}
		})
	}
}

func TestReadinessFails(t *testing.T) {
	noCollector(t)
	s, base := serve(t)
	s.ready.Store(false)
	code, _, body := get(t, base+"/readyz")
	if code != 503 || !strings.Contains(body, "still warming up") {
		t.Fatalf("%d %s, want 503 naming the check", code, body)
	}
	if code, _, _ := get(t, base+"/healthz"); code != 200 {
		t.Fatalf("liveness %d while not ready, want 200", code)
	}
}

func TestDebugListenerNeedsToken(t *testing.T) {
	noCollector(t)
	t.Setenv("DEBUG_ADDR", "127.0.0.1:0")
	if _, err := newServer(context.Background()); err == nil || !strings.Contains(err.Error(), "DEBUG_TOKEN") {
		t.Fatalf("newServer with DEBUG_ADDR and no token: %v", err)
	}
	t.Setenv("DEBUG_TOKEN", "t0ken")
	s, base := serve(t)
	if code, _, _ := get(t, base+"/debug/pprof/"); code != 404 {
		t.Fatalf("the public listener serves /debug/pprof/: %d", code)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.debug.Serve(ln)
	defer s.debug.Shutdown(context.Background())
	url := "http://" + ln.Addr().String() + "/debug/pprof/goroutine?debug=1"
	if code, _, _ := get(t, url); code != 401 {
		t.Fatalf("debug listener without the token: %d, want 401", code)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer t0ken")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("debug listener with the token: %d", resp.StatusCode)
	}
}

func TestBadLogFormat(t *testing.T) {
	noCollector(t)
	t.Setenv("LOG_FORMAT", "xml")
	if _, err := newServer(context.Background()); err == nil {
		t.Fatal("LOG_FORMAT=xml accepted")
	}
}
