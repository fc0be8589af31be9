package apps_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"

	"github.com/vireo-go/vireo/internal/testtool"
)

// TestDotnetAOTApp publishes the Native AOT apps (netcore-aot,
// netcore-h2-aot) with Native AOT, as the runner
// does (dotnet publish -c Release -r linux-x64), and checks each native
// executable against the contract. It is skipped, saying why, where dotnet
// or the C toolchain Native AOT links with (clang, zlib) is missing.
func TestDotnetAOTApp(t *testing.T) {
	testtool.Require(t, "dotnet") // the .NET 10 SDK, from Microsoft: Debian has no package
	clang := testtool.Require(t, "clang", "clang", "zlib1g-dev")
	if out, _ := exec.Command(clang, "-print-file-name=libz.so").Output(); !filepath.IsAbs(strings.TrimSpace(string(out))) {
		// clang was there without zlib's development files (installed with
		// it by Require when clang itself was missing).
		if testtool.CI() {
			t.Fatal("CI=true and zlib's development library is missing: Native AOT cannot link the AOT apps (Debian: apt-get install -y zlib1g-dev)")
		}
		t.Skip("zlib's development library not found: Native AOT cannot link the AOT apps (Debian: apt-get install -y zlib1g-dev)")
	}
	root, _ := benchtest.MustContract(t)
	for app, project := range map[string]string{"netcore-aot": "NetCoreAot.csproj", "netcore-h2-aot": "NetCoreH2Aot.csproj"} {
		t.Run(app, func(t *testing.T) {
			// A copy of the sources, so that this publish never shares obj/
			// with the runner's publish of the same app in a test running
			// alongside.
			dir, out := t.TempDir(), t.TempDir()
			for _, f := range []string{project, "Program.cs"} {
				data, err := os.ReadFile(filepath.Join(root, "apps", app, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			publish := exec.CommandContext(ctx, "dotnet", "publish", project, "-c", "Release", "-r", "linux-x64", "-o", out, "--nologo")
			publish.Dir = dir
			publish.Env = append(os.Environ(), "DOTNET_NOLOGO=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
			if b, err := publish.CombinedOutput(); err != nil {
				t.Fatalf("dotnet publish -c Release -r linux-x64 in %s: %v\n%s", dir, err, b)
			}
			// A native executable, not an apphost beside a managed dll.
			if _, err := os.Stat(filepath.Join(out, app+".dll")); err == nil {
				t.Fatalf("the publish folder has %s.dll: Native AOT did not run", app)
			}
			benchtest.CheckApp(t, app, exec.Command(filepath.Join(out, app)), 60*time.Second)
		})
	}
}
