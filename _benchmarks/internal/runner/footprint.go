// Start-up and footprint (`bench footprint`): what a reader of the
// serverless benchmarks asks and a throughput table cannot answer: how fast
// an instance starts, how big is what is deployed, how much memory it holds
// idle and warm, and what latency one request sees when the server is not
// saturated.
//
// Every app of every chosen comparison (the sessions comparisons in their
// cookie-less form; every Node app twice: one process, WORKERS=1, and a
// node:cluster row) is built as for a throughput run, then:
//
//  1. deploy size: the files that are shipped (deploySize), and the
//     runtime installed apart (the .NET shared framework, node);
//  2. Starts fresh starts, one after the other: exec of the pinned server
//     while the runner polls the comparison's request every PollInterval
//     (from the load CPUs) until a response with the expected status and
//     body arrives; the times to that response and to the readiness lines
//     (stamped as the lines are read) are recorded, and the resident memory
//     of the app's processes right after the first response. Every start
//     but the last is stopped at once;
//  3. the last start is warmed up (bombardier with the comparison's
//     connections for Warmup, whose request rate estimates the app's
//     throughput), its resident memory read, and loaded with as many
//     connections as server CPUs for Duration; then it is paused;
//  4. once every app of the comparison went through 1-3, the fixed rate is
//     half of the slowest app's warm-up rate (or FixedRate when given);
//     each app in turn is resumed, re-warmed for a second and loaded at that
//     rate (bombardier -r) with the comparison's connections for Duration,
//     then stopped.
//
// The report is results/<timestamp>-footprint/ with the schema of every
// report (Settings.Measure "footprint", App.Footprint).
package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// Defaults of a footprint run.
const (
	DefaultFootprintStarts = 10
	quickFootprintStarts   = 3
	// DefaultFootprintDuration is the length of each latency run.
	DefaultFootprintDuration = 10 * time.Second
	quickFootprintDuration   = time.Second
	// DefaultPollInterval is the pause between two attempts of the request
	// while an app starts.
	DefaultPollInterval = time.Millisecond
	// clusterWorkersMin is the smallest WORKERS of the Node cluster row:
	// with one worker the apps run no cluster at all.
	clusterWorkersMin = 2
)

// FootprintOptions are the settings of a footprint run beyond Config
// (whose Duration is the length of each latency run and Warmup the warm-up).
type FootprintOptions struct {
	// Starts is the number of timed fresh starts per app (default 10,
	// quick 3).
	Starts int
	// PollInterval is the pause between two attempts of the request while
	// an app starts (default 1ms).
	PollInterval time.Duration
	// FixedRate, when positive, is the request rate of the fixed-rate runs
	// instead of half the slowest app's warm-up rate.
	FixedRate int
}

// footprintDefaults fills the settings of a footprint run.
func footprintDefaults(c *Config, o *FootprintOptions) {
	if o.Starts == 0 {
		o.Starts = DefaultFootprintStarts
		if c.Quick {
			o.Starts = quickFootprintStarts
		}
	}
	if c.Duration == 0 {
		c.Duration = DefaultFootprintDuration
		if c.Quick {
			c.Duration = quickFootprintDuration
		}
	}
	if o.PollInterval == 0 {
		o.PollInterval = DefaultPollInterval
	}
}

// validateFootprint rejects the settings a footprint run cannot use.
func validateFootprint(c *Config, o *FootprintOptions) error {
	switch {
	case c.Requests > 0:
		return errors.New("runner: footprint latency runs are timed (-d), not a request count (-n)")
	case c.Profile == ProfileConstrained:
		return errors.New("runner: footprint runs the default profile only")
	case o.Starts < 0 || o.FixedRate < 0 || o.PollInterval < 0:
		return errors.New("runner: -starts, -rate and -poll must not be negative")
	}
	return nil
}

