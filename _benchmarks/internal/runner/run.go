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
	"runtime"
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
	plan     []planned
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
		cfg: cfg, contract: contract, group: &Group{}, plan: plan,
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

	res, err := s.begin(ctx)
	if err != nil {
		return nil, files, err
	}
	if err := s.buildAll(ctx, plan, res); err != nil {
		return nil, files, err
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

// begin is the first half of the setup every kind of run shares (Run,
// Instructions): it starts the report with the machine, the versions and
// the settings, sets up the CPU pinning (and the limits of the constrained
// profile), creates the log directory and builds bombardier.
func (s *session) begin(ctx context.Context) (*report.Results, error) {
	cfg := s.cfg
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
		res.Settings.GOMAXPROCS = s.gomaxprocs()
	}
	if !s.pin.pinned() {
		s.logf("WARNING: not pinning CPUs: %s", s.pin.note)
	}
	s.logDir = filepath.Join(cfg.OutDir, "logs")
	if err := os.MkdirAll(s.logDir, 0o755); err != nil {
		return nil, err
	}
	s.logf("build  bombardier (%s, pinned by go.sum)", bombardierPackage)
	bin, version, err := buildBombardier(ctx, cfg.Root)
	if err != nil {
		return nil, err
	}
	res.Versions.Bombardier = version
	s.load = &loader{bin: bin, prefix: s.pin.load}
	return res, nil
}

// buildAll is the second half of the shared setup: it builds every app of
// the plan that is not skipped, records the Express version, and then moves
// the runner onto the load CPUs (after the builds, which should use every
// CPU).
func (s *session) buildAll(ctx context.Context, plan []planned, res *report.Results) error {
	if err := s.buildApps(ctx, plan); err != nil {
		return err
	}
	for _, a := range s.apps {
		if v := a.deps["express"]; v != "" && res.Versions.Express == "" {
			res.Versions.Express = v
		}
	}
	if err := s.pin.pinSelf(ctx, s.cfg.LoadCPUs); err != nil {
		s.logf("WARNING: %v", err)
	}
	return nil
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
	if res.Settings.Quick {
		s.logf("%s", report.QuickBanner)
	}
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
				if r := a.Summary.RatioToBaseline; a.Name != c.Baseline && r != nil {
					ratio = fmt.Sprintf("row ÷ %s %.2f (%.2f-%.2f)", c.Baseline, r.Median, r.Min, r.Max)
				} else if a.Name != c.Baseline {
					ratio = "no baseline figures"
				}
				s.logf("     %-24s %10.0f req/s  p99 %6.1fms  %s", a.Name, a.Summary.RequestsPerSec.Median, a.Summary.LatencyP99Micros/1000, ratio)
			}
		}
	}
}

// gomaxprocs returns the GOMAXPROCS the Go apps run with: -gomaxprocs, or
// Go's default, the number of CPUs in the affinity mask (the server CPUs
// when pinned) lowered, since Go 1.25, to the cgroup CPU limit of the
// constrained profile rounded up, but not below 2.
func (s *session) gomaxprocs() int {
	if s.cfg.GOMAXPROCS > 0 {
		return s.cfg.GOMAXPROCS
	}
	n := runtime.NumCPU()
	if cpus, err := ParseCPUList(s.cfg.ServerCPUs); err == nil && len(cpus) > 0 && s.pin.pinned() {
		n = len(cpus)
	}
	if s.lim != nil && s.lim.method != "none" {
		limit := max(2, (s.cfg.CPUQuotaPercent+99)/100)
		n = min(n, limit)
	}
	return n
}

func (s *session) settings() report.Settings {
	c := s.cfg
	st := report.Settings{
		Mode: c.Mode, Quick: c.Quick, Repeats: c.Repeats, Connections: c.Connections, Requests: c.Requests,
		Warmup: c.Warmup.String(), Timeout: c.Timeout.String(),
		ServerCPUs: c.ServerCPUs, LoadCPUs: c.LoadCPUs, Pinned: s.pin.pinned(), PinNote: s.pin.note,
		GOMAXPROCS: s.gomaxprocs(), GOMAXPROCSSet: c.GOMAXPROCS > 0, NodeWorkers: c.NodeWorkers, Baseline: strings.Join(c.Baselines, ","),
		Apps: c.Apps, Profile: c.Profile, BasePort: c.BasePort, CookieMethod: CookieMethod,
		DotnetProperties: c.DotnetProperties,
	}
	if c.Duration > 0 {
		st.Duration = c.Duration.String()
	}
	// The -c every comparison used, when they share one (they do unless a
	// comparison brings its own); each comparison records its own too.
	if st.Connections == 0 {
		for i, p := range s.plan {
			if i == 0 || p.connections == st.Connections {
				st.Connections = p.connections
			} else {
				st.Connections = 0
				break
			}
		}
	}
	if c.Mode == ModeInterleaved {
		st.Warmup += " after start, " + c.Rewarm.String() + " after each resume, before its run"
	}
	return st
}
