// The tfb command: TechEmpower's six test types under their verifier's
// rules (internal/techempower), in a report directory of its own,
// results/<UTC timestamp>-tfb.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/techempower"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// tfbParsed, when set (by the tests), receives the configuration instead
// of it being run, as parsed does for the other commands.
var tfbParsed func(cfg techempower.Config)

// tfbCountParsed is tfbParsed for `bench tfb -instructions`.
var tfbCountParsed func(cfg techempower.CountConfig)

// tfbRederiveParsed is tfbParsed for `bench tfb -rederive`: it receives
// the run's directory, resolved against the module root as -out is.
var tfbRederiveParsed func(dir string)

// tfbRun parses the flags of `bench tfb [flags] [type...]` and runs it.
func tfbRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench tfb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg techempower.Config
	var apps, out, rederive string
	var quick, instructions bool
	var count techempower.CountConfig
	fs.IntVar(&cfg.Rounds, "rounds", 0, "interleaved rounds, each with a fresh PostgreSQL and app (default 3, quick 1)")
	fs.DurationVar(&cfg.Duration, "d", 0, "duration of each level and of the warm-up (default 5s, quick 1s; TechEmpower: 15s)")
	fs.DurationVar(&cfg.Primer, "primer", 0, "duration of the 8-connection primer (default 2s, quick 1s; TechEmpower: 5s)")
	fs.IntVar(&cfg.Pool, "pool", 0, "database connection pool of every app, DB_POOL (default 32)")
	fs.IntVar(&cfg.Workers, "workers", 0, "node:cluster processes of the Node apps (default: number of server CPUs)")
	fs.IntVar(&cfg.VerifyConcurrency, "verify-c", 0, "clients of the verifier's query count (default 512, TechEmpower's)")
	fs.StringVar(&cfg.ServerCPUs, "server-cpus", "", "CPUs of the apps and their PostgreSQL (default: first half; on 2 cores: 0)")
	fs.StringVar(&cfg.LoadCPUs, "load-cpus", "", "CPUs of wrk and the runner (default: second half; on 2 cores: 1)")
	fs.DurationVar(&cfg.StartTimeout, "start-timeout", 0, "wait for an app or a database to start at most this long (default 60s)")
	fs.StringVar(&apps, "apps", "", "comma-separated apps (default: every tfb-* app)")
	fs.BoolVar(&quick, "quick", false, "a smoke test of the pipeline: 1 round, 1s levels (flags given explicitly still win); not figures to cite")
	fs.BoolVar(&instructions, "instructions", false, "count the Go apps' instructions per request of each type under callgrind instead of measuring requests/s")
	fs.IntVar(&count.Requests, "n", 0, "-instructions: counted requests of every type (default: per type, 40000 plaintext and json, 25000 db, 5000 the others)")
	fs.IntVar(&count.WarmupRequests, "warmup-requests", 0, "-instructions: warm-up requests per type (default 500)")
	fs.IntVar(&count.Connections, "c", 0, "-instructions: connections (default 8)")
	fs.StringVar(&rederive, "rederive", "", "derive the figures of the run in this directory (relative to _benchmarks) again from its results.json (with -instructions: and its window dumps) and rewrite its report (nothing is measured)")
	fs.StringVar(&out, "out", "", "report directory (default: results/<UTC timestamp>-tfb, with -quick ...-tfb-quick)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./cmd/bench tfb [flags] [%s]\n", strings.Join(typeNames(), "] ["))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if rederive != "" && fs.NArg() > 0 {
		fmt.Fprintln(stderr, "bench tfb: -rederive takes no test types")
		return 2
	}
	for _, name := range fs.Args() {
		t := tfb.Type(name)
		if !containsType(t) {
			fmt.Fprintf(stderr, "bench tfb: unknown test type %q (have %s)\n", name, strings.Join(typeNames(), ", "))
			return 2
		}
		cfg.Types = append(cfg.Types, t)
	}
	if quick {
		if cfg.Rounds == 0 {
			cfg.Rounds = 1
		}
		if cfg.Duration == 0 {
			cfg.Duration = time.Second
		}
		if cfg.Primer == 0 {
			cfg.Primer = time.Second
		}
	}
	cfg.Apps = splitList(apps)
	root, err := benchtest.ModuleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	cfg.Root = root
	if rederive != "" {
		rederive = underRoot(root, rederive)
		if tfbRederiveParsed != nil {
			tfbRederiveParsed(rederive)
			return 0
		}
		if instructions {
			_, err = techempower.RederiveInstructions(rederive)
		} else {
			_, err = techempower.Rederive(rederive)
		}
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(rederive, "RESULTS.md"))
		return 0
	}
	if out == "" {
		out = filepath.Join("results", time.Now().UTC().Format("2006-01-02T15-04-05Z")+"-tfb")
		if instructions {
			out += "-instructions"
		}
		if quick {
			out += "-quick"
		}
	}
	out = underRoot(root, out)
	cfg.OutDir = out
	cfg.Command = "cd _benchmarks && go run ./cmd/bench " + strings.Join(os.Args[1:], " ")
	cfg.Log = stdout
	if instructions {
		count.Config = cfg
		if quick {
			count.Requests, count.WarmupRequests = cmp.Or(count.Requests, 500), cmp.Or(count.WarmupRequests, 100)
		}
		if tfbCountParsed != nil {
			tfbCountParsed(count)
			return 0
		}
		_, err = techempower.CountInstructions(ctx, count)
	} else {
		if tfbParsed != nil {
			tfbParsed(cfg)
			return 0
		}
		_, err = techempower.Run(ctx, cfg)
	}
	if err == nil {
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(out, "RESULTS.md"))
	}
	return exitCode(ctx, err, stderr)
}

// underRoot resolves a path of the command line against the module root
// (_benchmarks), where the results directories are.
func underRoot(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, p)
}

func typeNames() []string {
	var names []string
	for _, t := range tfb.Types {
		names = append(names, string(t))
	}
	return names
}

func containsType(t tfb.Type) bool {
	for _, u := range tfb.Types {
		if u == t {
			return true
		}
	}
	return false
}