// Footprint measures the start-up, deploy size, memory and unsaturated
// latency of every app of cfg's comparisons and writes a footprint report
// into cfg.OutDir. The returned error wraps ErrFailed when the report was
// written but some app failed.
func Footprint(ctx context.Context, cfg Config, opt FootprintOptions) (*report.Results, report.Files, error) {
	var files report.Files
	if err := validateFootprint(&cfg, &opt); err != nil {
		return nil, files, err
	}
	footprintDefaults(&cfg, &opt)
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
	res.Settings.Measure = report.MeasureFootprint
	res.Settings.Mode, res.Settings.Repeats = ModeSequential, 1
	res.Settings.Warmup = cfg.Warmup.String()
	low := 1
	if cpus, err := ParseCPUList(cfg.ServerCPUs); err == nil && len(cpus) > 0 {
		low = len(cpus)
	}
	fs := &report.FootprintSettings{Starts: opt.Starts, PollInterval: opt.PollInterval.String(), Warmup: cfg.Warmup.String(),
		Duration: cfg.Duration.String(), LowConnections: low, NodeClusterWorkers: max(cfg.NodeWorkers, clusterWorkersMin),
		RateNote: "half the slowest app's request rate during its warm-up"}
	if opt.FixedRate > 0 {
		fs.RateNote = fmt.Sprintf("%d req/s, given with -rate", opt.FixedRate)
	}
	res.Settings.Footprint = fs
	if err := s.buildAll(ctx, plan, res); err != nil {
		return nil, files, err
	}

	fm := &footprinter{s: s, opt: opt, settings: fs, runtimes: map[string]runtimeSize{}}
	for i := range plan {
		p := &plan[i]
		if p.variant == VariantCookieKeeping {
			continue // one session per request, as the original ran it
		}
		if p.duration == 0 {
			p.requests, p.duration = 0, cfg.Duration
		}
		c, err := fm.comparison(ctx, p)
		if err != nil {
			return nil, files, err
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return s.finish(res, s.printFootprint)
}

// footprinter measures the apps of one comparison after the other.
type footprinter struct {
	s        *session
	opt      FootprintOptions
	settings *report.FootprintSettings
	runtimes map[string]runtimeSize // by stack, measured once
}

// fpApp is one row of a footprint comparison: an app, possibly run as a
// Node cluster.
type fpApp struct {
	live
	env  []string // added to the app's environment (WORKERS)
	port int
	// argv is the pinned command line.
	argv []string
}

// comparison measures every app of p and returns its report section.
func (fm *footprinter) comparison(ctx context.Context, p *planned) (report.Comparison, error) {
	s := fm.s
	c := s.newComparison(p)
	c.Variant, c.CookieMethod, c.Requests = "", "", 0
	c.Duration = p.duration.String()
	// A Node app gets a second row: the cluster.
	var rows []report.App
	for _, row := range c.Apps {
		rows = append(rows, row)
		if s.apps[row.Name].stack == StackNode {
			cl := row
			cl.Name = clusterName(row.Name)
			rows = append(rows, cl)
		}
	}
	c.Apps = rows
	fm.settings.RateConnections = p.connections
	s.logf("==== %s: %s %s, footprint: %d starts, then -c %d and a fixed rate for %s", p.key(), p.ep.Method, p.ep.Path,
		fm.settings.Starts, fm.settings.LowConnections, p.duration)

	ports, err := s.ports(len(c.Apps))
	if err != nil {
		return c, err
	}
	var running []*fpApp
	defer func() {
		for _, fa := range running {
			fm.stop(fa)
		}
	}()
	for i := range c.Apps {
		row := &c.Apps[i]
		if row.Skipped != "" || row.Failed != "" {
			continue
		}
		fa := fm.newApp(p, row, ports[i])
		ok, err := fm.measureApp(ctx, p, fa)
		if err != nil {
			return c, err
		}
		if ok {
			running = append(running, fa)
		}
	}

	rate := fm.opt.FixedRate
	if rate == 0 {
		slowest := math.Inf(1)
		for _, fa := range running {
			slowest = math.Min(slowest, fa.row.Footprint.WarmupRequestsPerSec)
		}
		if !math.IsInf(slowest, 1) {
			rate = max(1, int(slowest/2))
		}
	}
	for _, fa := range running {
		if err := fm.fixedRate(ctx, p, fa, rate); err != nil {
			return c, err
		}
		fm.stop(fa)
	}
	running = nil
	return c, nil
}

// clusterName is the row name of a Node app run as a cluster (its
// WORKERS is in the report's settings).
func clusterName(app string) string {
	return app + " (cluster)"
}

// newApp prepares the row's app: its environment (one Node process, or the
// cluster) and pinned command line.
func (fm *footprinter) newApp(p *planned, row *report.App, port int) *fpApp {
	s := fm.s
	name := row.Name
	var env []string
	if a := s.apps[name]; a == nil {
		name, _, _ = strings.Cut(name, " (cluster")
		env = append(env, "WORKERS="+strconv.Itoa(fm.settings.NodeClusterWorkers))
	} else if a.stack == StackNode {
		env = append(env, "WORKERS=1")
	}
	a := s.apps[name]
	fa := &fpApp{live: live{app: a, row: row}, port: port}
	fa.env = append(append([]string(nil), a.env...), env...)
	fa.argv = append(append([]string(nil), s.pin.server...), a.argv...)
	row.Footprint = &report.Footprint{}
	return fa
}

// measureApp takes the deploy size, the cold starts, the warm figures and
// the low-concurrency run of fa; on success fa's last start is left running,
// paused, and true returned. A failure excludes the app (false); the error
// is for cancellation only.
func (fm *footprinter) measureApp(ctx context.Context, p *planned, fa *fpApp) (bool, error) {
	s := fm.s
	fp := fa.row.Footprint
	d, err := fm.deploySize(ctx, fa.app)
	if err != nil {
		fm.exclude(fa, "deploy size", err.Error())
		return false, nil
	}
	fp.Deploy = d
	s.logf("size   %-24s %s (%s)%s", fa.row.Name, mib(d.Bytes), d.What, runtimeString(d))

	if p.ep.Redis {
		r, addr, err := s.startRedis(ctx, p.key(), fa.app.name)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			fm.exclude(fa, "redis-server did not start", err.Error())
			return false, nil
		}
		fa.redis = r
		fa.row.Dependencies = recordRedisVersion(fa.row.Dependencies, s.redisVersion)
		fa.env = append(fa.env, addr)
	}
	for i := 1; i <= fm.settings.Starts; i++ {
		st, err := fm.coldStart(ctx, p, fa, i)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			fm.exclude(fa, fmt.Sprintf("start %d", i), err.Error())
			return false, nil
		}
		fp.ColdStart.FirstResponseMillis = append(fp.ColdStart.FirstResponseMillis, millis(st.firstResponse))
		fp.ColdStart.ReadyMillis = append(fp.ColdStart.ReadyMillis, millis(st.ready))
		fp.RSSAfterStartBytes = append(fp.RSSAfterStartBytes, st.rss)
		s.logf("start  %-24s #%d: first response %6.1fms, readiness lines %6.1fms, rss %s", fa.row.Name, i,
			millis(st.firstResponse), millis(st.ready), mib(st.rss))
		if i < fm.settings.Starts {
			s.group.Remove(fa.proc)
			fa.proc = nil
		}
	}

	// Warm-up with the comparison's load: its rate estimates the throughput.
	mem := newMemSampler(fa.proc.Pid())
	mem.start(sampleInterval)
	rep, err := s.load.run(ctx, bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: fa.proc.URL() + p.ep.Path, Connections: p.connections,
		Duration: max(s.cfg.Warmup, time.Second), Timeout: s.cfg.Timeout})
	mem.stopSampling()
	if err != nil || rep.Result.Req2xx == 0 {
		return fm.failed(ctx, fa, "warm-up failed", err, rep)
	}
	fp.WarmupRequestsPerSec = rep.Result.RPS.Mean
	fp.PeakRSSWarmupBytes = mem.Peak()
	fp.RSSAfterWarmupBytes = groupRSS(fa.proc.Pid())

	opts := bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: fa.proc.URL() + p.ep.Path, Connections: fm.settings.LowConnections,
		Duration: p.duration, Timeout: s.cfg.Timeout}
	rep, err = s.load.run(ctx, opts)
	if err != nil || rep.Result.Req2xx == 0 {
		return fm.failed(ctx, fa, fmt.Sprintf("-c %d run failed", opts.Connections), err, rep)
	}
	fp.LowConcurrency = report.NewLatencyRun(opts.Connections, 0, p.duration, rep.Result)
	s.logf("warm   %-24s warm-up %8.0f req/s, rss %s; -c %d: p50 %s p99 %s", fa.row.Name, fp.WarmupRequestsPerSec,
		mib(fp.RSSAfterWarmupBytes), opts.Connections, micros(fp.LowConcurrency.P50Micros), micros(fp.LowConcurrency.P99Micros))
	if err := fa.proc.Pause(); err != nil {
		fm.exclude(fa, "cannot pause", err.Error())
		return false, nil
	}
	return true, nil
}

