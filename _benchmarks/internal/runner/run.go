// The run itself: build everything first (so compilers never compete with a
// measurement), then per comparison start the apps, verify them, warm them
// up and measure them, interleaved or sequentially, and finally write the
// report. Every server is stopped on return, whatever the outcome.
package runner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// ErrFailed is returned (wrapped) when the run completed but some app failed
// to build, verify or survive its load; the report lists the failures.
var ErrFailed = errors.New("runner: run failed")

// session is the state of one run.
type session struct {
	cfg      *Config
	contract *benchtest.Contract
	group    *Group
	pin      pinning
	lim      *limiter
	load     *loader
	apps     map[string]*app // every app of the plan, built or not
	skipped  map[string]string
	failed   map[string]string
	loc      map[string]int
	files    map[string][]string
	failures []string
	logDir   string
	client   *http.Client

	// The redis-servers of the sessions-redis apps (see redis.go).
	redis        []*benchtest.Redis
	redisVersion string
}

func (s *session) logf(format string, args ...any) {
	fmt.Fprintf(s.cfg.Log, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func (s *session) fail(app, reason string) {
	s.failures = append(s.failures, app+": "+reason)
}

// newSession loads the contract and the plan and resolves the apps.
func newSession(cfg *Config) (*session, []planned, error) {
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	contract, err := benchtest.LoadContract(cfg.Root)
	if err != nil {
		return nil, nil, err
	}
	plan, err := makePlan(cfg, contract)
	if err != nil {
		return nil, nil, err
	}
	s := &session{
		cfg: cfg, contract: contract, group: &Group{},
		apps: map[string]*app{}, skipped: map[string]string{}, failed: map[string]string{},
		loc: map[string]int{}, files: map[string][]string{},
		client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}},
	}
	for _, p := range plan {
		for _, name := range p.apps {
			if s.apps[name] != nil {
				continue
			}
			dir := filepath.Join(cfg.Root, "apps", name)
			stack := contract.Stack(name)
			if stack == "" {
				stack = stackOf(dir)
			}
			a := &app{name: name, stack: stack, dir: dir}
			s.apps[name] = a
			if why := a.skipReason(); why != "" {
				s.skipped[name] = why
			} else if why := redisSkipReason(p.ep); why != "" {
				s.skipped[name] = why
			}
		}
	}
	return s, plan, nil
}

