// Versions of what an app runs on: a tool's own version line, and the Go
// version and framework module versions embedded in a Go binary (go
// version -m), so a report records what actually ran.
package stack

import (
	"context"
	"debug/buildinfo"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

// ToolVersion runs a version command and returns its first line, or "" when
// the tool is missing or fails.
func ToolVersion(ctx context.Context, name string, args ...string) string {
	if _, err := exec.LookPath(name); err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_NOLOGO=1")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(first)
}

// frameworkModules are the modules whose versions a Go app's row records.
var frameworkModules = []string{
	"github.com/vireo-go/vireo",
	"github.com/kataras/iris/v12",
	"github.com/gin-gonic/gin",
	"github.com/labstack/echo/v4",
	"github.com/go-chi/chi/v5",
	"github.com/gofiber/fiber/v2",
	"github.com/valyala/fasthttp",
	"github.com/julienschmidt/httprouter",
	"github.com/flosch/pongo2/v6",
	"github.com/gorilla/securecookie",
	"github.com/codesenberg/bombardier",
	"github.com/jackc/pgx/v5",
}

// GoBuildDeps returns the Go version and the framework module versions
// embedded in the binary at path. A module replaced by a local directory
// (Vireo itself) is recorded as "(devel)".
func GoBuildDeps(path string) map[string]string {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil
	}
	deps := map[string]string{"go": bi.GoVersion}
	// A tool built from a dependency (bombardier) is its own main module.
	for _, d := range append([]*debug.Module{&bi.Main}, bi.Deps...) {
		for _, m := range frameworkModules {
			if d.Path == m {
				v := d.Version
				if d.Replace != nil {
					v = d.Version + " => " + d.Replace.Path
					if d.Replace.Version != "" {
						v += " " + d.Replace.Version
					}
				}
				deps[d.Path] = v
			}
		}
	}
	return deps
}
