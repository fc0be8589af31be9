// End-to-end tests of the runner in quick mode on the simple comparison: the
// Go apps that exist, Express when npm is present, and the .NET app, which
// must be reported as skipped where dotnet is missing. They build the real
// apps and bombardier and put real (short) load on them, so they are skipped
// with -short.
package throughput

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"

	"github.com/vireo-go/vireo/internal/testtool"
)

func TestQuickRunSimple(t *testing.T) {
	root, apps, baseline := benchtest.SimpleGoApps(t)
	_, npmErr := testtool.Want(t, "npm")
	_, nodeErr := testtool.Want(t, "node", "nodejs")
	withNode := npmErr == nil && nodeErr == nil
	if withNode {
		apps = append(apps, "expressjs")
	}
	_, dotnetErr := testtool.Want(t, "dotnet")
	apps = append(apps, "netcore")

	out := t.TempDir()
	cfg := runner.Config{
		Root: root, OutDir: out, Comparisons: []string{"simple"}, Apps: apps, Baselines: []string{baseline},
		Quick: true, Duration: time.Second, Log: &benchtest.TestLog{T: t}, Command: "go test (quick end-to-end)",
	}
	res, files, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if files.JSON != filepath.Join(out, "results.json") || files.Markdown != filepath.Join(out, "RESULTS.md") {
		t.Errorf("files %+v", files)
	}
	checked, err := report.CheckDir(out)
	if err != nil {
		t.Fatalf("report not well formed: %v", err)
	}
	if len(checked.Comparisons) != 1 || len(res.Comparisons) != 1 {
		t.Fatalf("comparisons: %d", len(checked.Comparisons))
	}
	c := checked.Comparisons[0]
	if c.Baseline != baseline || len(c.Apps) != len(apps) {
		t.Errorf("baseline %q, %d apps; want %q, %d", c.Baseline, len(c.Apps), baseline, len(apps))
	}
	for _, a := range c.Apps {
		if a.Name == "netcore" && dotnetErr != nil {
			if a.Skipped != "dotnet not found" || len(a.Runs) > 0 || a.Summary != nil {
				t.Errorf("netcore without dotnet: skipped %q, %d runs", a.Skipped, len(a.Runs))
			}
			continue
		}
		if !a.Measured() {
			t.Errorf("%s not measured: skipped %q failed %q", a.Name, a.Skipped, a.Failed)
			continue
		}
		r := a.Runs[0].Bombardier
		if r.Req2xx == 0 || r.NonSuccess() != 0 || r.ErrorTotal() != 0 {
			t.Errorf("%s: %d 2xx, %d non-2xx, %d errors", a.Name, r.Req2xx, r.NonSuccess(), r.ErrorTotal())
		}
		if _, ok := r.Percentile(99); !ok {
			t.Errorf("%s: no latency percentiles", a.Name)
		}
		if a.Runs[0].ServerPeakRSSBytes <= 0 || a.Runs[0].ServerCPUSeconds <= 0 {
			t.Errorf("%s: peak RSS %d, CPU %v", a.Name, a.Runs[0].ServerPeakRSSBytes, a.Runs[0].ServerCPUSeconds)
		}
		if a.LinesOfCode <= 0 {
			t.Errorf("%s: no lines of code", a.Name)
		}
		if a.Summary.RatioToBaseline == nil {
			t.Errorf("%s: no ratio to the baseline", a.Name)
		}
		if a.Name == "netcore" && (a.Runtime["GC"] == "" || a.Runtime["processors"] == "") {
			t.Errorf("netcore: runtime line not recorded: %v", a.Runtime)
		}
	}
	if checked.Versions.Bombardier != "v1.2.6" || checked.Versions.Go == "" {
		t.Errorf("versions %+v", checked.Versions)
	}
	if withNode && checked.Versions.Express == "" {
		t.Error("no Express version")
	}
	if checked.Machine.Cores <= 0 || checked.Machine.Kernel == "" {
		t.Errorf("machine %+v", checked.Machine)
	}
	md, _ := os.ReadFile(files.Markdown)
	if dotnetErr != nil && !strings.Contains(string(md), "| netcore | skipped: dotnet not found |") {
		t.Errorf("RESULTS.md lacks the skipped netcore row:\n%s", md)
	}
}

