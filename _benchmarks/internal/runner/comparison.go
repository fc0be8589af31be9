// One comparison: start its apps (pinned, possibly constrained), verify
// them, warm them up and measure them, interleaved (all started, paused with
// SIGSTOP, one resumed at a time, the order rotating per round) or
// sequentially (one app at a time). An app that fails to start, verify or
// survive its load is excluded with the reason and its server stopped.
package runner

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// live is an app of the comparison being run.
type live struct {
	app     *app
	row     *report.App
	proc    *Proc
	mem     *memSampler
	headers []string // the Cookie header of the cookie-keeping variant
	redis   *benchtest.Redis
}

// newComparison returns the report section of p with a row per app, each
// skipped or failed app with its reason, no figures yet.
func (s *session) newComparison(p *planned) report.Comparison {
	c := report.Comparison{Name: p.name, Variant: p.variant, Method: p.ep.Method, Path: p.ep.Path,
		Connections: p.connections, Requests: p.requests, Baseline: p.baseline}
	if p.duration > 0 {
		c.Duration = p.duration.String()
	}
	if p.variant == VariantCookieKeeping {
		c.CookieMethod = CookieMethod
	}
	c.Apps = make([]report.App, len(p.apps))
	for i, name := range p.apps {
		a := s.apps[name]
		c.Apps[i] = report.App{Name: name, Stack: a.stack, Skipped: s.skipped[name], Failed: s.failed[name],
			LinesOfCode: s.loc[name], SourceFiles: s.files[name], Dependencies: a.deps, BuildSeconds: a.buildSeconds}
	}
	return c
}

// runComparison runs one comparison and returns its report section.
func (s *session) runComparison(ctx context.Context, p *planned) (report.Comparison, error) {
	c := s.newComparison(p)
	s.logf("==== %s: %s %s, bombardier -c %d %s, %d run(s) per app, %s mode", p.key(), p.ep.Method, p.ep.Path,
		p.connections, loadString(p), s.cfg.Repeats, s.cfg.Mode)

	var lives []*live
	for i := range c.Apps {
		row := &c.Apps[i]
		if row.Skipped == "" && row.Failed == "" {
			lives = append(lives, &live{app: s.apps[row.Name], row: row})
		}
	}
	ports, err := s.ports(len(p.apps))
	if err != nil {
		return c, err
	}
	portOf := map[string]int{}
	for i, name := range p.apps {
		portOf[name] = ports[i]
	}

	var err2 error
	if s.cfg.Mode == ModeSequential {
		err2 = s.runSequential(ctx, p, lives, portOf)
	} else {
		err2 = s.runInterleaved(ctx, p, lives, portOf)
	}
	for _, lv := range lives {
		if lv.proc != nil {
			s.group.Remove(lv.proc)
		}
		s.stopRedisOf(lv)
	}
	return c, err2
}

func loadString(p *planned) string {
	if p.duration > 0 {
		return "-d " + p.duration.String()
	}
	return fmt.Sprintf("-n %d", p.requests)
}

