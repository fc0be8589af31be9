package apps_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"

	"github.com/vireo-go/vireo/internal/testtool"
)

// dotnetApps are the ASP.NET Core apps run by the JIT; each one's
// AssemblyName is its directory name, so a publish leaves the apphost <app>.
var dotnetApps = []string{"netcore", "netcore-mvc", "netcore-mvc-templates", "netcore-sessions", "netcore-h2"}

// TestDotnetApps publishes every ASP.NET Core app in Release and checks it
// against the contract, and that it states its runtime settings: server GC
// (which .NET replaces by workstation GC when it sees a single processor),
// concurrent GC, the Production environment. Where dotnet is not installed it is skipped, saying
// so: the apps are then unchecked, and the runner reports them as skipped.
func TestDotnetApps(t *testing.T) {
	testtool.Require(t, "dotnet") // the .NET 10 SDK, from Microsoft: Debian has no package
	root, _ := benchtest.MustContract(t)
	for _, app := range dotnetApps {
		t.Run(app, func(t *testing.T) {
			dir := filepath.Join(root, "apps", app)
			out := t.TempDir()
			env := append(os.Environ(), "DOTNET_NOLOGO=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
			// As the runner publishes it: Release, framework-dependent,
			// started by its apphost.
			// Its own artifacts path (MSBuild's obj/ and bin/), apart from
			// the runner's, which a test of the runner may build at the
			// same time; kept between runs for incremental builds.
			artifacts := filepath.Join(root, "bin", "dotnet-test-artifacts", app)
			publish := exec.Command("dotnet", "publish", "-c", "Release", "--nologo", "--artifacts-path", artifacts, "-o", out)
			publish.Dir, publish.Env = dir, env
			if b, err := publish.CombinedOutput(); err != nil {
				t.Fatalf("dotnet publish -c Release in %s: %v\n%s", dir, err, b)
			}
			cmd := exec.Command(filepath.Join(out, app))
			cmd.Dir, cmd.Env = dir, env
			got := benchtest.CheckApp(t, app, cmd, 60*time.Second)
			checkRuntimeInfo(t, app, got)
		})
	}
}

// checkRuntimeInfo checks the "Runtime:" line of a .NET app: server GC
// wherever the runtime sees more than one processor, concurrent GC, the
// Production environment.
func checkRuntimeInfo(t *testing.T, app string, info map[string]string) {
	t.Helper()
	if info == nil {
		t.Errorf("%s printed no %q line after the readiness lines", app, benchtest.RuntimeInfoPrefix)
		return
	}
	procs, err := strconv.Atoi(info["processors"])
	if err != nil || procs < 1 {
		t.Errorf("%s: processors %q in %v", app, info["processors"], info)
	}
	wantGC := "server, concurrent"
	if procs == 1 {
		wantGC = "workstation, concurrent"
	}
	if info["GC"] != wantGC || info["environment"] != "Production" {
		t.Errorf("%s: runtime settings %v, want GC %q in the Production environment", app, info, wantGC)
	}
}

// TestTechEmpowerKestrel publishes the TechEmpower app on ASP.NET Core
// (Kestrel minimal API, Npgsql, Razor Slices) and runs every rule of the
// verifier on it against a PostgreSQL with TechEmpower's data. Where
// dotnet is not installed it is skipped, saying so.
func TestTechEmpowerKestrel(t *testing.T) {
	testtool.Require(t, "dotnet") // the .NET 10 SDK, from Microsoft: Debian has no package
	const app = "tfb-netcore"
	root, _ := benchtest.MustContract(t)
	dir := filepath.Join(root, "apps", app)
	out := t.TempDir()
	env := append(os.Environ(), "DOTNET_NOLOGO=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	artifacts := filepath.Join(root, "bin", "dotnet-test-artifacts", app)
	publish := exec.Command("dotnet", "publish", "-c", "Release", "--nologo", "--artifacts-path", artifacts, "-o", out)
	publish.Dir, publish.Env = dir, env
	if b, err := publish.CombinedOutput(); err != nil {
		t.Fatalf("dotnet publish -c Release in %s: %v\n%s", dir, err, b)
	}
	cmd := exec.Command(filepath.Join(out, app))
	cmd.Dir, cmd.Env = dir, env
	tfb.CheckApp(t, app, cmd)
}