// fixedRate resumes fa, re-warms it and loads it at rate requests per
// second with the comparison's connections.
func (fm *footprinter) fixedRate(ctx context.Context, p *planned, fa *fpApp, rate int) error {
	s := fm.s
	if fa.proc == nil || rate <= 0 {
		return nil
	}
	if err := fa.proc.Resume(); err != nil {
		fm.exclude(fa, "cannot resume", err.Error())
		return nil
	}
	url := fa.proc.URL() + p.ep.Path
	if rep, err := s.load.run(ctx, bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: url, Connections: p.connections, Duration: max(s.cfg.Rewarm, time.Second),
		Timeout: s.cfg.Timeout}); err != nil || rep.Result.Req2xx == 0 {
		_, err := fm.failed(ctx, fa, "re-warm failed", err, rep)
		return err
	}
	opts := bombardier.Options{Method: p.ep.Method, Body: p.ep.RequestBody, URL: url, Connections: p.connections, Duration: p.duration, Timeout: s.cfg.Timeout, Rate: rate}
	rep, err := s.load.run(ctx, opts)
	if err != nil || rep.Result.Req2xx == 0 {
		_, err := fm.failed(ctx, fa, fmt.Sprintf("fixed-rate run (-r %d) failed", rate), err, rep)
		return err
	}
	lr := report.NewLatencyRun(opts.Connections, rate, p.duration, rep.Result)
	fa.row.Footprint.FixedRate = lr
	s.logf("rate   %-24s -c %d -r %d: %6.0f req/s, p50 %s p90 %s p99 %s max %s", fa.row.Name, opts.Connections, rate,
		lr.RequestsPerSec, micros(lr.P50Micros), micros(lr.P90Micros), micros(lr.P99Micros), micros(lr.MaxMicros))
	return nil
}

