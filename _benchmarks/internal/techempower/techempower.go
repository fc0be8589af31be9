// Package techempower is the measurement of TechEmpower's six test types
// (`bench tfb`): every available stack's TechEmpower app is built, started
// against a PostgreSQL of its own with TechEmpower's data, held to the
// verifier's rules (package tfb), and loaded with wrk in TechEmpower's
// shape, scaled to the machine.
//
// The order of a run:
//
//  1. Build every app (Go: go build; Node: npm ci; .NET: dotnet publish
//     where dotnet exists, else the app is reported "skipped: dotnet not
//     found"), and count its lines of code.
//  2. Rounds: in each round every app gets a fresh PostgreSQL (initdb,
//     schema and data) and a fresh start, pinned, all of them before
//     anything is measured; in the first round each is verified, and an
//     app with a failed rule is reported "failed: <rule>" and never
//     measured. Then type by type: every app's primer (8 connections) and
//     warm-up at the highest concurrency, and the sweep (json, db,
//     fortunes: 16..512 connections; plaintext: 256, 1024, 4096
//     connections pipelined 16 deep; queries and updates: 1, 5, 10, 15,
//     20 queries at 512 connections), level by level, the apps taking
//     turns at each level for Duration each (their order rotated by one
//     per round, so no app is always first or last). So the figures set
//     against each other are seconds apart, not minutes. Then apps and
//     databases are stopped by PID.
//  3. The report: per type and app, the median and range over the rounds
//     of every level (the curve), the best level, p50 and p99 there, and
//     every error or non-2xx response (any fails the level); the ratio of
//     each stack to the net/http floor at its best level; a chart of the
//     curves per type.
//
// Pinning: the apps and their PostgreSQL run on the server CPUs, wrk and
// the runner itself on the load CPUs (on 2 cores: CPU 0 and CPU 1).
package techempower

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// App is one stack's TechEmpower app, apps/<Name>.
type App struct {
	Name  string // directory under apps/
	Label string // as reports name it
	Stack string // "go", "node" or "dotnet"
	// R23 is the framework's name in TechEmpower's Round 23 results.
	R23 string
}

// Floor is the app every other is divided by.
const Floor = "tfb-nethttp"

// Vireo is the app the suite's goals are about: the report divides it by
// every other stack.
const Vireo = "tfb-vireo"

// Apps are the stacks of the comparison, in report order.
var Apps = []App{
	{Vireo, "Vireo", "go", ""},
	{"tfb-vireo-fast", "Vireo (fast engine)", "go", ""},
	{Floor, "net/http (floor)", "go", "go"},
	{"tfb-gin", "Gin", "go", "gin"},
	{"tfb-echo", "Echo", "go", "echo"},
	{"tfb-chi", "chi", "go", "chi"},
	{"tfb-fiber", "Fiber", "go", "fiber"},
	{"tfb-expressjs", "Express", "node", "express"},
	{"tfb-nodehttp", "node:http", "node", "nodejs"},
	{"tfb-netcore", "ASP.NET Core (Kestrel)", "dotnet", "aspnetcore"},
}

// Levels are the sweep of one test type.
type Levels struct {
	// Connections of each level (json, db, fortunes, plaintext), or the
	// one connection count of every level (queries, updates).
	Connections []int
	// Queries of each level (queries, updates); nil otherwise.
	Queries []int
	// Pipeline is the requests per write (plaintext 16).
	Pipeline int
}

// N is the number of levels.
func (l Levels) N() int { return max(len(l.Queries), len(l.Connections)) }

// Level returns the connections and the queries (0 when none) of level i.
func (l Levels) Level(i int) (connections, queries int) {
	if l.Queries != nil {
		return l.Connections[0], l.Queries[i]
	}
	return l.Connections[i], 0
}

// Max returns the highest connection count, the warm-up's.
func (l Levels) Max() int { return l.Connections[len(l.Connections)-1] }

// TechEmpower's sweeps (toolset/run-tests.py defaults), the plaintext one
// without its 16384 level, which a small machine's wrk cannot open.
var (
	concurrencyLevels = []int{16, 32, 64, 128, 256, 512}
	pipelineLevels    = []int{256, 1024, 4096}
	queryLevels       = []int{1, 5, 10, 15, 20}
)

