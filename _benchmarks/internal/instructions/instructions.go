// Package instructions counts instructions (`bench instructions`): the user-space instructions
// each Go app executes per request, counted by valgrind's callgrind tool.
// Unlike requests per second, the count does not depend on how fast or how
// busy the machine is (CPU steal, frequency, other tenants), so its ratios
// between apps stay stable on a noisy virtual machine.
//
// For each Go app of each comparison (both variants of the sessions
// comparisons), one at a time:
//
//  1. start it as `taskset -c <server CPUs> valgrind --tool=callgrind
//     --callgrind-out-file=<out>/callgrind/<comparison>-<app>.%p <app>` with
//     GODEBUG=asyncpreemptoff=1 (callgrind aborts on the signals Go's
//     asynchronous preemption sends);
//  2. verify its response against expected/, as a throughput run does;
//  3. send WarmupRequests requests with bombardier (connections opened,
//     caches, pools and the heap grown), then `callgrind_control -d`: the
//     dump holds start-up and warm-up and zeroes callgrind's counters;
//  4. send Requests requests over Connections connections (every one must
//     succeed), then `callgrind_control -d` again: this second dump holds
//     exactly the measured window;
//  5. stop it and divide the window's instructions by the requests.
//
// callgrind_control's exit status does not say whether the dump happened,
// so each dump is awaited as a complete file, and callgrind.Window checks
// from the dumps' basic-block ranges that the second follows the first.
// Zeroing by a dump rather than with `callgrind_control -z` (which works as
// well) keeps that check possible: after -z the next dump's range still
// starts at 0. JIT runtimes (Node.js, .NET) are not counted: see jitReason.
package instructions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/callgrind"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
)

// Defaults of an instructions run.
const (
	DefaultInstructionRequests    = 20000
	DefaultInstructionConnections = 8
	DefaultInstructionWarmup      = 500
	// Quick instructions runs, for smoke tests.
	quickInstructionRequests = 2000
	quickInstructionWarmup   = 200
	// instructionTimeout is bombardier's per-request timeout under
	// valgrind, which slows an app down some fifty times.
	instructionTimeout = 30 * time.Second
	// dumpTimeout bounds the wait for a dump file.
	dumpTimeout = 60 * time.Second
)

// goDebugEnv keeps Go's asynchronous preemption off: callgrind aborts on
// the signals it sends.
const goDebugEnv = "GODEBUG=asyncpreemptoff=1"

// counted says what an instruction count includes, as the report states it.
const counted = "user-space instructions (callgrind's Ir) of the app's process: its code, the framework, " +
	"the Go runtime and garbage collector, net/http. Not counted: the kernel (network stack, system calls), " +
	"bombardier, and for sessions-redis the redis-server, which runs natively next to the app " +
	"(the app's Redis client is counted)"

// lookValgrind finds valgrind and callgrind_control; tests replace it to
// play a machine without them.
var lookValgrind = func() (valgrind, control string, err error) {
	if valgrind, err = exec.LookPath("valgrind"); err != nil {
		return "", "", errors.New("valgrind not found (Debian: apt-get install -y valgrind)")
	}
	if control, err = exec.LookPath("callgrind_control"); err != nil {
		return "", "", errors.New("callgrind_control not found (it comes with valgrind; Debian: apt-get install -y valgrind)")
	}
	return valgrind, control, nil
}

// defaults fills the load of an instructions run.
func defaults(c *runner.Config) {
	if c.Requests == 0 {
		c.Requests = DefaultInstructionRequests
		if c.Quick {
			c.Requests = quickInstructionRequests
		}
	}
	if c.Connections == 0 {
		c.Connections = DefaultInstructionConnections
	}
	if c.WarmupRequests == 0 {
		c.WarmupRequests = DefaultInstructionWarmup
		if c.Quick {
			c.WarmupRequests = quickInstructionWarmup
		}
	}
	if c.Timeout == 0 {
		c.Timeout = instructionTimeout
	}
}