// ports returns n ports for a comparison's apps: consecutive from BasePort,
// or free ones when BasePort is zero. Free ports come from
// benchtest.FreePort, which never hands out a port twice in a process, so
// no two apps or redis-servers of a run get the same one.
func (s *session) ports(n int) ([]int, error) {
	ports := make([]int, n)
	for i := range ports {
		if s.cfg.BasePort > 0 {
			ports[i] = s.cfg.BasePort + i
			continue
		}
		p, err := benchtest.FreePort()
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	return ports, nil
}

// maxStartAttempts bounds the starts of an app on a free port that another
// process took before the app bound it.
const maxStartAttempts = 3

// excluded marks lv failed, records why, and stops its server.
func (s *session) excluded(lv *live, reason, detail string) {
	lv.row.Failed = reason
	lv.row.Runs = nil
	s.fail(lv.row.Name, reason+"\n"+detail)
	s.logf("FAILED %-24s %s\n%s", lv.row.Name, reason, detail)
	if lv.proc != nil {
		s.group.Remove(lv.proc)
		lv.proc = nil
	}
	s.stopRedisOf(lv)
}

// start starts lv's server on port (pinned, and limited under the
// constrained profile), verifies it and warms it up. On failure lv is
// excluded and false returned; err is only for cancellation.
func (s *session) start(ctx context.Context, p *planned, lv *live, port int) (bool, error) {
	if err := portFree(port); err != nil {
		s.excluded(lv, fmt.Sprintf("port %d is in use", port), err.Error())
		return false, nil
	}
	argv := append(append([]string(nil), s.pin.server...), lv.app.argv...)
	env := append([]string(nil), lv.app.env...)
	if p.ep.Redis {
		r, addr, err := s.startRedis(ctx, p.key(), lv.app.name)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			s.excluded(lv, "redis-server did not start", err.Error())
			return false, nil
		}
		lv.redis = r
		lv.row.Dependencies = recordRedisVersion(lv.row.Dependencies, s.redisVersion)
		env = append(env, addr)
	}
	var cg *cgroup
	if s.lim != nil {
		var err error
		argv, cg, err = s.lim.wrap(lv.app.name, argv)
		if err != nil {
			s.excluded(lv, "constrained profile: "+err.Error(), "")
			return false, nil
		}
		env = append(env, cg.env()...)
	}
	var proc *Proc
	var err error
	for attempt := 1; ; attempt++ {
		logFile, ferr := os.Create(filepath.Join(s.logDir, p.key()+"-"+lv.app.name+".log"))
		if ferr != nil {
			return false, ferr
		}
		// Start closes the log once the process has exited or failed.
		s.logf("start  %-24s on :%d", lv.app.name, port)
		proc, err = s.group.Start(ctx, ProcSpec{Name: lv.app.name, Argv: argv, Env: env, Dir: lv.app.dir, Port: port, Log: logFile}, s.cfg.StartTimeout)
		if err == nil || s.cfg.BasePort > 0 || attempt == maxStartAttempts || !benchtest.AddressInUse(err.Error()) || ctx.Err() != nil {
			break
		}
		// Another process took the free port first: try a new one.
		s.logf("retry  %-24s port %d was taken: %s", lv.app.name, port, firstLine(err.Error()))
		var perr error
		if port, perr = benchtest.FreePort(); perr != nil {
			return false, perr
		}
	}
	if err != nil {
		if cg != nil {
			cg.remove()
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		s.excluded(lv, "did not start", err.Error())
		return false, nil
	}
	if s.lim != nil && s.lim.method == "systemd-run" {
		cg = scopeCgroup(proc.Pid())
	}
	proc.cg = cg
	lv.proc = proc
	lv.mem = newMemSampler(proc.Pid())

	headers, err := s.verify(proc.URL(), p)
	if err != nil {
		s.excluded(lv, "verify: response differs from expected/"+p.ep.BodyFile, err.Error())
		return false, nil
	}
	lv.headers = headers
	s.logf("verify %-24s ok", lv.app.name)
	// The line follows the readiness lines at once; the verify round trip
	// gave it time to arrive.
	if info := proc.RuntimeInfo(); info != nil {
		lv.row.Runtime = info
		s.logf("info   %-24s %s", lv.app.name, report.RuntimeString(info))
	}
	if err := s.warm(ctx, p, lv, s.cfg.Warmup); err != nil {
		return false, err
	}
	return lv.proc != nil, nil
}

// verify checks the server at url against the contract and returns the
// headers the load will carry: the comparison's own (Endpoint.Headers) and,
// for the cookie-keeping variant of a sessions comparison (whose cookie it
// also sends back once), the Cookie header.
func (s *session) verify(url string, p *planned) ([]string, error) {
	cookies, err := benchtest.VerifyWithCookies(s.client, url, p.ep, nil)
	if err != nil {
		return nil, err
	}
	if !p.ep.SetCookie {
		return p.ep.Headers, nil
	}
	if _, err := benchtest.VerifyWithCookies(s.client, url, p.ep, cookies); err != nil {
		return nil, fmt.Errorf("sending the session cookie back: %w", err)
	}
	if p.variant != VariantCookieKeeping {
		return p.ep.Headers, nil
	}
	parts := make([]string, len(cookies))
	for i, c := range cookies {
		parts[i] = c.Name + "=" + c.Value
	}
	return append(append([]string(nil), p.ep.Headers...), "Cookie: "+strings.Join(parts, "; ")), nil
}

// warm loads lv for d without recording the figures; a server that dies
// under it is excluded.
func (s *session) warm(ctx context.Context, p *planned, lv *live, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	opts := bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: lv.proc.URL() + p.ep.Path, Connections: p.connections, Duration: d, Timeout: s.cfg.Timeout, Headers: lv.headers}
	lv.mem.start(sampleInterval)
	_, err := s.load.run(ctx, opts)
	lv.mem.stopSampling()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if exited, werr := lv.proc.Exited(); exited {
		s.excluded(lv, "exited during warm-up", fmt.Sprintf("%v\n%s", werr, lv.proc.Output()))
		return nil
	}
	if err != nil {
		s.excluded(lv, "warm-up failed", err.Error())
	}
	return nil
}