// DefaultLevels returns TechEmpower's sweep for t.
func DefaultLevels(t tfb.Type) Levels {
	switch t {
	case tfb.Plaintext:
		return Levels{Connections: pipelineLevels, Pipeline: 16}
	case tfb.Queries, tfb.Updates:
		return Levels{Connections: []int{concurrencyLevels[len(concurrencyLevels)-1]}, Queries: queryLevels}
	}
	return Levels{Connections: concurrencyLevels}
}

// Config is one run.
type Config struct {
	Root   string // the module root
	OutDir string // the report directory
	// Apps to run (default: all of Apps).
	Apps []string
	// Types to run (default: all six).
	Types []tfb.Type
	// Levels overrides DefaultLevels per type.
	Levels map[tfb.Type]Levels
	// Rounds is the number of interleaved rounds (default 3).
	Rounds int
	// Duration of each level and of the warm-up (default 5s; TechEmpower:
	// 15s); Primer of the primer (default 2s; TechEmpower: 5s).
	Duration, Primer time.Duration
	// ServerCPUs and LoadCPUs (taskset lists; default: the halves of the
	// CPUs, on 2 cores 0 and 1). PostgreSQL shares the server CPUs.
	ServerCPUs, LoadCPUs string
	// Pool is the connection pool of every app (DB_POOL, default 32; a
	// Node app with several workers splits it among them).
	Pool int
	// Workers are the node:cluster processes of the Node apps (default:
	// the number of server CPUs).
	Workers int
	// Verify is the query count of the verifier (default: 512 clients,
	// once, as TechEmpower).
	VerifyConcurrency int
	// StartTimeout bounds an app's and a database's start (default 60s).
	StartTimeout time.Duration
	// Command is the command line, recorded in the report.
	Command string
	Log     io.Writer
}

// Check reports whether c would run: the directories given, every app and
// type known, the CPU lists valid. It changes nothing in c.
func (c Config) Check() error { return c.defaults() }

func (c *Config) defaults() error {
	if c.Root == "" || c.OutDir == "" {
		return errors.New("techempower: Root and OutDir are required")
	}
	if len(c.Types) == 0 {
		c.Types = tfb.Types
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	if c.Duration <= 0 {
		c.Duration = 5 * time.Second
	}
	if c.Primer <= 0 {
		c.Primer = 2 * time.Second
	}
	if c.Pool <= 0 {
		c.Pool = 32
	}
	if c.VerifyConcurrency <= 0 {
		c.VerifyConcurrency = 512
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 60 * time.Second
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.ServerCPUs == "" && c.LoadCPUs == "" {
		c.ServerCPUs, c.LoadCPUs = proc.DefaultCPUSplit(runtime.NumCPU())
	}
	if c.ServerCPUs != "" || c.LoadCPUs != "" {
		server, _, err := proc.CheckCPUSplit(c.ServerCPUs, c.LoadCPUs, runtime.NumCPU())
		if err != nil {
			return err
		}
		if c.Workers <= 0 {
			c.Workers = len(server)
		}
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if len(c.Apps) == 0 {
		for _, a := range Apps {
			c.Apps = append(c.Apps, a.Name)
		}
	}
	for _, name := range c.Apps {
		if _, ok := appNamed(name); !ok {
			return fmt.Errorf("techempower: unknown app %q", name)
		}
	}
	return nil
}

// levels returns the sweep of t under c.
func (c *Config) levels(t tfb.Type) Levels {
	if l, ok := c.Levels[t]; ok {
		return l
	}
	return DefaultLevels(t)
}

func appNamed(name string) (App, bool) {
	for _, a := range Apps {
		if a.Name == name {
			return a, true
		}
	}
	return App{}, false
}

// Run runs the comparison and writes its report to cfg.OutDir; it returns
// the report. An app that fails to build, start or verify is reported so
// and the run goes on; only a broken setup (no wrk, no PostgreSQL) is an
// error.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	s, err := newSession(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer s.close()
	for round := 0; round < cfg.Rounds; round++ {
		// The apps' order rotates by one a round, so that no app is always
		// first or last at a level.
		order := make([]*app, len(s.apps))
		for i := range s.apps {
			order[i] = s.apps[(i+round)%len(s.apps)]
		}
		s.runRound(ctx, order, round)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return s.finish()
}

func itoa(n int) string { return strconv.Itoa(n) }
