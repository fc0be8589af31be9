// Instruction counts of the TechEmpower apps (`bench tfb -instructions`):
// the user-space instructions each Go app executes per request of each
// test type, counted by callgrind as package instructions counts the apps
// of the other comparisons. Between Go apps this is the comparison that
// does not drift with the machine's load (the rounds of Run measure
// requests per second, which the Round 23 ratios and the other runtimes
// need).
//
// For each Go app, one at a time: a fresh PostgreSQL with TechEmpower's
// data on the server CPUs (it runs natively and is not counted), the app
// started under `valgrind --tool=callgrind` on the server CPUs with
// GODEBUG=asyncpreemptoff=1 (callgrind aborts on the signals of Go's
// asynchronous preemption); WarmupRequests requests of every type (pools
// filled, templates and the heap grown, so that the first type counted is
// not the one that pays for them); then for each type in turn
// WarmupRequests requests with bombardier, a dump (`callgrind_control -d`, which also
// zeroes the counters), the counted requests, a second dump. The second
// dump holds exactly the measured window (callgrind.Window checks that the
// two are consecutive); its instructions divided by the requests is the
// figure, reported with the collector's cycles in the window (the calls of
// runtime.gcMarkTermination, once a cycle).
//
// The collector runs in whole cycles, each some ten million instructions
// for these apps, so a window's figure carries up to a cycle's cost ÷ its
// requests of chance: 2,000 a request on a 5,000-request plaintext
// window, which was more than the frameworks' differences there. So each
// type counts by default as many requests as make a window of about two
// billion instructions (CountRequests): 40,000 plaintext or json requests,
// 25,000 db, 5,000 of the others, some twenty cycles or more a window.
//
// The window's own instructions of each function (callgrind.File.Self)
// split the figure in two: the Go runtime's (the allocator, the collector,
// the scheduler, maps; goRuntime) and the rest (the app, the framework,
// pgx, net/http, the standard library). The collector's share moves from
// run to run with where its cycles fall and what they find, by 1-2% of a
// database request; the rest repeats to within a few hundred
// instructions, so the report gives it as a table of its own: the part in
// which the frameworks' differences show through the collector's noise.
//
// Every request must answer 2xx, or the app's type is failed. The count
// covers the app's process: its handlers, the framework, pgx and its pool,
// html/template, the Go runtime and GC, net/http (or fasthttp).
//
// Queries and updates are counted at 20 queries a request, the level the
// Round 23 ratios are taken at. Plaintext is counted without pipelining
// (bombardier sends one request at a time on each connection): pipelining
// saves system calls, which are kernel work and not counted, and a few
// reads of the app.
package techempower

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/callgrind"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/service"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// InstructionsSchema names the format of an instructions run's
// results.json.
const InstructionsSchema = "vireo-bench-tfb-instructions/1"

// Defaults of an instructions run.
const (
	DefaultCountWarmup      = 500
	DefaultCountConnections = 8
	// CountQueries is the queries per request of queries and updates.
	CountQueries = 20
	// countTimeout is a request's timeout under valgrind, which slows an
	// app down some fifty times.
	countTimeout = 30 * time.Second
	// countDumpTimeout bounds the wait for a dump file.
	countDumpTimeout = 60 * time.Second
)

// gcCycleFunction is the runtime function called once a collector cycle.
const gcCycleFunction = "runtime.gcMarkTermination"

// goRuntime reports whether fn, a function name in a callgrind dump, is
// the Go runtime's: package runtime, the internal/runtime packages (maps,
// atomics, system calls) and the runtime's assembly routines. A recursive
// call's name carries callgrind's suffix ("runtime.mallocgc'2").
func goRuntime(fn string) bool {
	name, _, _ := strings.Cut(fn, "'")
	switch name {
	case "gcWriteBarrier", "gogo", "gosave_systemstack_switch", "aeshashbody":
		return true // assembly that callgrind names without its package
	}
	return strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "internal/runtime/")
}

// CountRequests returns the counted requests of type t by default: a
// window of about two billion instructions, some twenty collector cycles
// or more (see the file comment).
func CountRequests(t tfb.Type) int {
	switch t {
	case tfb.Plaintext, tfb.JSON:
		return 40000 // about 50,000 instructions a request
	case tfb.DB:
		return 25000 // about 75,000
	}
	return 5000 // queries and updates at 20 queries, fortunes: 350,000-430,000
}

// CountConfig is an instructions run.
type CountConfig struct {
	Config
	// Requests, WarmupRequests and Connections are each type's load
	// (defaults CountRequests of the type, DefaultCountWarmup,
	// DefaultCountConnections).
	Requests, WarmupRequests, Connections int
}

