// Command bench runs the Vireo benchmark suite: it builds every app of the
// chosen comparisons and bombardier (from this module, pinned by go.sum),
// verifies each app's response against expected/, measures them and writes
// results/<timestamp>/ with results.json, RESULTS.md and a chart per
// comparison.
//
//	cd _benchmarks
//	go run ./cmd/bench [flags] [simple] [mvc] [templates] [sessions] [sessions-redis] [middleware] [h2]
//	go run ./cmd/bench verify [flags] [comparisons...]
//	go run ./cmd/bench instructions [flags] [comparisons...]
//	go run ./cmd/bench footprint [flags] [comparisons...]
//	go run ./cmd/bench check results/<timestamp>
//
// `instructions` counts the instructions per request of every Go app under
// valgrind's callgrind instead of measuring requests per second, and writes
// results/<timestamp>-instructions/. `footprint` measures what the
// serverless benchmarks ask instead: cold start (exec to the first
// response, over fresh starts), deploy size, resident memory after start
// and after a warm-up, and latency when the server is not saturated, and
// writes results/<timestamp>-footprint/.
//
// Ctrl+C stops every process the run started, paused ones included.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/footprint"
	"github.com/vireo-go/vireo/_benchmarks/internal/instructions"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/throughput"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process exit, returning the exit code: 0 success,