// failed excludes fa for reason (with bombardier's error or its counts)
// unless the run was cancelled.
func (fm *footprinter) failed(ctx context.Context, fa *fpApp, reason string, err error, rep *bombardier.Report) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	detail := ""
	switch {
	case err != nil:
		detail = err.Error()
	case rep != nil:
		r := &rep.Result
		detail = fmt.Sprintf("no 2xx response: %d non-2xx, %d errors %v", r.NonSuccess(), r.ErrorTotal(), r.Errors)
	}
	if fa.proc != nil {
		detail += "\n" + fa.proc.Output()
	}
	fm.exclude(fa, reason, detail)
	return false, nil
}

// exclude marks fa failed, drops its figures and stops its server.
func (fm *footprinter) exclude(fa *fpApp, reason, detail string) {
	fm.s.excluded(&fa.live, reason, detail)
	fa.row.Footprint = nil
}

// stop stops fa's server and redis-server.
func (fm *footprinter) stop(fa *fpApp) {
	if fa.proc != nil {
		fm.s.group.Remove(fa.proc)
		fa.proc = nil
	}
	fm.s.stopRedisOf(&fa.live)
}

// start is what one fresh start measured.
type start struct {
	firstResponse, ready time.Duration
	rss                  int64
}

// coldStart starts fa once, polls its request until the expected answer,
// and waits for its readiness lines. The process is left in fa.proc.
func (fm *footprinter) coldStart(ctx context.Context, p *planned, fa *fpApp, n int) (start, error) {
	s := fm.s
	if err := portFree(fa.port); err != nil {
		return start{}, fmt.Errorf("port %d is in use: %w", fa.port, err)
	}
	logFile, err := os.Create(filepath.Join(s.logDir, fmt.Sprintf("%s-%s-%d.log", p.key(), strings.ReplaceAll(fa.row.Name, " ", "_"), n)))
	if err != nil {
		return start{}, err
	}
	clock := &lineClock{w: logFile, want: benchtest.ReadinessLines(fa.port)}
	pctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	url := fmt.Sprintf("http://127.0.0.1:%d%s", fa.port, p.ep.Path)
	polled := make(chan pollResult, 1)

	t0 := time.Now()
	go func() { polled <- poll(pctx, url, p.ep, fm.opt.PollInterval, t0) }()
	proc, err := s.group.Start(ctx, ProcSpec{Name: fa.row.Name, Argv: fa.argv, Env: fa.env, Dir: fa.app.dir, Port: fa.port, Log: clock}, s.cfg.StartTimeout)
	if err != nil {
		cancel()
		<-polled
		logFile.Close()
		return start{}, err
	}
	fa.proc = proc
	pr := <-polled
	if pr.err != nil {
		return start{}, fmt.Errorf("no expected response within %v: %w\n%s", s.cfg.StartTimeout, pr.err, proc.Output())
	}
	ready, ok := clock.readyAt()
	if !ok {
		return start{}, errors.New("the readiness lines were not stamped")
	}
	// Read once both happened: the app answered and printed its lines.
	return start{firstResponse: pr.at, ready: ready.Sub(t0), rss: groupRSS(proc.Pid())}, nil
}