// requests returns the counted requests of type t.
func (cfg *CountConfig) requests(t tfb.Type) int {
	if cfg.Requests > 0 {
		return cfg.Requests
	}
	return CountRequests(t)
}

// InstructionsReport is an instructions run's results.json.
type InstructionsReport struct {
	runHead
	Valgrind string `json:"valgrind"`
	Postgres string `json:"postgres"`
	// Requests is -n, the counted requests of every type; 0: each type's
	// CountRequests (TypeCount.Requests has what was counted).
	Requests       int         `json:"requests"`
	WarmupRequests int         `json:"warmupRequests"`
	Connections    int         `json:"connections"`
	Queries        int         `json:"queries"`
	Pool           int         `json:"pool"`
	Types          []tfb.Type  `json:"types"`
	Apps           []*AppCount `json:"apps"`
}

// AppCount is one Go app's counts.
type AppCount struct {
	Name   string `json:"name"`
	Label  string `json:"label"`
	Status string `json:"status,omitempty"`
	// Deps are the versions of what the app links.
	Deps  map[string]string       `json:"deps,omitempty"`
	Types map[tfb.Type]*TypeCount `json:"types,omitempty"`
}

// TypeCount is one app's count of one type.
type TypeCount struct {
	Requests   int64   `json:"requests,omitempty"`
	Total      int64   `json:"instructions,omitempty"`
	PerRequest float64 `json:"perRequest,omitempty"`
	// GCCycles are the collector's cycles in the window.
	GCCycles int64 `json:"gcCycles"`
	// Runtime are the instructions of Total executed in the Go runtime's
	// own functions (goRuntime); 0 in runs made before it was counted.
	Runtime int64 `json:"runtimeInstructions,omitempty"`
	// RatioToFloor is PerRequest ÷ the floor's (nil for the floor and
	// when either is missing).
	RatioToFloor *float64 `json:"ratioToFloor,omitempty"`
	Failed       string   `json:"failed,omitempty"`
}

