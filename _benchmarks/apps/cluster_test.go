package apps_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestExpressClusterWorkerSignal stops one worker of each Express cluster
// (WORKERS=2) with SIGTERM, as happens when the runner signals the whole
// process group and a worker's exit reaches the primary before the
// primary's own signal: the primary must shut the cluster down and exit 0,
// not report a dead worker and exit 1 (which made TestExpressApps fail
// now and then in a clean-clone CI run).
func TestExpressClusterWorkerSignal(t *testing.T) {
	testtool.Require(t, "node", "nodejs")
	testtool.Require(t, "npm")
	root, _ := benchtest.MustContract(t)
	for _, app := range []string{"expressjs", "expressjs-mvc", "expressjs-templates", "expressjs-sessions"} {
		t.Run(app, func(t *testing.T) {
			dir := filepath.Join(root, "apps", app)
			npmCI(t, dir)
			p, err := benchtest.StartOnFreePort(context.Background(), func(port int) (benchtest.Spec, error) {
				return benchtest.Spec{Name: app, Argv: []string{"node", "server.js"}, Dir: dir, Port: port,
					Env: []string{"WORKERS=2", "NODE_ENV=production"}}, nil
			}, 30*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Stop()
			pid := strconv.Itoa(p.Pid())
			children, err := os.ReadFile("/proc/" + pid + "/task/" + pid + "/children")
			if err != nil {
				t.Skipf("the workers' pids: %v", err)
			}
			pids := strings.Fields(string(children))
			if len(pids) != 2 {
				t.Fatalf("workers %q, want 2", pids)
			}
			worker, _ := strconv.Atoi(pids[0])
			if err := syscall.Kill(worker, syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Done():
				if _, err := p.Exited(); err != nil || strings.Contains(p.Stderr(), "exited") {
					t.Errorf("after SIGTERM to worker %d: %v, stderr %q; want exit 0 and nothing printed", worker, err, p.Stderr())
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still running 10s after SIGTERM to worker %d", app, worker)
			}
		})
	}
}
