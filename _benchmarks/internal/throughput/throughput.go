// Package throughput measures requests per second, latency, CPU time and
// peak memory (the default `bench` command, in the default and the
// constrained profile): per comparison it starts the apps (pinned, possibly
// constrained), verifies them, warms them up and measures them with the
// comparison's load generator, interleaved (all started, paused with
// SIGSTOP, one resumed at a time, the order rotating per round) or
// sequentially (one app at a time). An app that fails to start, verify or
// survive its load is excluded with the reason and its server stopped.
package throughput

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/constrained"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
)

// meter measures the comparisons of one throughput run.
type meter struct {
	*runner.Session
}

// runComparison runs one comparison and returns its report section.
func (s *meter) runComparison(ctx context.Context, p *runner.Planned) (report.Comparison, error) {
	c := s.NewComparison(p)
	s.Logf("==== %s: %s %s, %s, %d run(s) per app, %s mode", p.Key(), p.Ep.Method, p.Ep.Path,
		loadString(p), s.Cfg.Repeats, s.Cfg.Mode)

	var lives []*runner.Live
	for i := range c.Apps {
		row := &c.Apps[i]
		if row.Skipped == "" && row.Failed == "" {
			lives = append(lives, &runner.Live{App: s.Apps[row.Name], Row: row})
		}
	}
	ports, err := s.Ports(len(p.Apps))
	if err != nil {
		return c, err
	}
	portOf := map[string]int{}
	for i, name := range p.Apps {
		portOf[name] = ports[i]
	}

	var err2 error
	if s.Cfg.Mode == runner.ModeSequential {
		err2 = s.runSequential(ctx, p, lives, portOf)
	} else {
		err2 = s.runInterleaved(ctx, p, lives, portOf)
	}
	for _, lv := range lives {
		if lv.Proc != nil {
			s.Group.Remove(lv.Proc)
		}
		s.StopServicesOf(lv)
	}
	return c, err2
}

// loadString is the generator's command of p, as the progress lines say it.
func loadString(p *runner.Planned) string {
	n := fmt.Sprintf("-n %d", p.Requests)
	if p.Duration > 0 {
		n = "-d " + p.Duration.String()
	}
	if p.Generator == load.BombardierName {
		return fmt.Sprintf("bombardier -c %d %s", p.Connections, n)
	}
	return fmt.Sprintf("%s -c %d -m %d %s (%s)", p.Generator, p.Connections, max(p.Streams, 1), n, p.Protocol)
}

// maxStartAttempts bounds the starts of an app on a free port that another
// process took before the app bound it.
const maxStartAttempts = 3

// start starts lv's server on port (pinned, and limited under the
// constrained profile) with its services, verifies it and warms it up. On
// failure lv is excluded and false returned; err is only for cancellation.
func (s *meter) start(ctx context.Context, p *runner.Planned, lv *runner.Live, port int) (bool, error) {
	if err := runner.PortFree(port); err != nil {
		s.Exclude(lv, fmt.Sprintf("port %d is in use", port), err.Error())
		return false, nil
	}
	argv := append(append([]string(nil), s.Pin.Server...), lv.App.Argv...)
	env := append(append([]string(nil), lv.App.Env...), s.AppEnv(p)...)
	senv, err := s.StartServices(ctx, p, lv)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		s.Exclude(lv, "a service did not start", err.Error())
		return false, nil
	}
	env = append(env, senv...)
	var cg *constrained.Group
	if s.Limiter != nil {
		argv, cg, err = s.Limiter.Wrap(lv.App.Name, argv)
		if err != nil {
			s.Exclude(lv, "constrained profile: "+err.Error(), "")
			return false, nil
		}
		env = append(env, cg.Env()...)
	}
	var pr *proc.Proc
	for attempt := 1; ; attempt++ {
		logFile, ferr := os.Create(filepath.Join(s.LogDir, p.Key()+"-"+lv.App.Name+".log"))
		if ferr != nil {
			return false, ferr
		}
		// Start closes the log once the process has exited or failed.
		s.Logf("start  %-24s on :%d", lv.App.Name, port)
		pr, err = s.Group.Start(ctx, proc.Spec{Name: lv.App.Name, Argv: argv, Env: env, Dir: lv.App.Dir, Port: port, TLS: p.Ep.TLS, Log: logFile}, s.Cfg.StartTimeout)
		if err == nil || s.Cfg.BasePort > 0 || attempt == maxStartAttempts || !benchtest.AddressInUse(err.Error()) || ctx.Err() != nil {
			break
		}
		// Another process took the free port first: try a new one.
		s.Logf("retry  %-24s port %d was taken: %s", lv.App.Name, port, runner.FirstLine(err.Error()))
		var perr error
		if port, perr = benchtest.FreePort(); perr != nil {
			return false, perr
		}
	}
	if err != nil {
		if cg != nil {
			cg.Remove()
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		s.Exclude(lv, "did not start", err.Error())
		return false, nil
	}
	if s.Limiter != nil && s.Limiter.Method() == "systemd-run" {
		cg = constrained.ScopeGroup(pr.Pid())
	}
	if cg != nil {
		pr.Limit = cg
	}
	lv.Proc = pr
	lv.Mem = proc.NewMemSampler(pr.Pid())

	headers, err := s.Verify(pr.URL(), p)
	if err != nil {
		s.Exclude(lv, "verify: response differs from expected/"+p.Ep.BodyFile, err.Error())
		return false, nil
	}
	lv.Headers = headers
	s.Logf("verify %-24s ok", lv.App.Name)
	// The line follows the readiness lines at once; the verify round trip
	// gave it time to arrive.
	if info := pr.RuntimeInfo(); info != nil {
		lv.Row.Runtime = info
		s.Logf("info   %-24s %s", lv.App.Name, report.RuntimeString(info))
	}
	if err := s.warm(ctx, p, lv, s.Cfg.Warmup); err != nil {
		return false, err
	}
	return lv.Proc != nil, nil
}