// TestRunCancelled cancels a run while its first app is under load and
// checks that nothing the run started survives: no process of its app's
// binary runs.
func TestRunCancelled(t *testing.T) {
	root, apps, _ := benchtest.SimpleGoApps(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &benchtest.TestLog{T: t, OnLine: func(line string) {
		if strings.Contains(line, "verify ") && strings.HasSuffix(line, " ok") {
			// The warm-up starts next; let it begin, then interrupt.
			time.AfterFunc(300*time.Millisecond, cancel)
		}
	}}
	cfg := runner.Config{
		Root: root, OutDir: t.TempDir(), Comparisons: []string{"simple"}, Apps: apps[:1], Baselines: apps[:1],
		Quick: true, Duration: time.Second, Warmup: 5 * time.Second, Log: log,
	}
	_, _, err := Run(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	// The run's own app binary only: other packages' tests (tfb) run
	// apps from bin/ at the same time.
	bin := filepath.Join(root, "bin", apps[0])
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := processesOf(bin)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of %s still running after the cancelled run: %v", bin, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesOf lists the live processes of the executable at path.
func processesOf(path string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && (exe == path || exe == path+" (deleted)") {
			if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); !strings.Contains(string(st), ") Z") {
				out = append(out, e.Name()+" "+exe)
			}
		}
	}
	return out
}

// TestQuickRunSessions runs both sessions variants on the sessions apps that
// exist here: the cookie-keeping variant must carry the cookie and every
// request must succeed.
func TestQuickRunSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	root, contract := benchtest.MustContract(t)
	_, npmErr := testtool.Want(t, "npm")
	var apps []string
	for _, a := range contract.Comparisons["sessions"].Apps {
		if _, err := os.Stat(filepath.Join(root, "apps", a)); err != nil {
			continue
		}
		if s := contract.Stack(a); s == stack.GoName || (s == stack.NodeName && npmErr == nil) {
			apps = append(apps, a)
		}
	}
	if len(apps) == 0 {
		t.Skip("no sessions app that can run here exists yet")
	}
	// The Vireo app once it exists, else a Go peer.
	baseline := apps[0]
	for i := len(apps) - 1; i >= 0; i-- {
		if contract.Stack(apps[i]) == stack.GoName {
			baseline = apps[i]
		}
	}
	cfg := runner.Config{
		Root: root, OutDir: t.TempDir(), Comparisons: []string{"sessions"}, Apps: apps, Baselines: []string{baseline},
		Quick: true, Duration: time.Second, Log: &benchtest.TestLog{T: t},
	}
	if _, _, err := Run(context.Background(), cfg); err != nil {
		t.Fatalf("Run: %v", err)
	}
	res, err := report.CheckDir(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Comparisons) != 2 || res.Comparisons[0].Variant != runner.VariantCookieLess || res.Comparisons[1].Variant != runner.VariantCookieKeeping {
		t.Fatalf("comparisons %+v", res.Comparisons)
	}
	if res.Comparisons[1].CookieMethod == "" || res.Comparisons[0].CookieMethod != "" {
		t.Error("the cookie method is not stated on the cookie-keeping variant only")
	}
	for _, c := range res.Comparisons {
		for _, a := range c.Apps {
			if !a.Measured() {
				t.Errorf("%s/%s not measured: %q %q", c.Key(), a.Name, a.Skipped, a.Failed)
				continue
			}
			r := a.Runs[0].Bombardier
			if r.Req2xx == 0 || r.NonSuccess() != 0 || r.ErrorTotal() != 0 {
				t.Errorf("%s/%s: %d 2xx, %d non-2xx, %d errors", c.Key(), a.Name, r.Req2xx, r.NonSuccess(), r.ErrorTotal())
			}
		}
	}
}

// redisPids collects the PIDs of the redis-servers a run reports starting.
type redisPids struct {
	mu   sync.Mutex
	pids []int
}

func (r *redisPids) onLine(line string) {
	i := strings.Index(line, "(pid ")
	if !strings.Contains(line, "redis  ") || !strings.Contains(line, " on 127.0.0.1:") || i < 0 {
		return
	}
	var pid int
	if _, err := fmt.Sscanf(line[i:], "(pid %d)", &pid); err == nil {
		r.mu.Lock()
		r.pids = append(r.pids, pid)
		r.mu.Unlock()
	}
}

