package apps_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
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
			cmd := exec.Command("node", "server.js")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "WORKERS=2", "NODE_ENV=production", "PORT=0")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			ready := make(chan bool, 1)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "Now listening on:") {
						ready <- true
						return
					}
				}
				ready <- false
			}()
			select {
			case ok := <-ready:
				if !ok {
					t.Fatalf("%s ended before it was ready; stderr %q", app, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s not ready after 30s", app)
			}
			children, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/task/" + strconv.Itoa(cmd.Process.Pid) + "/children")
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
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil || strings.Contains(stderr.String(), "exited") {
					t.Errorf("after SIGTERM to worker %d: %v, stderr %q; want exit 0 and nothing printed", worker, err, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still running 10s after SIGTERM to worker %d", app, worker)
			}
		})
	}
}