// pollResult is the outcome of poll: the time from t0 to the first
// expected response.
type pollResult struct {
	at  time.Duration
	err error
}

// poll sends ep's request to url every interval until the answer has ep's
// status and body, and returns the time since t0 when it arrived. Refused
// connections are retried; a started request is waited for.
func poll(ctx context.Context, url string, ep benchtest.Endpoint, interval time.Duration, t0 time.Time) pollResult {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	defer client.CloseIdleConnections()
	var last error
	for {
		var body io.Reader
		if ep.RequestBody != nil {
			body = bytes.NewReader(ep.RequestBody)
		}
		req, err := http.NewRequestWithContext(ctx, ep.Method, url, body)
		if err != nil {
			return pollResult{err: err}
		}
		if body != nil { // the body's Content-Type; other headers (Accept-Encoding) would change the answer compared
			for _, h := range ep.Headers {
				k, v, _ := strings.Cut(h, ":")
				req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
			}
		}
		resp, err := client.Do(req)
		if err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && resp.StatusCode == ep.Status && bytes.Equal(body, ep.Body) {
				return pollResult{at: time.Since(t0)}
			}
			last = fmt.Errorf("status %d, %d bytes of body", resp.StatusCode, len(body))
		} else if ctx.Err() == nil { // not the attempt the deadline cut short
			last = err
		}
		select {
		case <-ctx.Done():
			return pollResult{err: fmt.Errorf("%w (last attempt: %v)", ctx.Err(), last)}
		case <-time.After(interval):
		}
	}
}