// alive returns the collected PIDs that still belong to a live process.
func (r *redisPids) alive() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, pid := range r.pids {
		st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err == nil && !strings.Contains(string(st), ") Z") {
			out = append(out, pid)
		}
	}
	return out
}

// TestQuickRunSessionsRedis runs both variants of the sessions-redis
// comparison in quick mode: every app gets its own redis-server, every
// request succeeds, and every redis-server is gone afterwards, also when
// the run is cancelled. Without redis-server the comparison must be
// reported as skipped with the reason, and the test says so.
func TestQuickRunSessionsRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	root, contract := benchtest.MustContract(t)
	apps := contract.Comparisons["sessions-redis"].Apps
	_, redisErr := testtool.Want(t, benchtest.RedisBinary)
	pids := &redisPids{}
	cfg := runner.Config{
		Root: root, OutDir: t.TempDir(), Comparisons: []string{"sessions-redis"}, Apps: apps,
		Quick: true, Duration: time.Second, Log: &benchtest.TestLog{T: t, OnLine: pids.onLine},
	}
	if _, _, err := Run(context.Background(), cfg); err != nil {
		t.Fatalf("Run: %v", err)
	}
	res, err := report.CheckDir(cfg.OutDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Comparisons) != 2 || res.Comparisons[0].Key() != "sessions-redis-cookie-less" || res.Comparisons[1].Key() != "sessions-redis-cookie-keeping" {
		t.Fatalf("comparisons %+v", res.Comparisons)
	}
	if redisErr != nil {
		md, _ := os.ReadFile(filepath.Join(cfg.OutDir, "RESULTS.md"))
		for _, c := range res.Comparisons {
			for _, a := range c.Apps {
				if a.Skipped != "redis-server not found" || len(a.Runs) > 0 {
					t.Errorf("%s/%s without redis-server: skipped %q, %d runs", c.Key(), a.Name, a.Skipped, len(a.Runs))
				}
			}
		}
		if !strings.Contains(string(md), "skipped: redis-server not found") {
			t.Errorf("RESULTS.md does not give the reason:\n%s", md)
		}
		t.Skipf("%v (Debian: apt-get install -y redis-server): the comparison was reported as skipped; nothing measured", redisErr)
	}
	for _, c := range res.Comparisons {
		if c.Baseline != "vireo-sessions-redis" {
			t.Errorf("%s: baseline %q", c.Key(), c.Baseline)
		}
		for _, a := range c.Apps {
			if !a.Measured() {
				t.Errorf("%s/%s not measured: %q %q", c.Key(), a.Name, a.Skipped, a.Failed)
				continue
			}
			r := a.Runs[0].Bombardier
			if r.Req2xx == 0 || r.NonSuccess() != 0 || r.ErrorTotal() != 0 {
				t.Errorf("%s/%s: %d 2xx, %d non-2xx, %d errors", c.Key(), a.Name, r.Req2xx, r.NonSuccess(), r.ErrorTotal())
			}
			if a.Dependencies["redis-server"] == "" {
				t.Errorf("%s/%s: no redis-server version in %v", c.Key(), a.Name, a.Dependencies)
			}
		}
	}
	// One server per app and variant, each stopped by the run.
	if n := len(pids.pids); n != 2*len(apps) {
		t.Errorf("%d redis-servers started, want %d", n, 2*len(apps))
	}
	if left := pids.alive(); len(left) > 0 {
		t.Errorf("redis-servers %v still running after the run", left)
	}

	// Cancelled while the first app warms up: its redis-server goes too.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pids = &redisPids{}
	log := &benchtest.TestLog{T: t, OnLine: func(line string) {
		pids.onLine(line)
		if strings.Contains(line, "verify ") && strings.HasSuffix(line, " ok") {
			time.AfterFunc(300*time.Millisecond, cancel)
		}
	}}
	cfg = runner.Config{
		Root: root, OutDir: t.TempDir(), Comparisons: []string{"sessions-redis"}, Apps: apps[:1],
		Quick: true, Duration: time.Second, Warmup: 5 * time.Second, Log: log,
	}
	if _, _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Run = %v, want context.Canceled", err)
	}
	if len(pids.pids) == 0 {
		t.Fatal("no redis-server started before the cancellation")
	}
	if left := pids.alive(); len(left) > 0 {
		t.Errorf("redis-servers %v still running after the cancelled run", left)
	}
}