// target is what p's load of lv requests.
func target(p *runner.Planned, lv *runner.Live) load.Target {
	return load.Target{URL: lv.Proc.URL() + p.Ep.Path, Headers: lv.Headers, Protocol: p.Protocol, Method: p.Ep.Method, Body: p.Ep.RequestBody}
}

// warm loads lv for d with p's generator without recording the figures; a
// server that dies under it is excluded.
func (s *meter) warm(ctx context.Context, p *runner.Planned, lv *runner.Live, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	o := load.Options{Connections: p.Connections, Streams: p.Streams, Duration: d, Timeout: s.Cfg.Timeout}
	lv.Mem.Start(proc.SampleInterval)
	_, err := s.Generator(p).Run(ctx, target(p, lv), o)
	lv.Mem.Stop()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if exited, werr := lv.Proc.Exited(); exited {
		s.Exclude(lv, "exited during warm-up", fmt.Sprintf("%v\n%s", werr, lv.Proc.Output()))
		return nil
	}
	if err != nil {
		// The warm-up's figures are not used: a generator that failed
		// after loading the app (h2load 1.52 can abort or hang after a
		// timed run against node:http2) has done its job as long as the
		// app still answers as the contract says.
		if _, verr := s.Verify(lv.Proc.URL(), p); verr != nil {
			s.Exclude(lv, "warm-up failed", fmt.Sprintf("%v\nand then: %v", err, verr))
			return nil
		}
		s.Logf("warm   %-24s the generator failed but the app answers as expected; going on: %s", lv.App.Name, runner.FirstLine(err.Error()))
	}
	return nil
}