// CountInstructions counts every Go app of cfg (Node.js and .NET, JIT
// runtimes, are not counted) and writes results.json and RESULTS.md into
// cfg.OutDir. Only a broken setup (no valgrind, bombardier or PostgreSQL)
// is an error before the report; an app that fails is reported so.
func CountInstructions(ctx context.Context, cfg CountConfig) (*InstructionsReport, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	if cfg.WarmupRequests <= 0 {
		cfg.WarmupRequests = DefaultCountWarmup
	}
	if cfg.Connections <= 0 {
		cfg.Connections = DefaultCountConnections
	}
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		return nil, errors.New("techempower: valgrind not found (Debian: apt-get install -y valgrind)")
	}
	control, err := exec.LookPath("callgrind_control")
	if err != nil {
		return nil, errors.New("techempower: callgrind_control not found (it comes with valgrind)")
	}
	if _, _, err := postgres.Programs(); err != nil {
		return nil, err
	}
	pin := proc.NewPinning(cfg.ServerCPUs, cfg.LoadCPUs)
	gen, err := load.New(load.BombardierName, pin.Load)
	if err != nil {
		return nil, err
	}
	if _, err := gen.Prepare(ctx, cfg.Root); err != nil {
		return nil, err
	}
	dumps := filepath.Join(cfg.OutDir, "callgrind")
	for _, d := range []string{dumps, filepath.Join(cfg.OutDir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	r := &InstructionsReport{
		runHead:  newRunHead(InstructionsSchema, cfg.Command),
		Valgrind: strings.TrimPrefix(stack.ToolVersion(ctx, valgrind, "--version"), "valgrind-"),
		Requests: cfg.Requests, WarmupRequests: cfg.WarmupRequests, Connections: cfg.Connections,
		Queries: CountQueries, Pool: cfg.Pool, Types: cfg.Types,
	}
	c := &countSession{cfg: &cfg, pin: pin, gen: gen, valgrind: valgrind, control: control, dumps: dumps, report: r}
	for _, name := range cfg.Apps {
		meta, _ := appNamed(name)
		if meta.Stack != stack.GoName {
			continue // JIT runtimes: callgrind counts their compiler, not a steady state
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.app(ctx, meta)
	}
	r.finish()
	if err := r.write(cfg.OutDir); err != nil {
		return r, err
	}
	var failed []string
	for _, a := range r.Apps {
		if a.Status != "" {
			failed = append(failed, a.Name+": "+a.Status)
		}
		for t, tc := range a.Types {
			if tc.Failed != "" {
				failed = append(failed, a.Name+" "+string(t)+": "+tc.Failed)
			}
		}
	}
	if failed != nil {
		return r, errors.New("techempower: " + strings.Join(failed, "; "))
	}
	return r, nil
}

type countSession struct {
	cfg               *CountConfig
	pin               proc.Pinning
	gen               load.Generator
	valgrind, control string
	dumps             string
	report            *InstructionsReport
}

// app builds meta's app, starts its database and the app under
// callgrind, and counts every type.
func (c *countSession) app(ctx context.Context, meta App) {
	cfg := c.cfg
	res := &AppCount{Name: meta.Name, Label: meta.Label, Types: map[tfb.Type]*TypeCount{}}
	c.report.Apps = append(c.report.Apps, res)
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, format+"\n", args...) }
	sa := &stack.App{Name: meta.Name, StackName: meta.Stack, Stack: stack.For(meta.Stack), Dir: filepath.Join(cfg.Root, "apps", meta.Name)}
	logf("build %s", meta.Name)
	if err := sa.Build(ctx, cfg.Root, stack.BuildOptions{}); err != nil {
		res.Status = "failed: build: " + lastLine([]byte(err.Error()))
		return
	}
	res.Deps = sa.Deps
	inst, err := service.Postgres{Pool: cfg.Pool}.Start(ctx, service.Setup{
		Pin: c.pin.Server, LogPath: filepath.Join(cfg.OutDir, "logs", meta.Name+"-postgres.log"),
	})
	if err != nil {
		res.Status = "failed: PostgreSQL: " + err.Error()
		return
	}
	defer inst.Stop()
	c.report.Postgres = "PostgreSQL " + inst.(*service.PostgresInstance).Server.Version
	base := filepath.Join(c.dumps, meta.Name)
	env := append(append(append([]string(nil), sa.Env...), inst.Env()...), "GODEBUG=asyncpreemptoff=1")
	p, err := benchtest.StartOnFreePort(ctx, func(port int) (benchtest.Spec, error) {
		log, err := os.Create(filepath.Join(cfg.OutDir, "logs", meta.Name+".log"))
		if err != nil {
			return benchtest.Spec{}, err
		}
		argv := append(append([]string(nil), c.pin.Server...), c.valgrind, "--tool=callgrind", "--callgrind-out-file="+base+".%p")
		return benchtest.Spec{Name: meta.Name, Argv: append(argv, sa.Argv...), Env: env, Dir: sa.Dir, Port: port, Log: log}, nil
	}, max(cfg.StartTimeout, 2*time.Minute))
	if err != nil {
		res.Status = "failed: start under callgrind: " + lastLine([]byte(err.Error()))
		return
	}
	defer p.Stop()
	defer func() {
		files, _ := filepath.Glob(fmt.Sprintf("%s.%d*", base, p.Pid()))
		for _, f := range files {
			if !strings.HasSuffix(f, ".callgrind.out") {
				os.Remove(f)
			}
		}
	}()
	logf("start  %s under callgrind (pid %d)", meta.Name, p.Pid())
	for _, t := range cfg.Types {
		if err := c.warm(ctx, p, t); err != nil {
			if ctx.Err() == nil {
				res.Status = "failed: warm-up of " + string(t) + ": " + err.Error()
			}
			return
		}
	}
	dump := 0
	for _, t := range cfg.Types {
		tc := &TypeCount{}
		res.Types[t] = tc
		if err := c.count(ctx, p, base, &dump, t, tc); err != nil {
			if ctx.Err() != nil {
				return
			}
			tc.Failed = err.Error()
			logf("  %-9s FAILED: %s", t, err)
			continue
		}
		logf("  %-9s %9.0f instructions/request (%d requests, %d GC cycles)", t, tc.PerRequest, tc.Requests, tc.GCCycles)
	}
}

// load sends n requests of type t to p; any that did not answer 2xx is an
// error. It returns the requests sent.
func (c *countSession) load(ctx context.Context, p *benchtest.Process, t tfb.Type, n int) (int64, error) {
	url := p.URL() + t.Path()
	if t == tfb.Queries || t == tfb.Updates {
		url += itoa(CountQueries)
	}
	target := load.Target{URL: url, Headers: []string{"Accept: " + t.Accept()}}
	r, err := c.gen.Run(ctx, target, load.Options{Connections: c.cfg.Connections, Requests: int64(n), Timeout: countTimeout})
	if err != nil {
		return 0, err
	}
	f := r.Figures()
	if f.OK != int64(n) || f.NonSuccess != 0 || f.Errors != 0 {
		return 0, fmt.Errorf("%d of %d requests answered 2xx, %d non-2xx, %d errors", f.OK, n, f.NonSuccess, f.Errors)
	}
	return f.Requests, nil
}