// lineClock is the log of a started server that also stamps the time each
// readiness line was printed (the process's output reaches it line by
// line).
type lineClock struct {
	w    io.WriteCloser
	want [2]string

	mu    sync.Mutex
	next  int
	ready time.Time
}

// Write logs p and stamps a readiness line it completes.
func (c *lineClock) Write(p []byte) (int, error) {
	now := time.Now()
	line := strings.TrimRight(string(p), "\r\n")
	c.mu.Lock()
	if c.next < len(c.want) && line == c.want[c.next] {
		c.next++
		if c.next == len(c.want) {
			c.ready = now
		}
	}
	c.mu.Unlock()
	return c.w.Write(p)
}

// Close closes the log.
func (c *lineClock) Close() error { return c.w.Close() }

// readyAt returns when the last readiness line was printed.
func (c *lineClock) readyAt() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ready, c.next == len(c.want)
}

// groupRSS is the resident memory of the live processes of group pgid.
func groupRSS(pgid int) int64 {
	var sum int64
	for _, pid := range groupMembers(pgid) {
		sum += statusKB(pid, "VmRSS")
	}
	return sum
}

// runtimeSize is a runtime installed apart from the app.
type runtimeSize struct {
	name  string
	bytes int64
}

// deploySize measures what a's build produced for deployment, and the
// runtime it needs beside it.
func (fm *footprinter) deploySize(ctx context.Context, a *app) (report.Deploy, error) {
	var d report.Deploy
	switch a.stack {
	case StackGo:
		st, err := os.Stat(a.argv[0])
		if err != nil {
			return d, err
		}
		d.What, d.Bytes, d.Files = "Go binary, statically linked Go runtime", st.Size(), 1
		return d, nil
	case StackDotnet:
		dir := filepath.Dir(a.argv[len(a.argv)-1])
		n, files, err := dirSize(dir, ".pdb", ".dbg")
		if err != nil {
			return d, err
		}
		d.Bytes, d.Files = n, files
		if aotProject(a.dir) != "" {
			d.What = "Native AOT executable, runtime included"
			return d, nil
		}
		d.What = "framework-dependent publish folder"
		rt, err := fm.runtime(ctx, StackDotnet, dotnetSharedFramework)
		d.Runtime, d.RuntimeBytes = rt.name, rt.bytes
		return d, err
	case StackNode:
		n, files, err := dirSize(a.dir)
		if err != nil {
			return d, err
		}
		d.What, d.Bytes, d.Files = "app with node_modules", n, files
		rt, err := fm.runtime(ctx, StackNode, nodeRuntime)
		d.Runtime, d.RuntimeBytes = rt.name, rt.bytes
		return d, err
	}
	return d, fmt.Errorf("unknown stack %q", a.stack)
}

// runtime measures the runtime of stack once.
func (fm *footprinter) runtime(ctx context.Context, stack string, measure func(context.Context) (runtimeSize, error)) (runtimeSize, error) {
	if rt, ok := fm.runtimes[stack]; ok {
		return rt, nil
	}
	rt, err := measure(ctx)
	if err == nil {
		fm.runtimes[stack] = rt
	}
	return rt, err
}

