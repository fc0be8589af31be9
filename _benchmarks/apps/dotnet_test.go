package apps_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// dotnetApps are the ASP.NET Core apps; each one's AssemblyName is its
// directory name, so a build leaves bin/Release/net10.0/<app>.dll.
var dotnetApps = []string{"netcore", "netcore-mvc", "netcore-mvc-templates", "netcore-sessions"}

// TestDotnetApps builds every ASP.NET Core app in Release and checks it
// against the contract. Where dotnet is not installed it is skipped, saying
// so: the apps are then unchecked, and the runner reports them as skipped.
func TestDotnetApps(t *testing.T) {
	if _, err := exec.LookPath("dotnet"); err != nil {
		t.Skip("dotnet not found: the ASP.NET Core apps are not built or checked")
	}
	root, _ := benchtest.MustContract(t)
	for _, app := range dotnetApps {
		t.Run(app, func(t *testing.T) {
			dir := filepath.Join(root, "apps", app)
			build := exec.Command("dotnet", "build", "-c", "Release", "--nologo")
			build.Dir = dir
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("dotnet build -c Release in %s: %v\n%s", dir, err, out)
			}
			cmd := exec.Command("dotnet", filepath.Join("bin", "Release", "net10.0", app+".dll"))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DOTNET_NOLOGO=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
			benchtest.CheckApp(t, app, cmd, 60*time.Second)
		})
	}
}