// 1 a failed app or run, 2 bad usage, 130 interrupted.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	sub := "run"
	if len(args) > 0 && (args[0] == "verify" || args[0] == "check" || args[0] == "run" || args[0] == "instructions" || args[0] == "footprint") {
		sub, args = args[0], args[1:]
	}
	if sub == "check" {
		return check(args, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "tfb" {
		return tfbRun(ctx, args[1:], stdout, stderr)
	}

	fs := flag.NewFlagSet("bench "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg runner.Config
	var apps, baselines, memMax, out, dotnetProps string
	fs.StringVar(&cfg.Mode, "mode", runner.ModeInterleaved, "interleaved (apps paused/resumed per round, ratios per round) or sequential")
	fs.StringVar(&cfg.Profile, "profile", runner.ProfileDefault, "default, or constrained: limit the server's CPU and memory (-cpu-quota, -memory-max)")
	fs.BoolVar(&cfg.Quick, "quick", false, "quick mode: 2s timed runs, 1 repeat, short warm-up (flags given explicitly still win)")
	fs.IntVar(&cfg.Repeats, "repeats", 0, "measured runs per app; the median is reported (default 3, quick 1)")
	fs.IntVar(&cfg.Connections, "c", 0, "bombardier connections (default: the comparison's, 125; instructions: 8)")
	fs.Int64Var(&cfg.Requests, "n", 0, "requests per run (default: the comparison's, as in the original article; instructions: 20000, quick 2000)")
	fs.Int64Var(&cfg.WarmupRequests, "warmup-requests", 0, "instructions: requests before the counted ones (default 500, quick 200)")
	fs.DurationVar(&cfg.Duration, "d", 0, "timed runs of this duration instead of a request count")
	fs.DurationVar(&cfg.Warmup, "warmup", 0, "load after an app started, before its first run (default 5s, quick 1s; bombardier's minimum is 1s)")
	fs.DurationVar(&cfg.Rewarm, "rewarm", 0, "interleaved mode: load after resuming an app, before each run (default 1s)")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "bombardier per-request timeout (default 2s; instructions: 30s)")
	fs.DurationVar(&cfg.StartTimeout, "start-timeout", 0, "wait for an app's readiness lines at most this long (default 60s)")
	fs.StringVar(&cfg.ServerCPUs, "server-cpus", "", "CPUs of the servers, taskset syntax (default: first half; on 2 cores: 0)")
	fs.StringVar(&cfg.LoadCPUs, "load-cpus", "", "CPUs of bombardier, disjoint from -server-cpus (default: second half; on 2 cores: 1)")
	fs.IntVar(&cfg.GOMAXPROCS, "gomaxprocs", 0, "GOMAXPROCS of the Go apps (default: Go's, the number of server CPUs)")
	fs.IntVar(&cfg.NodeWorkers, "workers", 0, "WORKERS (node:cluster processes) of the Node apps (default: number of server CPUs)")
	fs.IntVar(&cfg.CPUQuotaPercent, "cpu-quota", 40, "constrained profile: percent of one CPU")
	fs.StringVar(&memMax, "memory-max", "256M", "constrained profile: memory maximum (bytes, or with K, M, G)")
	fs.StringVar(&dotnetProps, "dotnet-property", "", "comma-separated MSBuild properties for every dotnet publish, e.g. PublishReadyToRun=true or TieredPGO=false (default: none, the .csproj settings)")
	fs.StringVar(&apps, "apps", "", "comma-separated apps to run (default: all of the comparisons)")
	fs.StringVar(&baselines, "baseline", "", "comma-separated baseline apps; a comparison containing one uses it (default: its vireo app)")
	fs.IntVar(&cfg.BasePort, "port", 5000, "port of a comparison's first app, the others follow; 0 picks free ports")
	var fopt footprint.Options
	fs.IntVar(&fopt.Starts, "starts", 0, "footprint: timed fresh starts per app (default 10, quick 3)")
	fs.DurationVar(&fopt.PollInterval, "poll", 0, "footprint: pause between two attempts of the request while an app starts (default 1ms)")
	fs.IntVar(&fopt.FixedRate, "rate", 0, "footprint: requests per second of the fixed-rate runs (default: half the slowest app's warm-up rate)")
	fs.StringVar(&out, "out", "", "report directory (default: results/<UTC timestamp>, with -quick results/<timestamp>-quick)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./cmd/bench [verify|instructions|footprint|tfb] [flags] [%s]\n       go run ./cmd/bench check <results dir>\n", strings.Join(runner.Comparisons, "] ["))
		fs.PrintDefaults()
	}
	comparisons, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	mem, err := parseBytes(memMax)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	cfg.MemoryMax = mem
	cfg.Comparisons = comparisons
	cfg.Apps = splitList(apps)
	cfg.Baselines = splitList(baselines)
	cfg.DotnetProperties = splitList(dotnetProps)
	cfg.Log = stdout
	cfg.Command = "cd _benchmarks && go run ./cmd/bench " + strings.Join(os.Args[1:], " ")
	root, err := benchtest.ModuleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	cfg.Root = root
	if parsed != nil {
		parsed(sub, cfg)
		return 0
	}

	if sub == "verify" {
		_, err := runner.Verify(ctx, cfg)
		return exitCode(ctx, err, stderr)
	}
	if out == "" {
		out = filepath.Join("results", time.Now().UTC().Format("2006-01-02T15-04-05Z"))
		if sub == "instructions" || sub == "footprint" {
			out += "-" + sub
		}
		if cfg.Quick {
			out += "-quick"
		}
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	cfg.OutDir = out
	measure := throughput.Run
	if sub == "instructions" {
		measure = instructions.Run
	}
	if sub == "footprint" {
		measure = func(ctx context.Context, cfg runner.Config) (*report.Results, report.Files, error) {
			return footprint.Run(ctx, cfg, fopt)
		}
	}
	_, files, err := measure(ctx, cfg)
	if files.Markdown != "" {
		fmt.Fprintf(stdout, "\nresults.json: %s\nRESULTS.md:   %s\n", files.JSON, files.Markdown)
	}
	return exitCode(ctx, err, stderr)
}

// parsed, when set (by the tests), receives the subcommand and the
// configuration of a command line instead of running it.
var parsed func(sub string, cfg runner.Config)

// parseInterleaved parses args with fs, allowing flags after the
// comparison names as well as before them (`instructions simple -n 5000`),
// and returns the names in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return names, nil
		}
		names, args = append(names, rest[0]), rest[1:]
	}
}

func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "bench: interrupted; every started process was stopped")
		return 130
	case errors.Is(err, runner.ErrFailed):
		fmt.Fprintln(stderr, "\nbench:", err)
		return 1
	default:
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
}

// check validates a written report directory.
func check(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: go run ./cmd/bench check <results dir>")
		return 2
	}
	res, err := report.CheckDir(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: well formed (%d comparisons)\n", args[0], len(res.Comparisons))
	return 0
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// parseBytes parses a size such as 268435456, 256M or 1G (binary units).
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	mult := int64(1)
	for suffix, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}