// validate rejects the settings that make no sense for instruction
// counts.
func validate(c *runner.Config) error {
	switch {
	case c.Duration > 0:
		return errors.New("runner: instructions are counted over a number of requests (-n), not a duration (-d)")
	case c.Profile == runner.ProfileConstrained:
		return errors.New("runner: the constrained profile limits time and memory, which instruction counts do not depend on")
	case c.Requests < 0 || c.WarmupRequests < 0:
		return errors.New("runner: -n and -warmup-requests must not be negative")
	}
	return nil
}

// Run counts the instructions per request of every Go app of cfg's
// comparisons and writes an instructions report into cfg.OutDir. Without
// valgrind every app is reported as not measured, with the reason. The
// returned error wraps runner.ErrFailed when the report was written but
// some app failed.
func Run(ctx context.Context, cfg runner.Config) (*report.Results, report.Files, error) {
	var files report.Files
	if err := validate(&cfg); err != nil {
		return nil, files, err
	}
	defaults(&cfg)
	s, err := runner.NewSession(&cfg)
	if err != nil {
		return nil, files, err
	}
	defer s.StopAll()

	// Under valgrind an app answers some fifty times slower, the verify
	// requests (TLS handshakes included) too.
	s.Client.Timeout = cfg.Timeout + 30*time.Second
	res, err := s.Begin(ctx)
	if err != nil {
		return nil, files, err
	}
	res.Settings.Measure = report.MeasureInstructions
	res.Settings.Mode, res.Settings.Repeats = runner.ModeSequential, 1
	res.Settings.Warmup = fmt.Sprintf("%d requests", cfg.WarmupRequests)

	valgrind, control, vgErr := lookValgrind()
	vgArgs := []string{valgrind, "--tool=callgrind"}
	res.Settings.Instructions = &report.InstructionSettings{
		Command: strings.Join(append(append(append([]string(nil), s.Pin.Server...), "valgrind", "--tool=callgrind"),
			"--callgrind-out-file=callgrind/<comparison>-<app>.%p"), " "),
		Env: goDebugEnv, Requests: cfg.Requests, Connections: cfg.Connections, WarmupRequests: cfg.WarmupRequests,
		Counted: counted,
	}
	for name, a := range s.Apps {
		switch {
		case a.Stack != nil && a.Stack.NotCounted() != "":
			s.Skipped[name] = a.Stack.NotCounted()
		case vgErr != nil && s.Skipped[name] == "":
			s.Skipped[name] = vgErr.Error()
		}
	}
	if vgErr != nil {
		s.Logf("WARNING: %v: no app can be counted", vgErr)
	} else {
		res.Versions.Valgrind = strings.TrimPrefix(stack.ToolVersion(ctx, valgrind, "--version"), "valgrind-")
	}

	dumpDir := filepath.Join(cfg.OutDir, "callgrind")
	if err := os.MkdirAll(dumpDir, 0o755); err != nil {
		return nil, files, err
	}
	if err := s.BuildAll(ctx, res); err != nil {
		return nil, files, err
	}

	cg := &counter{s: s, valgrind: vgArgs, control: control, dir: dumpDir, outDir: cfg.OutDir}
	for i := range s.Plan {
		p := &s.Plan[i]
		c := s.NewComparison(p)
		s.Logf("==== %s: %s %s, instructions over %s -c %d -n %d after %d warm-up requests", p.Key(), p.Ep.Method, p.Ep.Path,
			s.Generator(p).Name(), p.Connections, p.Requests, cfg.WarmupRequests)
		ports, err := s.Ports(len(p.Apps))
		if err != nil {
			return nil, files, err
		}
		for j := range c.Apps {
			row := &c.Apps[j]
			if row.Skipped != "" || row.Failed != "" {
				continue
			}
			if err := cg.count(ctx, p, row, ports[j]); err != nil {
				return nil, files, err
			}
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return s.Finish(res, func(res *report.Results) { printInstructions(s, res) })
}

// counter counts the instructions of one app after the other.
type counter struct {
	s        *runner.Session
	valgrind []string // valgrind and --tool=callgrind
	control  string   // callgrind_control
	dir      string   // the dump files
	outDir   string   // the report directory, which DumpFile is relative to
}

// count measures row's app for comparison p on port and sets
// row.Instructions, or excludes the app with the reason. The error is only
// for cancellation and for what ends the whole run.
func (cg *counter) count(ctx context.Context, p *runner.Planned, row *report.App, port int) error {
	s := cg.s
	lv := &runner.Live{App: s.Apps[row.Name], Row: row}
	if err := runner.PortFree(port); err != nil {
		s.Exclude(lv, fmt.Sprintf("port %d is in use", port), err.Error())
		return nil
	}
	env := append(append(append([]string(nil), lv.App.Env...), s.AppEnv(p)...), goDebugEnv)
	senv, err := s.StartServices(ctx, p, lv)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.Exclude(lv, "a service did not start", err.Error())
		return nil
	}
	env = append(env, senv...)
	base := filepath.Join(cg.dir, p.Key()+"-"+lv.App.Name)
	argv := append(append([]string(nil), s.Pin.Server...), cg.valgrind...)
	argv = append(append(argv, "--callgrind-out-file="+base+".%p"), lv.App.Argv...)
	logFile, err := os.Create(filepath.Join(s.LogDir, p.Key()+"-"+lv.App.Name+".log"))
	if err != nil {
		return err
	}
	s.Logf("start  %-24s under callgrind on :%d", lv.App.Name, port)
	// Start closes the log once the process has exited.
	pr, err := s.Group.Start(ctx, proc.Spec{Name: lv.App.Name, Argv: argv, Env: env, Dir: lv.App.Dir, Port: port, TLS: p.Ep.TLS, Log: logFile}, s.Cfg.StartTimeout)
	if err != nil {
		logFile.Close()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.Exclude(lv, "did not start under callgrind", err.Error())
		return nil
	}
	lv.Proc = pr
	pid := pr.Pid()
	defer cg.cleanUp(base, pid)

	headers, err := s.Verify(pr.URL(), p)
	if err != nil {
		s.Exclude(lv, "verify: response differs from expected/"+p.Ep.BodyFile, err.Error())
		return nil
	}
	lv.Headers = headers
	s.Logf("verify %-24s ok", lv.App.Name)

	if _, err := cg.load(ctx, p, lv, s.Cfg.WarmupRequests); err != nil {
		return cg.failed(ctx, lv, "warm-up failed", err)
	}
	first, err := cg.dump(ctx, lv, base, 1)
	if err != nil {
		return cg.failed(ctx, lv, "callgrind dump after the warm-up failed", err)
	}
	rep, err := cg.load(ctx, p, lv, p.Requests)
	if err != nil {
		return cg.failed(ctx, lv, "measured requests failed", err)
	}
	second, err := cg.dump(ctx, lv, base, 2)
	if err != nil {
		return cg.failed(ctx, lv, "callgrind dump after the measured requests failed", err)
	}
	s.Group.Remove(pr)
	lv.Proc = nil
	s.StopServicesOf(lv)

	total, err := callgrind.Window(first, second)
	if err != nil {
		return cg.failed(ctx, lv, "reading the callgrind dumps", err)
	}
	requests := rep.Figures().Requests
	per, err := callgrind.PerRequest(total, requests)
	if err != nil {
		return cg.failed(ctx, lv, "no requests in the window", err)
	}
	startup, _ := first.Instructions()
	in := &report.Instructions{Requests: requests, Total: total, PerRequest: per, StartupAndWarmup: startup}
	// Keep the window's dump for callgrind_annotate.
	kept := base + ".callgrind.out"
	if err := os.Rename(callgrind.DumpPath(base, pid, 2), kept); err == nil {
		if rel, err := filepath.Rel(cg.outDir, kept); err == nil {
			in.DumpFile = rel
		}
	}
	row.Instructions = in
	s.Logf("count  %-24s %8.0f instructions/request (%s over %d requests; start-up + warm-up %s)",
		lv.App.Name, per, countString(total), requests, countString(startup))
	return nil
}

// failed excludes lv for reason unless the run was cancelled.
func (cg *counter) failed(ctx context.Context, lv *runner.Live, reason string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	detail := err.Error()
	if lv.Proc != nil {
		detail += "\n" + lv.Proc.Output()
	}
	cg.s.Exclude(lv, reason, detail)
	return nil
}

// load sends n requests to lv with p's generator and returns its result;
// any request that did not succeed is an error, since a failed request
// costs a different number of instructions than a served one.
func (cg *counter) load(ctx context.Context, p *runner.Planned, lv *runner.Live, n int64) (report.Load, error) {
	if n <= 0 {
		return report.Load{}, nil
	}
	t := load.Target{URL: lv.Proc.URL() + p.Ep.Path, Headers: lv.Headers, Protocol: p.Protocol, Method: p.Ep.Method, Body: p.Ep.RequestBody}
	res, err := cg.s.Generator(p).Run(ctx, t, load.Options{Connections: p.Connections, Streams: p.Streams, Requests: n, Timeout: cg.s.Cfg.Timeout})
	if err != nil {
		return res, err
	}
	if exited, werr := lv.Proc.Exited(); exited {
		return res, fmt.Errorf("%s exited (%v)", lv.App.Name, werr)
	}
	if f := res.Figures(); f.OK != n || f.NonSuccess != 0 || f.Errors != 0 {
		return res, fmt.Errorf("%d of %d requests answered 2xx, %d non-2xx, %d errors", f.OK, n, f.NonSuccess, f.Errors)
	}
	return res, nil
}

// dump asks callgrind to dump lv's counters (which also zeroes them) and
// returns the n-th dump file once it is complete.
func (cg *counter) dump(ctx context.Context, lv *runner.Live, base string, n int) (*callgrind.File, error) {
	pid := lv.Proc.Pid()
	return callgrind.Dump(ctx, cg.control, pid, callgrind.DumpPath(base, pid, n), dumpTimeout, lv.Proc.Exited, proc.SetGroup)
}

// cleanUp removes the dumps of process pid that are not kept: the start-up
// and warm-up dump, the one written when the process ended, and any left by
// a failure.
func (cg *counter) cleanUp(base string, pid int) {
	files, _ := filepath.Glob(fmt.Sprintf("%s.%d.*", base, pid))
	for _, f := range append(files, fmt.Sprintf("%s.%d", base, pid)) {
		os.Remove(f)
	}
}

// printInstructions prints each comparison's counts and ratios, the gist of
// RESULTS.md, at the end of the progress output.
func printInstructions(s *runner.Session, res *report.Results) {
	for _, c := range res.Comparisons {
		s.Logf("---- %s (baseline %s), instructions per request", c.Key(), c.Baseline)
		for _, a := range c.Apps {
			switch {
			case a.Skipped != "":
				s.Logf("     %-24s not measured: %s", a.Name, a.Skipped)
			case a.Failed != "":
				s.Logf("     %-24s FAILED: %s", a.Name, a.Failed)
			case a.InstructionsMeasured():
				ratio := "no baseline count"
				if a.Name == c.Baseline {
					ratio = "baseline"
				} else if r := a.Instructions.RatioToBaseline; r != nil {
					ratio = fmt.Sprintf("row ÷ %s %.3f", c.Baseline, *r)
				}
				s.Logf("     %-24s %8.0f  %s", a.Name, a.Instructions.PerRequest, ratio)
			}
		}
	}
}

// countString formats an instruction count in millions.
func countString(n int64) string {
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}
