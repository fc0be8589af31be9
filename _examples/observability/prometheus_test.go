// A real Prometheus server (Debian's prometheus package) on loopback, with
// a temporary data directory, scrapes the example's /metrics while a client
// calls GET /users/{id}, and answers a PromQL query for that route's
// request rate.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestPrometheusScrapesRouteRate(t *testing.T) {
	prometheus := testtool.Require(t, "prometheus", "prometheus")
	noCollector(t)
	_, base := serve(t)
	target := strings.TrimPrefix(base, "http://")

	dir := t.TempDir()
	config := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: observability-example
    metrics_path: /metrics
    static_configs:
      - targets: ["%s"]
`, target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cmd := exec.Command(prometheus,
		"--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(port),
		"--log.level=warn")
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})

	// Traffic on one route, and some on others, while Prometheus scrapes.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			for _, p := range []string{fmt.Sprintf("/users/%d", i), "/", "/missing"} {
				if resp, err := http.Get(base + p); err == nil {
					resp.Body.Close()
				}
			}
		}
	}()

	api := "http://127.0.0.1:" + strconv.Itoa(port) + "/api/v1/query?query="
	query := `sum(rate(http_server_request_duration_seconds_count{job="observability-example",http_route="/users/{id}"}[5s]))`
	deadline := time.Now().Add(60 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		resp, err := http.Get(api + url.QueryEscape(query))
		if err != nil {
			last = err.Error()
			continue
		}
		var r struct {
			Status string `json:"status"`
			Data   struct {
				Result []struct {
					Value [2]any `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if err != nil || r.Status != "success" || len(r.Data.Result) != 1 {
			last = fmt.Sprintf("%v %+v", err, r)
			continue
		}
		s, _ := r.Data.Result[0].Value[1].(string)
		rate, _ := strconv.ParseFloat(s, 64)
		if rate > 0 {
			t.Logf("%s = %.1f requests/s", query, rate)
			// The series Prometheus holds for the route are by pattern only.
			checkSeries(t, "http://127.0.0.1:"+strconv.Itoa(port))
			return
		}
		last = "rate " + s
	}
	t.Fatalf("Prometheus never answered a positive rate for the route (last: %s); its log:\n%s", last, logs.String())
}

// checkSeries asks Prometheus for the http_route values it stored: the
// patterns, never a raw path.
func checkSeries(t *testing.T, promURL string) {
	t.Helper()
	resp, err := http.Get(promURL + "/api/v1/label/http_route/values")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Data []string `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Data, ",") != "/,/metrics,/users/{id}" { // the scrapes are requests too
		t.Fatalf("http_route values %v, want [/ /metrics /users/{id}]", r.Data)
	}
}