// warm sends the warm-up requests of t, not counted.
func (c *countSession) warm(ctx context.Context, p *benchtest.Process, t tfb.Type) error {
	_, err := c.load(ctx, p, t, c.cfg.WarmupRequests)
	return err
}

// count measures type t on the running app p; dump is the number of dumps
// p has written so far.
func (c *countSession) count(ctx context.Context, p *benchtest.Process, base string, dump *int, t tfb.Type, tc *TypeCount) error {
	run := func(n int) (int64, error) { return c.load(ctx, p, t, n) }
	next := func() (*callgrind.File, error) {
		*dump++
		return callgrind.Dump(ctx, c.control, p.Pid(), callgrind.DumpPath(base, p.Pid(), *dump), countDumpTimeout, p.Exited, proc.SetGroup)
	}
	if err := c.warm(ctx, p, t); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	first, err := next()
	if err != nil {
		return err
	}
	n, err := run(c.cfg.requests(t))
	if err != nil {
		return err
	}
	second, err := next()
	if err != nil {
		return err
	}
	total, err := callgrind.Window(first, second)
	if err != nil {
		return err
	}
	per, err := callgrind.PerRequest(total, n)
	if err != nil {
		return err
	}
	tc.Requests, tc.Total, tc.PerRequest = n, total, per
	tc.GCCycles = second.Calls(gcCycleFunction)
	tc.Runtime = second.Self(goRuntime)
	// Keep the window's dump for callgrind_annotate.
	os.Rename(callgrind.DumpPath(base, p.Pid(), *dump), base+"-"+string(t)+".callgrind.out")
	return nil
}

// finish records the end of the run and sets the ratios to the floor.
func (r *InstructionsReport) finish() {
	r.Finished = time.Now().UTC()
	r.ratios()
}

// outsideRuntime returns the instructions per request outside the Go
// runtime, and false when the window was not split.
func (tc *TypeCount) outsideRuntime() (float64, bool) {
	if tc == nil || tc.Failed != "" || tc.Runtime <= 0 || tc.Requests <= 0 {
		return 0, false
	}
	return float64(tc.Total-tc.Runtime) / float64(tc.Requests), true
}

// floor returns the floor's counts, nil when the run has none.
func (r *InstructionsReport) floor() *AppCount {
	for _, a := range r.Apps {
		if a.Name == Floor {
			return a
		}
	}
	return nil
}

// ratios sets the ratios to the floor.
func (r *InstructionsReport) ratios() {
	floor := r.floor()
	if floor == nil {
		return
	}
	for _, a := range r.Apps {
		if a == floor {
			continue
		}
		for t, tc := range a.Types {
			if f := floor.Types[t]; f != nil && f.PerRequest > 0 && tc.PerRequest > 0 {
				ratio := tc.PerRequest / f.PerRequest
				tc.RatioToFloor = &ratio
			}
		}
	}
}

func (r *InstructionsReport) write(dir string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "RESULTS.md"), []byte(r.markdown()), 0o644)
}

// RederiveInstructions reads the results.json of the instructions run in
// dir and, for each window whose dump is still there
// (callgrind/<app>-<type>.callgrind.out, which the run keeps), counts its
// collector cycles and splits it between the Go runtime and the rest as a
// run of this version would; then it rewrites results.json and
// RESULTS.md. Nothing is measured. A dump whose total is not the window's
// is an error.
func RederiveInstructions(dir string) (*InstructionsReport, error) {
	var r InstructionsReport
	if err := readResults(dir, InstructionsSchema, &r); err != nil {
		return nil, err
	}
	for _, a := range r.Apps {
		for t, tc := range a.Types {
			if tc.Failed != "" || tc.Total <= 0 {
				continue
			}
			path := filepath.Join(dir, "callgrind", a.Name+"-"+string(t)+".callgrind.out")
			f, err := callgrind.ParseFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if n, err := f.Instructions(); err != nil || n != tc.Total {
				return nil, fmt.Errorf("techempower: %s: %d instructions (%v), not the window's %d", path, n, err, tc.Total)
			}
			tc.GCCycles, tc.Runtime = f.Calls(gcCycleFunction), f.Self(goRuntime)
		}
	}
	r.ratios()
	return &r, r.write(dir)
}

