// Package stack builds the benchmark apps of each runtime (Go, Node.js,
// .NET) and knows what each needs and ships.
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
package stack

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
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// Names of the stacks, as expected/endpoints.json lists them.
const (
	GoName     = "go"
	NodeName   = "node"
	DotnetName = "dotnet"
)

// Stack builds the apps of one runtime and knows what they need.
type Stack interface {
	// Name is the stack's name in expected/endpoints.json's "stacks".
	Name() string
	// Missing returns what this machine lacks to build and run the app in
	// dir ("dotnet not found"), or "" when nothing is missing.
	Missing(dir string) string
	// Build builds a and sets its command line, environment and the
	// versions of what it links; a failed build's error carries the tail
	// of the build tool's output.
	Build(ctx context.Context, root string, opt BuildOptions, a *App) error
	// Deploy measures what a's build ships and the runtime it needs
	// installed beside it.
	Deploy(ctx context.Context, a *App) (report.Deploy, error)
	// NotCounted returns why callgrind's instruction counts of this
	// stack's apps are not comparable, or "" when they are.
	NotCounted() string
}

// BuildOptions are the run's settings that change how an app is built or
// started.
type BuildOptions struct {
	// GOMAXPROCS, when positive, is set for the Go apps.
	GOMAXPROCS int
	// NodeWorkers is WORKERS of the Node apps (node:cluster processes).
	NodeWorkers int
	// DotnetProperties are MSBuild properties (Name=Value) given to every
	// dotnet publish as -p:Name=Value.
	DotnetProperties []string
}

// For returns the stack called name, or nil when there is none.
func For(name string) Stack {
	switch name {
	case GoName:
		return Go{}
	case NodeName:
		return Node{}
	case DotnetName:
		return Dotnet{}
	}
	return nil
}

// Guess returns the name of the stack of an app the contract does not
// list, from the files in its directory.
func Guess(dir string) string {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.csproj")); len(m) > 0 {
		return DotnetName
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return NodeName
	}
	return GoName
}

// App is one benchmark app: where it lives and, once built, how to run it.
type App struct {
	Name      string
	StackName string
	Stack     Stack  // nil for an unknown stack
	Dir       string // apps/<name>, absolute

	// Set by Build.
	Argv         []string
	Env          []string
	BuildSeconds float64
	Deps         map[string]string
}

// NewApp returns the app name of stack stackName in root/apps/name.
func NewApp(root, name, stackName string) *App {
	dir := filepath.Join(root, "apps", name)
	if stackName == "" {
		stackName = Guess(dir)
	}
	return &App{Name: name, StackName: stackName, Stack: For(stackName), Dir: dir}
}

// SkipReason returns why a cannot be run on this machine, or "".
func (a *App) SkipReason() string {
	if st, err := os.Stat(a.Dir); err != nil || !st.IsDir() {
		return "app not found: apps/" + a.Name
	}
	if a.Stack == nil {
		return fmt.Sprintf("unknown stack %q", a.StackName)
	}
	return a.Stack.Missing(a.Dir)
}

// Build builds a with its stack and records how long it took.
func (a *App) Build(ctx context.Context, root string, opt BuildOptions) error {
	start := time.Now()
	var err error
	if a.Stack == nil {
		err = fmt.Errorf("unknown stack %q", a.StackName)
	} else {
		err = a.Stack.Build(ctx, root, opt, a)
	}
	a.BuildSeconds = time.Since(start).Seconds()
	return err
}

// Go is the stack of the Go apps: go build -o bin/<name> ./apps/<name>.
type Go struct{}

// Name is "go".
func (Go) Name() string { return GoName }

// Missing returns "go not found" where there is no go command.
func (Go) Missing(string) string {
	if _, err := exec.LookPath("go"); err != nil {
		return "go not found"
	}
	return ""
}

// NotCounted is "": callgrind counts a Go binary's instructions exactly.
func (Go) NotCounted() string { return "" }

// Deploy is the Go binary as go build leaves it.
func (Go) Deploy(_ context.Context, a *App) (report.Deploy, error) {
	var d report.Deploy
	st, err := os.Stat(a.Argv[0])
	if err != nil {
		return d, err
	}
	d.What, d.Bytes, d.Files = "Go binary, statically linked Go runtime", st.Size(), 1
	return d, nil
}

// Build builds the app into root/bin.
func (Go) Build(ctx context.Context, root string, opt BuildOptions, a *App) error {
	bin := filepath.Join(root, "bin", a.Name)
	if err := RunTool(ctx, root, nil, "go", "build", "-o", bin, "./apps/"+a.Name); err != nil {
		return err
	}
	a.Argv = []string{bin}
	if opt.GOMAXPROCS > 0 {
		a.Env = append(a.Env, "GOMAXPROCS="+strconv.Itoa(opt.GOMAXPROCS))
	}
	a.Deps = GoBuildDeps(bin)
	return nil
}