// measure performs one measured run of lv and appends it to its row.
func (s *session) measure(ctx context.Context, p *planned, lv *live, round, step, steps int) error {
	opts := bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: lv.proc.URL() + p.ep.Path, Connections: p.connections, Requests: p.requests,
		Duration: p.duration, Timeout: s.cfg.Timeout, Headers: lv.headers}
	run, err := s.load.measure(ctx, lv.proc, lv.mem, opts, round)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.excluded(lv, fmt.Sprintf("run %d failed", round), err.Error())
		return nil
	}
	b := &run.Bombardier
	if b.Req2xx == 0 {
		// Figures of a server that answered nothing successfully would
		// rank an error page; they are not a measurement of the app.
		s.excluded(lv, fmt.Sprintf("run %d: no 2xx response", round), fmt.Sprintf("%d non-2xx, %d socket errors %v\n%s",
			b.NonSuccess(), b.ErrorTotal(), b.Errors, lv.proc.Output()))
		return nil
	}
	lv.row.Runs = append(lv.row.Runs, run)
	p99, _ := b.Percentile(99)
	extra := ""
	if ns, e := b.NonSuccess(), b.ErrorTotal(); ns > 0 || e > 0 {
		extra = fmt.Sprintf(", %d non-2xx, %d errors", ns, e)
	}
	s.logf("[%d/%d] %s round %d %-22s %10.0f req/s  latency %.0fµs  p99 %.0fµs  cpu %.1fs  rss %d MiB%s",
		step, steps, p.key(), round, lv.app.name, b.RPS.Mean, b.Latency.Mean, p99, run.ServerCPUSeconds, run.ServerPeakRSSBytes>>20, extra)
	return nil
}

// runInterleaved starts all apps, pauses them, and in each round resumes,
// re-warms, measures and pauses one app after the other. The order rotates
// by one app per round so that no app is always measured first or last.
func (s *session) runInterleaved(ctx context.Context, p *planned, lives []*live, portOf map[string]int) error {
	var running []*live
	for _, lv := range lives {
		ok, err := s.start(ctx, p, lv, portOf[lv.app.name])
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := lv.proc.Pause(); err != nil {
			s.excluded(lv, "cannot pause", err.Error())
			continue
		}
		running = append(running, lv)
	}
	steps, step := s.cfg.Repeats*len(running), 0
	for round := 1; round <= s.cfg.Repeats; round++ {
		for i := range running {
			lv := running[(i+round-1)%len(running)]
			if lv.proc == nil {
				continue
			}
			step++
			if err := lv.proc.Resume(); err != nil {
				s.excluded(lv, "cannot resume", err.Error())
				continue
			}
			// The other apps ran since this one was warmed: a short load
			// brings its connections and caches back before measuring.
			if err := s.warm(ctx, p, lv, s.cfg.Rewarm); err != nil {
				return err
			}
			if lv.proc == nil {
				continue
			}
			if err := s.measure(ctx, p, lv, round, step, steps); err != nil {
				return err
			}
			if lv.proc != nil {
				if err := lv.proc.Pause(); err != nil {
					s.excluded(lv, "cannot pause", err.Error())
				}
			}
		}
	}
	return nil
}

// runSequential starts, measures and stops one app after the other.
func (s *session) runSequential(ctx context.Context, p *planned, lives []*live, portOf map[string]int) error {
	steps, step := s.cfg.Repeats*len(lives), 0
	for _, lv := range lives {
		ok, err := s.start(ctx, p, lv, portOf[lv.app.name])
		if err != nil {
			return err
		}
		for round := 1; ok && round <= s.cfg.Repeats && lv.proc != nil; round++ {
			step++
			if err := s.measure(ctx, p, lv, round, step, steps); err != nil {
				return err
			}
		}
		if lv.proc != nil {
			s.group.Remove(lv.proc)
			lv.proc = nil
		}
		s.stopRedisOf(lv)
	}
	return nil
}

// portFree reports an error when something already listens on port, which
// would make the verify step talk to the wrong server.
func portFree(port int) error {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	return ln.Close()
}