func (r *InstructionsReport) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# TechEmpower test types, instructions per request: %s\n\n", r.Started.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "`%s`\n\n", r.Command)
	counted := "the counted requests of the second table"
	if r.Requests > 0 {
		counted = fmt.Sprintf("%d counted requests", r.Requests)
	}
	fmt.Fprintf(&b, "Machine: %s, %d CPUs, kernel %s; %s; valgrind %s; %s. Each Go app under callgrind with a PostgreSQL of its own (not counted); %d warm-up requests of every type first, then per type %d warm-up requests again and %s over %d connections (bombardier, no pipelining); queries and updates at %d queries a request; database pool %d. Cells: instructions per request, and ÷ net/http.\n\n",
		r.Machine.CPU, r.Machine.Cores, r.Machine.Kernel, r.Machine.Go, r.Valgrind, r.Postgres,
		r.WarmupRequests, r.WarmupRequests, counted, r.Connections, r.Queries, r.Pool)
	r.table(&b, func(a *AppCount, t tfb.Type) string {
		tc := a.Types[t]
		switch {
		case a.Status != "":
			return strings.SplitN(a.Status, ":", 2)[0]
		case tc == nil:
			return ""
		case tc.Failed != "":
			return "failed"
		case a.Name == Floor:
			return fmt.Sprintf("%s (1)", thousands(tc.PerRequest))
		case tc.RatioToFloor != nil:
			return fmt.Sprintf("%s (%.3f)", thousands(tc.PerRequest), *tc.RatioToFloor)
		}
		return thousands(tc.PerRequest)
	})
	b.WriteString("\nCounted requests and the collector's cycles in each window (one cycle more or less moves a figure by about ten million instructions ÷ the requests):\n\n")
	r.table(&b, func(a *AppCount, t tfb.Type) string {
		if tc := a.Types[t]; tc != nil && tc.Failed == "" && tc.Requests > 0 {
			return fmt.Sprintf("%s, %d", thousands(float64(tc.Requests)), tc.GCCycles)
		}
		return ""
	})
	if r.split() {
		b.WriteString("\nInstructions per request outside the Go runtime (the app, the framework, pgx, net/http and the rest of the standard library; the allocator, the collector, the scheduler and maps left out), and ÷ net/http's. The collector's part moves from run to run by 1-2% of a database request; this part repeats to within a few hundred instructions:\n\n")
		floor := r.floor()
		r.table(&b, func(a *AppCount, t tfb.Type) string {
			n, ok := a.Types[t].outsideRuntime()
			if !ok {
				return ""
			}
			if a == floor {
				return thousands(n) + " (1)"
			}
			if floor != nil {
				if f, ok := floor.Types[t].outsideRuntime(); ok {
					return fmt.Sprintf("%s (%.3f)", thousands(n), n/f)
				}
			}
			return thousands(n)
		})
	}
	var failures []string
	for _, a := range r.Apps {
		if a.Status != "" {
			failures = append(failures, fmt.Sprintf("- %s: %s", a.Label, a.Status))
		}
		for _, t := range r.Types {
			if tc := a.Types[t]; tc != nil && tc.Failed != "" {
				failures = append(failures, fmt.Sprintf("- %s, %s: %s", a.Label, t, tc.Failed))
			}
		}
	}
	if failures != nil {
		b.WriteString("\n## Failures\n\n" + strings.Join(failures, "\n") + "\n")
	}
	return b.String()
}

// split reports whether any window of the run was split between the Go
// runtime and the rest.
func (r *InstructionsReport) split() bool {
	for _, a := range r.Apps {
		for _, tc := range a.Types {
			if _, ok := tc.outsideRuntime(); ok {
				return true
			}
		}
	}
	return false
}

// table writes a table of the run's apps by its types, each cell from
// cell.
func (r *InstructionsReport) table(b *strings.Builder, cell func(*AppCount, tfb.Type) string) {
	heads := make([]string, len(r.Types))
	for i, t := range r.Types {
		heads[i] = string(t)
	}
	fmt.Fprintf(b, "| stack | %s |\n|---|%s\n", strings.Join(heads, " | "), strings.Repeat("---:|", len(heads)))
	for _, a := range r.Apps {
		cells := make([]string, len(r.Types))
		for i, t := range r.Types {
			cells[i] = cell(a, t)
		}
		fmt.Fprintf(b, "| %s | %s |\n", a.Label, strings.Join(cells, " | "))
	}
}

// thousands formats n rounded, with commas.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