// buildApps builds every app that is not skipped, in plan order.
func (s *session) buildApps(ctx context.Context, plan []planned) error {
	done := map[string]bool{}
	for _, p := range plan {
		for _, name := range p.apps {
			a := s.apps[name]
			if done[name] {
				continue
			}
			done[name] = true
			if n, files, err := LinesOfCode(a.dir); err == nil && len(files) > 0 {
				s.loc[name], s.files[name] = n, files
			}
			if why := s.skipped[name]; why != "" {
				s.logf("skip   %-24s skipped: %s", name, why)
				continue
			}
			s.logf("build  %-24s (%s)", name, a.stack)
			if err := a.build(ctx, s.cfg.Root, s.cfg); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				reason := "build failed: " + firstLine(err.Error())
				s.failed[name] = reason
				s.fail(name, err.Error())
				s.logf("FAILED %-24s %s\n%s", name, reason, err)
				continue
			}
			s.logf("built  %-24s in %.1fs", name, a.buildSeconds)
		}
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Run builds, verifies and measures what cfg asks for and writes the report
// into cfg.OutDir. The returned error wraps ErrFailed when the report was
// written but some app failed; the results are returned whenever they could
// be written.
func Run(ctx context.Context, cfg Config) (*report.Results, report.Files, error) {
	var files report.Files
	s, plan, err := newSession(&cfg)
	if err != nil {
		return nil, files, err
	}
	defer s.stopRedis() // after the apps, which StopAll stops first
	defer s.group.StopAll()

	res := &report.Results{StartedAt: time.Now().UTC(), Command: cfg.Command, Machine: machineInfo(), Versions: versions(ctx)}
	s.pin = newPinning(cfg.ServerCPUs, cfg.LoadCPUs)
	res.Settings = s.settings()
	if cfg.Profile == ProfileConstrained {
		s.lim = newLimiter(cfg.CPUQuotaPercent, cfg.MemoryMax)
		res.Settings.Constraint = s.lim.Limit()
		if s.lim.method == "none" {
			s.logf("WARNING: the constrained profile cannot be applied: %s; measuring unconstrained and marking the results so", s.lim.note)
		} else {
			s.logf("constrained profile: %d%% of a CPU, %d MiB via %s", cfg.CPUQuotaPercent, cfg.MemoryMax>>20, s.lim.method)
		}
	}
	if !s.pin.pinned() {
		s.logf("WARNING: not pinning CPUs: %s", s.pin.note)
	}
	s.logDir = filepath.Join(cfg.OutDir, "logs")
	if err := os.MkdirAll(s.logDir, 0o755); err != nil {
		return nil, files, err
	}

	s.logf("build  bombardier (%s, pinned by go.sum)", bombardierPackage)
	bin, version, err := buildBombardier(ctx, cfg.Root)
	if err != nil {
		return nil, files, err
	}
	res.Versions.Bombardier = version
	s.load = &loader{bin: bin, prefix: s.pin.load}

	if err := s.buildApps(ctx, plan); err != nil {
		return nil, files, err
	}
	for _, a := range s.apps {
		if v := a.deps["express"]; v != "" && res.Versions.Express == "" {
			res.Versions.Express = v
		}
	}

	// After the builds, which should use every CPU.
	if err := s.pin.pinSelf(ctx, cfg.LoadCPUs); err != nil {
		s.logf("WARNING: %v", err)
	}
	for i := range plan {
		c, err := s.runComparison(ctx, &plan[i])
		if err != nil {
			return nil, files, err
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return s.finish(res, s.printSummary)
}

// finish writes the report of a run (throughput or instructions), prints
// its summary and turns the failures recorded along the way into the error.
func (s *session) finish(res *report.Results, printSummary func(*report.Results)) (*report.Results, report.Files, error) {
	res.FinishedAt = time.Now().UTC()
	res.Failures = s.failures
	files, err := report.WriteDir(s.cfg.OutDir, res)
	if err != nil {
		return res, files, err
	}
	printSummary(res)
	s.logf("report %s", files.Markdown)
	if len(s.failures) > 0 {
		return res, files, fmt.Errorf("%w: %d failure(s):\n  %s", ErrFailed, len(s.failures), strings.Join(s.failures, "\n  "))
	}
	return res, files, nil
}

// printSummary prints each comparison's medians and ratios, the gist of
// RESULTS.md, at the end of the progress output.
func (s *session) printSummary(res *report.Results) {
	for _, c := range res.Comparisons {
		s.logf("---- %s (baseline %s)", c.Key(), c.Baseline)
		for _, a := range c.Apps {
			switch {
			case a.Skipped != "":
				s.logf("     %-24s skipped: %s", a.Name, a.Skipped)
			case a.Failed != "":
				s.logf("     %-24s FAILED: %s", a.Name, a.Failed)
			case a.Summary != nil:
				ratio := "baseline"
				if r := a.Summary.BaselineRatioToThisApp; a.Name != c.Baseline && r != nil {
					ratio = fmt.Sprintf("%s ÷ row %.2f (%.2f-%.2f)", c.Baseline, r.Median, r.Min, r.Max)
				} else if a.Name != c.Baseline {
					ratio = "no baseline figures"
				}
				s.logf("     %-24s %10.0f req/s  p99 %6.1fms  %s", a.Name, a.Summary.RequestsPerSec.Median, a.Summary.LatencyP99Micros/1000, ratio)
			}
		}
	}
}

func (s *session) settings() report.Settings {
	c := s.cfg
	st := report.Settings{
		Mode: c.Mode, Quick: c.Quick, Repeats: c.Repeats, Connections: c.Connections, Requests: c.Requests,
		Warmup: c.Warmup.String(), Timeout: c.Timeout.String(),
		ServerCPUs: c.ServerCPUs, LoadCPUs: c.LoadCPUs, Pinned: s.pin.pinned(), PinNote: s.pin.note,
		GOMAXPROCS: c.GOMAXPROCS, NodeWorkers: c.NodeWorkers, Baseline: strings.Join(c.Baselines, ","),
		Apps: c.Apps, Profile: c.Profile, BasePort: c.BasePort, CookieMethod: CookieMethod,
		DotnetProperties: c.DotnetProperties,
	}
	if c.Duration > 0 {
		st.Duration = c.Duration.String()
	}
	if c.Mode == ModeInterleaved {
		st.Warmup += " after start, " + c.Rewarm.String() + " after each resume, before its run"
	}
	return st
}