// measure performs one measured run of lv and appends it to its row, with
// the server's CPU seconds during the run and its peak memory so far.
func (s *meter) measure(ctx context.Context, p *runner.Planned, lv *runner.Live, round, step, steps int) error {
	o := load.Options{Connections: p.Connections, Streams: p.Streams, Requests: p.Requests, Duration: p.Duration, Timeout: s.Cfg.Timeout}
	run := report.Run{Round: round, StartedAt: time.Now().UTC()}
	cpuBefore := proc.GroupCPUSeconds(lv.Proc.Pid())
	lv.Mem.Start(proc.SampleInterval)
	res, err := s.Generator(p).Run(ctx, target(p, lv), o)
	lv.Mem.Stop()
	if err == nil {
		if exited, werr := lv.Proc.Exited(); exited {
			err = fmt.Errorf("%s exited during the run (%v)\n%s", lv.Proc.Name, werr, lv.Proc.Output())
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.Exclude(lv, fmt.Sprintf("run %d failed", round), err.Error())
		return nil
	}
	run.Load = res
	run.ServerCPUSeconds = proc.GroupCPUSeconds(lv.Proc.Pid()) - cpuBefore
	run.ServerPeakRSSBytes = lv.Mem.Peak()
	if lv.Proc.Limit != nil {
		run.CgroupMemoryPeakBytes = lv.Proc.Limit.MemoryPeak()
	}
	f := run.Figures()
	if f.OK == 0 {
		// Figures of a server that answered nothing successfully would
		// rank an error page; they are not a measurement of the app.
		s.Exclude(lv, fmt.Sprintf("run %d: no 2xx response", round), fmt.Sprintf("%d non-2xx, %d errors\n%s",
			f.NonSuccess, f.Errors, lv.Proc.Output()))
		return nil
	}
	lv.Row.Runs = append(lv.Row.Runs, run)
	p99, _ := f.Percentile(99)
	extra := ""
	if f.NonSuccess > 0 || f.Errors > 0 {
		extra = fmt.Sprintf(", %d non-2xx, %d errors", f.NonSuccess, f.Errors)
	}
	s.Logf("[%d/%d] %s round %d %-22s %10.0f req/s  latency %.0fµs  p99 %.0fµs  cpu %.1fs  rss %d MiB%s",
		step, steps, p.Key(), round, lv.App.Name, f.RequestsPerSec, f.LatencyMeanMicros, p99, run.ServerCPUSeconds, run.ServerPeakRSSBytes>>20, extra)
	return nil
}

// runInterleaved starts all apps, pauses them, and in each round resumes,
// re-warms, measures and pauses one app after the other. The order rotates
// by one app per round so that no app is always measured first or last.
func (s *meter) runInterleaved(ctx context.Context, p *runner.Planned, lives []*runner.Live, portOf map[string]int) error {
	var running []*runner.Live
	for _, lv := range lives {
		ok, err := s.start(ctx, p, lv, portOf[lv.App.Name])
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := lv.Proc.Pause(); err != nil {
			s.Exclude(lv, "cannot pause", err.Error())
			continue
		}
		running = append(running, lv)
	}
	steps, step := s.Cfg.Repeats*len(running), 0
	for round := 1; round <= s.Cfg.Repeats; round++ {
		for i := range running {
			lv := running[(i+round-1)%len(running)]
			if lv.Proc == nil {
				continue
			}
			step++
			if err := lv.Proc.Resume(); err != nil {
				s.Exclude(lv, "cannot resume", err.Error())
				continue
			}
			// The other apps ran since this one was warmed: a short load
			// brings its connections and caches back before measuring.
			if err := s.warm(ctx, p, lv, s.Cfg.Rewarm); err != nil {
				return err
			}
			if lv.Proc == nil {
				continue
			}
			if err := s.measure(ctx, p, lv, round, step, steps); err != nil {
				return err
			}
			if lv.Proc != nil {
				if err := lv.Proc.Pause(); err != nil {
					s.Exclude(lv, "cannot pause", err.Error())
				}
			}
		}
	}
	return nil
}

// runSequential starts, measures and stops one app after the other.
func (s *meter) runSequential(ctx context.Context, p *runner.Planned, lives []*runner.Live, portOf map[string]int) error {
	steps, step := s.Cfg.Repeats*len(lives), 0
	for _, lv := range lives {
		ok, err := s.start(ctx, p, lv, portOf[lv.App.Name])
		if err != nil {
			return err
		}
		for round := 1; ok && round <= s.Cfg.Repeats && lv.Proc != nil; round++ {
			step++
			if err := s.measure(ctx, p, lv, round, step, steps); err != nil {
				return err
			}
		}
		if lv.Proc != nil {
			s.Group.Remove(lv.Proc)
			lv.Proc = nil
		}
		s.StopServicesOf(lv)
	}
	return nil
}

// Run builds, verifies and measures what cfg asks for and writes the report
// into cfg.OutDir. The returned error wraps runner.ErrFailed when the report was
// written but some app failed; the results are returned whenever they could
// be written.
func Run(ctx context.Context, cfg runner.Config) (*report.Results, report.Files, error) {
	var files report.Files
	rs, err := runner.NewSession(&cfg)
	if err != nil {
		return nil, files, err
	}
	s := &meter{rs}
	defer s.StopAll()

	res, err := s.Begin(ctx)
	if err != nil {
		return nil, files, err
	}
	if err := s.BuildAll(ctx, res); err != nil {
		return nil, files, err
	}
	for i := range s.Plan {
		c, err := s.runComparison(ctx, &s.Plan[i])
		if err != nil {
			return nil, files, err
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return s.Finish(res, s.printSummary)
}

// printSummary prints each comparison's medians and ratios, the gist of
// RESULTS.md, at the end of the progress output.
func (s *meter) printSummary(res *report.Results) {
	if res.Settings.Quick {
		s.Logf("%s", report.QuickBanner)
	}
	for _, c := range res.Comparisons {
		s.Logf("---- %s (baseline %s)", c.Key(), c.Baseline)
		for _, a := range c.Apps {
			switch {
			case a.Skipped != "":
				s.Logf("     %-24s skipped: %s", a.Name, a.Skipped)
			case a.Failed != "":
				s.Logf("     %-24s FAILED: %s", a.Name, a.Failed)
			case a.Summary != nil:
				ratio := "baseline"
				if r := a.Summary.RatioToBaseline; a.Name != c.Baseline && r != nil {
					ratio = fmt.Sprintf("row ÷ %s %.2f (%.2f-%.2f)", c.Baseline, r.Median, r.Min, r.Max)
				} else if a.Name != c.Baseline {
					ratio = "no baseline figures"
				}
				s.Logf("     %-24s %10.0f req/s  p99 %6.1fms  %s", a.Name, a.Summary.RequestsPerSec.Median, a.Summary.LatencyP99Micros/1000, ratio)
			}
		}
	}
}
