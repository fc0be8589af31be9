// The quick end-to-end run of the h2 comparison: Vireo and the net/http
// floor over HTTP/1.1 with TLS and HTTP/2 with 1 and 16 streams, loaded by
// h2load (installed from Debian's nghttp2-client by testtool where
// missing), the node:http2 app where node exists, the .NET rows skipped
// without dotnet, and Express and Fiber reported as not supporting HTTP/2.
package throughput

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/internal/testtool"
)

func TestQuickRunH2(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	testtool.Require(t, "h2load", "nghttp2-client")
	root, _ := benchtest.MustContract(t)
	apps := []string{"vireo-h2", "nethttp-h2", "netcore-h2", "expressjs", "fiber"}
	_, nodeErr := exec.LookPath("node")
	_, npmErr := exec.LookPath("npm")
	withNode := nodeErr == nil && npmErr == nil
	if withNode {
		apps = append(apps, "nodejs-h2")
	}
	_, dotnetErr := exec.LookPath("dotnet")
	cfg := runner.Config{
		Root: root, OutDir: t.TempDir(), Comparisons: []string{"h2"}, Apps: apps, Quick: true, Requests: 3000,
		Log: &benchtest.TestLog{T: t}, Command: "go test (quick h2 end-to-end)",
	}
	if _, _, err := Run(context.Background(), cfg); err != nil {
		t.Fatalf("Run: %v", err)
	}
	res, err := report.CheckDir(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	wantProto := map[string]string{"h1-tls": "http/1.1", "m1": "h2", "m16": "h2"}
	wantStreams := map[string]int{"h1-tls": 1, "m1": 1, "m16": 16}
	if len(res.Comparisons) != 3 || res.Versions.H2load == "" {
		t.Fatalf("%d comparisons, h2load %q", len(res.Comparisons), res.Versions.H2load)
	}
	for _, c := range res.Comparisons {
		if c.Generator != "h2load" || !c.TLS || c.Protocol != wantProto[c.Variant] || c.Streams != wantStreams[c.Variant] || c.Baseline != "vireo-h2" {
			t.Errorf("%s: generator %q tls %v protocol %q streams %d baseline %q", c.Key(), c.Generator, c.TLS, c.Protocol, c.Streams, c.Baseline)
		}
		for _, a := range c.Apps {
			switch {
			case a.Name == "expressjs" || a.Name == "fiber":
				if a.Unsupported == "" || !strings.HasPrefix(a.Skipped, runner.UnsupportedPrefix) || len(a.Runs) > 0 {
					t.Errorf("%s/%s: unsupported %q, skipped %q, %d runs", c.Key(), a.Name, a.Unsupported, a.Skipped, len(a.Runs))
				}
			case a.Name == "netcore-h2" && dotnetErr != nil:
				if a.Skipped != "dotnet not found" {
					t.Errorf("%s/netcore-h2 without dotnet: skipped %q", c.Key(), a.Skipped)
				}
			default:
				if !a.Measured() {
					t.Errorf("%s/%s not measured: skipped %q failed %q", c.Key(), a.Name, a.Skipped, a.Failed)
					continue
				}
				h := a.Runs[0].H2load
				if h == nil || h.Protocol != c.Protocol || h.Status.S2xx == 0 || len(h.Percentiles) != 5 {
					t.Errorf("%s/%s: h2load result %+v", c.Key(), a.Name, h)
					continue
				}
				if a.Name != "nodejs-h2" && (h.Errors() != 0 || h.NonSuccess() != 0) {
					t.Errorf("%s/%s: %d errors, %d non-2xx", c.Key(), a.Name, h.Errors(), h.NonSuccess())
				}
				if a.Summary.PeakRSSBytes <= 0 || a.Summary.LatencyP99Micros <= 0 {
					t.Errorf("%s/%s: summary %+v", c.Key(), a.Name, a.Summary)
				}
			}
		}
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "RESULTS.md"))
	for _, s := range []string{"h2load -c 32 -m 16 -n 3000, h2 over TLS (ALPN checked before the load)", "| expressjs | skipped: not supported: Express has no HTTP/2"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("RESULTS.md lacks %q", s)
		}
	}
}