// Node is the stack of the Node.js apps: npm ci in apps/<name> (skipped
// when node_modules matches the lock file), run node <main of
// package.json> with NODE_ENV=production (Express caches views only then)
// and WORKERS=N.
type Node struct{}

// Name is "node".
func (Node) Name() string { return NodeName }

// Missing returns "node not found" or "npm not found".
func (Node) Missing(string) string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node not found"
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "npm not found"
	}
	return ""
}

// NotCounted says why V8's counts are not comparable.
func (Node) NotCounted() string { return jitReason("Node.js's V8") }

// Build installs the app's dependencies from its lock file.
func (Node) Build(ctx context.Context, _ string, opt BuildOptions, a *App) error {
	if err := benchtest.NPMCI(ctx, a.Dir); err != nil {
		return err
	}
	main, err := nodeMain(a.Dir)
	if err != nil {
		return err
	}
	a.Argv = []string{"node", main}
	a.Env = append(a.Env, "NODE_ENV=production", "WORKERS="+strconv.Itoa(opt.NodeWorkers))
	if v := expressVersion(a.Dir); v != "" {
		a.Deps = map[string]string{"express": v}
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

// Dotnet is the stack of the ASP.NET Core apps: dotnet publish
// apps/<name>/<Name>.csproj -c Release -o bin/dotnet/<name> (plus -r
// linux-x64 for a Native AOT project, see aot.go, and -p:<property> for
// each -dotnet-property); run the published apphost, or dotnet <Name>.dll.
type Dotnet struct{}

// Name is "dotnet".
func (Dotnet) Name() string { return DotnetName }

// Missing returns "dotnet not found", or what Native AOT lacks here.
func (Dotnet) Missing(dir string) string {
	if _, err := exec.LookPath("dotnet"); err != nil {
		return "dotnet not found"
	}
	return aotSkipReason(dir)
}

// NotCounted says why .NET's counts are not comparable.
func (Dotnet) NotCounted() string { return jitReason(".NET's tiered JIT") }

// Build publishes the app in Release configuration.
func (Dotnet) Build(ctx context.Context, root string, opt BuildOptions, a *App) error {
	projects, _ := filepath.Glob(filepath.Join(a.Dir, "*.csproj"))
	if len(projects) != 1 {
		return fmt.Errorf("want exactly one .csproj in apps/%s, found %d", a.Name, len(projects))
	}
	out := filepath.Join(root, "bin", "dotnet", a.Name)
	env := []string{"DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_NOLOGO=1", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1"}
	// --artifacts-path keeps MSBuild's obj/ and bin/ out of the app's
	// directory, so the apps' own tests (which build elsewhere) never
	// share intermediate files with a run; it stays between runs, so a
	// rebuild is incremental.
	artifacts := filepath.Join(root, "bin", "dotnet-artifacts", a.Name)
	args := append([]string{"publish", projects[0], "-c", "Release", "--nologo", "--artifacts-path", artifacts, "-o", out},
		aotPublishArgs(projects[0])...)
	for _, prop := range opt.DotnetProperties {
		args = append(args, "-p:"+prop)
	}
	if err := RunTool(ctx, a.Dir, env, "dotnet", args...); err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(projects[0]), ".csproj")
	if data, err := os.ReadFile(projects[0]); err == nil {
		if m := assemblyName.FindSubmatch(data); m != nil {
			name = string(m[1])
		}
	}
	a.Env = append(env, "ASPNETCORE_ENVIRONMENT=Production")
	if host := filepath.Join(out, name); isExecutable(host) {
		a.Argv = []string{host}
		return nil
	}
	dll := filepath.Join(out, name+".dll")
	if _, err := os.Stat(dll); err != nil {
		return fmt.Errorf("dotnet publish produced neither %s nor %s", name, dll)
	}
	a.Argv = []string{"dotnet", dll}
	return nil
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// RunTool runs a build tool in dir and returns its output with the error
// when it fails.
func RunTool(ctx context.Context, dir string, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	proc.SetGroup(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, proc.Tail(string(out), 4000))
	}
	return nil
}

// jitReason is why the apps of a JIT runtime get no instruction count.
// Their machine code is produced while they run, by compiler threads whose
// work depends on timing (V8 and .NET tier hot code up on background
// threads; .NET waits a fixed delay before it does), so the same load gives
// different counts and the JIT's own work lands in the window; valgrind
// serializes those threads and slows them fifty-fold, changing those
// decisions again. CoreCLR is moreover not supported under valgrind.
func jitReason(what string) string {
	return "JIT runtimes under valgrind are not comparable (" + what +
		" compiles on background threads as timing decides, so counts vary and include the compiler)"
}