// dotnetSharedFramework is what a framework-dependent ASP.NET Core app
// needs installed: the newest Microsoft.NETCore.App and
// Microsoft.AspNetCore.App that `dotnet --list-runtimes` lists (the ones a
// net10.0 app rolls forward to) and the dotnet host (the dotnet executable
// and host/fxr).
func dotnetSharedFramework(ctx context.Context) (runtimeSize, error) {
	out, err := exec.CommandContext(ctx, "dotnet", "--list-runtimes").Output()
	if err != nil {
		return runtimeSize{}, fmt.Errorf("dotnet --list-runtimes: %w", err)
	}
	newest := map[string][2]string{} // name -> version, directory
	for _, line := range strings.Split(string(out), "\n") {
		// Microsoft.AspNetCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]
		f := strings.Fields(line)
		if len(f) != 3 || !strings.HasPrefix(f[2], "[") {
			continue
		}
		if cur, ok := newest[f[0]]; !ok || versionLess(cur[0], f[1]) {
			newest[f[0]] = [2]string{f[1], filepath.Join(strings.Trim(f[2], "[]"), f[1])}
		}
	}
	var rt runtimeSize
	var names []string
	for _, name := range []string{"Microsoft.NETCore.App", "Microsoft.AspNetCore.App"} {
		fw, ok := newest[name]
		if !ok {
			return rt, fmt.Errorf("dotnet --list-runtimes lists no %s", name)
		}
		n, _, err := dirSize(fw[1])
		if err != nil {
			return rt, err
		}
		rt.bytes += n
		names = append(names, name+" "+fw[0])
		if name == "Microsoft.NETCore.App" {
			// <root>/shared/Microsoft.NETCore.App/<version>: the host is
			// <root>/dotnet and <root>/host.
			root := filepath.Dir(filepath.Dir(filepath.Dir(fw[1])))
			if st, err := os.Stat(filepath.Join(root, "dotnet")); err == nil {
				rt.bytes += st.Size()
			}
			if n, _, err := dirSize(filepath.Join(root, "host")); err == nil {
				rt.bytes += n
			}
		}
	}
	rt.name = "shared framework (" + strings.Join(names, " + ") + ", dotnet host)"
	return rt, nil
}

// nodeRuntime is the node executable the Node apps run on.
func nodeRuntime(ctx context.Context) (runtimeSize, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		return runtimeSize{}, err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	st, err := os.Stat(path)
	if err != nil {
		return runtimeSize{}, err
	}
	return runtimeSize{name: "node " + toolVersion(ctx, "node", "--version") + " executable", bytes: st.Size()}, nil
}

// versionLess compares dotted numeric versions (10.0.9 < 10.0.12).
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx != nil || erry != nil {
			if as[i] != bs[i] {
				return as[i] < bs[i]
			}
			continue
		}
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

// dirSize returns the bytes and number of the regular files under dir,
// leaving out files whose names end in one of skip.
func dirSize(dir string, skip ...string) (int64, int, error) {
	var n int64
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || slices.ContainsFunc(skip, func(ext string) bool { return strings.HasSuffix(path, ext) }) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		files++
		return nil
	})
	return n, files, err
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func micros(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%.2fms", us/1000)
	}
	return fmt.Sprintf("%.0fµs", us)
}

func runtimeString(d report.Deploy) string {
	if d.Runtime == "" {
		return ""
	}
	return fmt.Sprintf(" + %s %s", d.Runtime, mib(d.RuntimeBytes))
}

// printFootprint prints each comparison's figures at the end of the
// progress output.
func (s *session) printFootprint(res *report.Results) {
	for _, c := range res.Comparisons {
		s.logf("---- %s: cold start (median, min-max), deploy size, rss after start / after warm-up", c.Key())
		for _, a := range c.Apps {
			switch {
			case a.Skipped != "":
				s.logf("     %-34s skipped: %s", a.Name, a.Skipped)
			case a.Failed != "":
				s.logf("     %-34s FAILED: %s", a.Name, a.Failed)
			case a.FootprintMeasured():
				f := a.Footprint
				cs := f.ColdStart.FirstResponse
				s.logf("     %-34s %7.1fms (%.1f-%.1f)  %10s  %s / %s", a.Name, cs.Median, cs.Min, cs.Max, mib(f.Deploy.Bytes),
					mib(report.MedianBytes(f.RSSAfterStartBytes)), mib(f.RSSAfterWarmupBytes))
			}
		}
	}
}
