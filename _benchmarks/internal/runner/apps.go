// Apps: how each stack is built and started.
//
//   - go:     go build -o bin/<name> ./apps/<name>; run bin/<name>
//   - node:   npm ci in apps/<name> (skipped when node_modules matches the
//     lock file); run node <main of package.json>,
//     NODE_ENV=production (Express caches views only then) and WORKERS=N
//   - dotnet: dotnet publish apps/<name>/<Name>.csproj -c Release -o
//     bin/dotnet/<name> (plus -r linux-x64 for a Native AOT project, see
//     aot.go, and -p:<property> for each -dotnet-property); run the
//     published apphost, or dotnet <Name>.dll
//
// An app whose directory or runtime is missing is skipped with the reason;
// it is never given numbers.
package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// Stacks of the apps.
const (
	StackGo     = "go"
	StackNode   = "node"
	StackDotnet = "dotnet"
)

// app is one benchmark app: where it lives and, once built, how to run it.
type app struct {
	name  string
	stack string
	dir   string // apps/<name>, absolute

	// Set by build.
	argv         []string
	env          []string
	buildSeconds float64
	deps         map[string]string
}

// skipReason returns why a cannot be run on this machine, or "".
func (a *app) skipReason() string {
	if st, err := os.Stat(a.dir); err != nil || !st.IsDir() {
		return "app not found: apps/" + a.name
	}
	switch a.stack {
	case StackGo:
		if _, err := exec.LookPath("go"); err != nil {
			return "go not found"
		}
	case StackNode:
		if _, err := exec.LookPath("node"); err != nil {
			return "node not found"
		}
		if _, err := exec.LookPath("npm"); err != nil {
			return "npm not found"
		}
	case StackDotnet:
		if _, err := exec.LookPath("dotnet"); err != nil {
			return "dotnet not found"
		}
		if why := aotSkipReason(a.dir); why != "" {
			return why
		}
	default:
		return fmt.Sprintf("unknown stack %q", a.stack)
	}
	return ""
}

// stackOf guesses the stack of an app the contract does not list, from the
// files in its directory.
func stackOf(dir string) string {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.csproj")); len(m) > 0 {
		return StackDotnet
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return StackNode
	}
	return StackGo
}

// build builds a and sets how to run it; a failed build's error carries the
// tail of the build tool's output.
func (a *app) build(ctx context.Context, root string, cfg *Config) error {
	start := time.Now()
	var err error
	switch a.stack {
	case StackGo:
		err = a.buildGo(ctx, root, cfg)
	case StackNode:
		err = a.buildNode(ctx, cfg)
	case StackDotnet:
		err = a.buildDotnet(ctx, root, cfg)
	default:
		err = fmt.Errorf("unknown stack %q", a.stack)
	}
	a.buildSeconds = time.Since(start).Seconds()
	return err
}

func (a *app) buildGo(ctx context.Context, root string, cfg *Config) error {
	bin := filepath.Join(root, "bin", a.name)
	if err := runTool(ctx, root, nil, "go", "build", "-o", bin, "./apps/"+a.name); err != nil {
		return err
	}
	a.argv = []string{bin}
	if cfg.GOMAXPROCS > 0 {
		a.env = append(a.env, "GOMAXPROCS="+strconv.Itoa(cfg.GOMAXPROCS))
	}
	a.deps = goBuildDeps(bin)
	return nil
}

func (a *app) buildNode(ctx context.Context, cfg *Config) error {
	if err := benchtest.NPMCI(ctx, a.dir); err != nil {
		return err
	}
	main, err := nodeMain(a.dir)
	if err != nil {
		return err
	}
	a.argv = []string{"node", main}
	a.env = append(a.env, "NODE_ENV=production", "WORKERS="+strconv.Itoa(cfg.NodeWorkers))
	if v := expressVersion(a.dir); v != "" {
		a.deps = map[string]string{"express": v}
	}
	return nil
}

// nodeMain returns the entry script of the Node app in dir: package.json's
// "main", else the first of index.js, app.js, server.js that exists.
func nodeMain(dir string) (string, error) {
	var pkg struct {
		Main string `json:"main"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return "", fmt.Errorf("package.json: %w", err)
	}
	candidates := []string{"index.js", "app.js", "server.js"}
	if pkg.Main != "" {
		candidates = []string{pkg.Main}
	}
	for _, c := range candidates {
		p := filepath.Join(dir, c)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no entry script (tried %v)", candidates)
}

// expressVersion reads the installed Express version from the app's
// package-lock.json (lockfile v2/v3 "packages", or v1 "dependencies").
func expressVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return ""
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
		Dependencies map[string]struct {
			Version string `json:"version"`
		} `json:"dependencies"`
	}
	if json.Unmarshal(data, &lock) != nil {
		return ""
	}
	if p, ok := lock.Packages["node_modules/express"]; ok {
		return p.Version
	}
	return lock.Dependencies["express"].Version
}

var assemblyName = regexp.MustCompile(`<AssemblyName>\s*([^<\s]+)\s*</AssemblyName>`)

func (a *app) buildDotnet(ctx context.Context, root string, cfg *Config) error {
	projects, _ := filepath.Glob(filepath.Join(a.dir, "*.csproj"))
	if len(projects) != 1 {
		return fmt.Errorf("want exactly one .csproj in apps/%s, found %d", a.name, len(projects))
	}
	out := filepath.Join(root, "bin", "dotnet", a.name)
	env := []string{"DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_NOLOGO=1", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1"}
	// --artifacts-path keeps MSBuild's obj/ and bin/ out of the app's
	// directory, so the apps' own tests (which build elsewhere) never
	// share intermediate files with a run; it stays between runs, so a
	// rebuild is incremental.
	artifacts := filepath.Join(root, "bin", "dotnet-artifacts", a.name)
	args := append([]string{"publish", projects[0], "-c", "Release", "--nologo", "--artifacts-path", artifacts, "-o", out},
		aotPublishArgs(projects[0])...)
	for _, prop := range cfg.DotnetProperties {
		args = append(args, "-p:"+prop)
	}
	if err := runTool(ctx, a.dir, env, "dotnet", args...); err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(projects[0]), ".csproj")
	if data, err := os.ReadFile(projects[0]); err == nil {
		if m := assemblyName.FindSubmatch(data); m != nil {
			name = string(m[1])
		}
	}
	a.env = append(env, "ASPNETCORE_ENVIRONMENT=Production")
	if host := filepath.Join(out, name); isExecutable(host) {
		a.argv = []string{host}
		return nil
	}
	dll := filepath.Join(out, name+".dll")
	if _, err := os.Stat(dll); err != nil {
		return fmt.Errorf("dotnet publish produced neither %s nor %s", name, dll)
	}
	a.argv = []string{"dotnet", dll}
	return nil
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// runTool runs a build tool in dir and returns its output with the error
// when it fails.
func runTool(ctx context.Context, dir string, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	setGroup(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(string(out), 4000))
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
