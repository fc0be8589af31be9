// Package apps_test checks the benchmark apps that are not Go packages: the
// Express apps here (when node and npm are installed) and the ASP.NET Core
// apps in dotnet_test.go (when dotnet is). The Go apps test themselves in
// their own packages.
package apps_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"

	"github.com/vireo-go/vireo/internal/testtool"
)

// memoryStoreWarning is what express-session prints once per process at
// startup when it uses its MemoryStore in production mode.
const memoryStoreWarning = "Warning: connect.session() MemoryStore is not\n" +
	"designed for a production environment, as it will leak\n" +
	"memory, and will not scale past a single process."

// npmCI installs the app's dependencies from its lock file (shared with
// the runner, which locks the lock file so the two never race).
func npmCI(t *testing.T, dir string) {
	t.Helper()
	if err := benchtest.NPMCI(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
}

func TestExpressApps(t *testing.T) {
	testtool.Require(t, "node", "nodejs")
	testtool.Require(t, "npm")
	root, _ := benchtest.MustContract(t)
	tests := []struct {
		app     string
		workers string
	}{
		{"expressjs", "1"},
		{"expressjs", "2"}, // node:cluster: the primary prints readiness after both workers listen
		{"expressjs-mvc", "1"},
		{"expressjs-templates", "1"},
		{"expressjs-sessions", "1"},
		{"expressjs-sessions", "2"},
	}
	installed := map[string]bool{}
	for _, tt := range tests {
		dir := filepath.Join(root, "apps", tt.app)
		if !installed[tt.app] {
			npmCI(t, dir)
			installed[tt.app] = true
		}
		t.Run(tt.app+"/workers="+tt.workers, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("node", "server.js")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "WORKERS="+tt.workers, "NODE_ENV=production")
			benchtest.CheckApp(t, tt.app, cmd, 30*time.Second, memoryStoreWarning)
		})
	}
}

// TestNodeHTTP2App checks the node:http2 app of the h2 comparison, alone
// and as a node:cluster, over HTTP/2 and HTTP/1.1 (CheckApp gives it a
// certificate and checks the protocol negotiated by ALPN). It has no
// dependencies, so no npm install is needed.
func TestNodeHTTP2App(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: the node:http2 app is not checked")
	}
	root, _ := benchtest.MustContract(t)
	for _, workers := range []string{"1", "2"} {
		t.Run("workers="+workers, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("node", "server.js")
			cmd.Dir = filepath.Join(root, "apps", "nodejs-h2")
			cmd.Env = append(os.Environ(), "WORKERS="+workers)
			benchtest.CheckApp(t, "nodejs-h2", cmd, 30*time.Second)
		})
	}
}

// TestTechEmpowerNodeApps checks the TechEmpower apps on Node (Express and
// node:http) against a PostgreSQL with TechEmpower's data under every rule
// of the verifier, with one process and with two (node:cluster, the pool
// split between them).
func TestTechEmpowerNodeApps(t *testing.T) {
	testtool.Require(t, "node", "nodejs")
	testtool.Require(t, "npm")
	root, _ := benchtest.MustContract(t)
	for _, app := range []string{"tfb-expressjs", "tfb-nodehttp"} {
		dir := filepath.Join(root, "apps", app)
		npmCI(t, dir)
		for _, workers := range []string{"1", "2"} {
			t.Run(app+"/workers="+workers, func(t *testing.T) {
				cmd := exec.Command("node", "server.js")
				cmd.Dir = dir
				cmd.Env = []string{"WORKERS=" + workers, "NODE_ENV=production"}
				tfb.CheckApp(t, app, cmd)
			})
		}
	}
}
