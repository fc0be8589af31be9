// Package footprint measures start-up and footprint (`bench footprint`): what a reader of the
// serverless benchmarks asks and a throughput table cannot answer: how fast
// an instance starts, how big is what is deployed, how much memory it holds
// idle and warm, and what latency one request sees when the server is not
// saturated.
//
// Every app of every chosen comparison (the sessions comparisons in their
// cookie-less form; every Node app twice: one process, WORKERS=1, and a
// node:cluster row) is built as for a throughput run, then:
//
//  1. deploy size: the files that are shipped (stack.Stack.Deploy), and the
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
package footprint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/runner"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
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

// Options are the settings of a footprint run beyond runner.Config (whose
// Duration is the length of each latency run and Warmup the warm-up).
type Options struct {
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

// defaults fills the settings of a footprint run.
func defaults(c *runner.Config, o *Options) {
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

// validate rejects the settings a footprint run cannot use.
func validate(c *runner.Config, o *Options) error {
	switch {
	case c.Requests > 0:
		return errors.New("runner: footprint latency runs are timed (-d), not a request count (-n)")
	case c.Profile == runner.ProfileConstrained:
		return errors.New("runner: footprint runs the default profile only")
	case o.Starts < 0 || o.FixedRate < 0 || o.PollInterval < 0:
		return errors.New("runner: -starts, -rate and -poll must not be negative")
	}
	return nil
}

// Run measures the start-up, deploy size, memory and unsaturated latency
// of every app of cfg's comparisons and writes a footprint report into
// cfg.OutDir. The returned error wraps runner.ErrFailed when the report
// was written but some app failed.
func Run(ctx context.Context, cfg runner.Config, opt Options) (*report.Results, report.Files, error) {
	var files report.Files
	if err := validate(&cfg, &opt); err != nil {
		return nil, files, err
	}
	defaults(&cfg, &opt)
	s, err := runner.NewSession(&cfg)
	if err != nil {
		return nil, files, err
	}
	defer s.StopAll()

	res, err := s.Begin(ctx)
	if err != nil {
		return nil, files, err
	}
	res.Settings.Measure = report.MeasureFootprint
	res.Settings.Mode, res.Settings.Repeats = runner.ModeSequential, 1
	res.Settings.Warmup = cfg.Warmup.String()
	low := 1
	if cpus, err := proc.ParseCPUList(cfg.ServerCPUs); err == nil && len(cpus) > 0 {
		low = len(cpus)
	}
	fs := &report.FootprintSettings{Starts: opt.Starts, PollInterval: opt.PollInterval.String(), Warmup: cfg.Warmup.String(),
		Duration: cfg.Duration.String(), LowConnections: low, NodeClusterWorkers: max(cfg.NodeWorkers, clusterWorkersMin),
		RateNote: "half the slowest app's request rate during its warm-up"}
	if opt.FixedRate > 0 {
		fs.RateNote = fmt.Sprintf("%d req/s, given with -rate", opt.FixedRate)
	}
	res.Settings.Footprint = fs
	if err := s.BuildAll(ctx, res); err != nil {
		return nil, files, err
	}

	fm := &footprinter{s: s, opt: opt, settings: fs}
	for i := range s.Plan {
		p := &s.Plan[i]
		if p.Variant == runner.VariantCookieKeeping {
			continue // one session per request, as the original ran it
		}
		if p.Generator != load.BombardierName {
			continue // footprint measures plain HTTP/1.1 with bombardier
		}
		if p.Duration == 0 {
			p.Requests, p.Duration = 0, cfg.Duration
		}
		c, err := fm.comparison(ctx, p)
		if err != nil {
			return nil, files, err
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return s.Finish(res, func(res *report.Results) { printFootprint(s, res) })
}

// footprinter measures the apps of one comparison after the other.
type footprinter struct {
	s        *runner.Session
	opt      Options
	settings *report.FootprintSettings
}

// fpApp is one row of a footprint comparison: an app, possibly run as a
// Node cluster.
type fpApp struct {
	runner.Live
	env  []string // added to the app's environment (WORKERS)
	port int
	// argv is the pinned command line.
	argv []string
}

// comparison measures every app of p and returns its report section.
func (fm *footprinter) comparison(ctx context.Context, p *runner.Planned) (report.Comparison, error) {
	s := fm.s
	c := s.NewComparison(p)
	c.Variant, c.CookieMethod, c.Requests = "", "", 0
	c.Duration = p.Duration.String()
	// A Node app gets a second row: the cluster.
	var rows []report.App
	for _, row := range c.Apps {
		rows = append(rows, row)
		if s.Apps[row.Name].StackName == stack.NodeName {
			cl := row
			cl.Name = clusterName(row.Name)
			rows = append(rows, cl)
		}
	}
	c.Apps = rows
	fm.settings.RateConnections = p.Connections
	s.Logf("==== %s: %s %s, footprint: %d starts, then -c %d and a fixed rate for %s", p.Key(), p.Ep.Method, p.Ep.Path,
		fm.settings.Starts, fm.settings.LowConnections, p.Duration)

	ports, err := s.Ports(len(c.Apps))
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
			slowest = math.Min(slowest, fa.Row.Footprint.WarmupRequestsPerSec)
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
func (fm *footprinter) newApp(p *runner.Planned, row *report.App, port int) *fpApp {
	s := fm.s
	name := row.Name
	var env []string
	if a := s.Apps[name]; a == nil {
		name, _, _ = strings.Cut(name, " (cluster")
		env = append(env, "WORKERS="+strconv.Itoa(fm.settings.NodeClusterWorkers))
	} else if a.StackName == stack.NodeName {
		env = append(env, "WORKERS=1")
	}
	a := s.Apps[name]
	fa := &fpApp{Live: runner.Live{App: a, Row: row}, port: port}
	fa.env = append(append([]string(nil), a.Env...), env...)
	fa.argv = append(append([]string(nil), s.Pin.Server...), a.Argv...)
	row.Footprint = &report.Footprint{}
	return fa
}

// measureApp takes the deploy size, the cold starts, the warm figures and
// the low-concurrency run of fa; on success fa's last start is left running,
// paused, and true returned. A failure excludes the app (false); the error
// is for cancellation only.
func (fm *footprinter) measureApp(ctx context.Context, p *runner.Planned, fa *fpApp) (bool, error) {
	s := fm.s
	fp := fa.Row.Footprint
	d, err := fa.App.Stack.Deploy(ctx, fa.App)
	if err != nil {
		fm.exclude(fa, "deploy size", err.Error())
		return false, nil
	}
	fp.Deploy = d
	s.Logf("size   %-24s %s (%s)%s", fa.Row.Name, mib(d.Bytes), d.What, runtimeString(d))

	senv, err := s.StartServices(ctx, p, &fa.Live)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		fm.exclude(fa, "a service did not start", err.Error())
		return false, nil
	}
	fa.env = append(fa.env, senv...)
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
		s.Logf("start  %-24s #%d: first response %6.1fms, readiness lines %6.1fms, rss %s", fa.Row.Name, i,
			millis(st.firstResponse), millis(st.ready), mib(st.rss))
		if i < fm.settings.Starts {
			s.Group.Remove(fa.Proc)
			fa.Proc = nil
		}
	}

	// Warm-up with the comparison's load: its rate estimates the throughput.
	mem := proc.NewMemSampler(fa.Proc.Pid())
	mem.Start(proc.SampleInterval)
	rep, err := fm.run(ctx, p.Ep, fa.Proc.URL()+p.Ep.Path, load.Options{Connections: p.Connections,
		Duration: max(s.Cfg.Warmup, time.Second), Timeout: s.Cfg.Timeout})
	mem.Stop()
	if err != nil || rep.Req2xx == 0 {
		return fm.failed(ctx, fa, "warm-up failed", err, rep)
	}
	fp.WarmupRequestsPerSec = rep.RPS.Mean
	fp.PeakRSSWarmupBytes = mem.Peak()
	fp.RSSAfterWarmupBytes = proc.GroupRSS(fa.Proc.Pid())

	opts := load.Options{Connections: fm.settings.LowConnections,
		Duration: p.Duration, Timeout: s.Cfg.Timeout}
	rep, err = fm.run(ctx, p.Ep, fa.Proc.URL()+p.Ep.Path, opts)
	if err != nil || rep.Req2xx == 0 {
		return fm.failed(ctx, fa, fmt.Sprintf("-c %d run failed", opts.Connections), err, rep)
	}
	fp.LowConcurrency = report.NewLatencyRun(opts.Connections, 0, p.Duration, *rep)
	s.Logf("warm   %-24s warm-up %8.0f req/s, rss %s; -c %d: p50 %s p99 %s", fa.Row.Name, fp.WarmupRequestsPerSec,
		mib(fp.RSSAfterWarmupBytes), opts.Connections, micros(fp.LowConcurrency.P50Micros), micros(fp.LowConcurrency.P99Micros))
	if err := fa.Proc.Pause(); err != nil {
		fm.exclude(fa, "cannot pause", err.Error())
		return false, nil
	}
	return true, nil
}

// fixedRate resumes fa, re-warms it and loads it at rate requests per
// second with the comparison's connections.
func (fm *footprinter) fixedRate(ctx context.Context, p *runner.Planned, fa *fpApp, rate int) error {
	s := fm.s
	if fa.Proc == nil || rate <= 0 {
		return nil
	}
	if err := fa.Proc.Resume(); err != nil {
		fm.exclude(fa, "cannot resume", err.Error())
		return nil
	}
	url := fa.Proc.URL() + p.Ep.Path
	if rep, err := fm.run(ctx, p.Ep, url, load.Options{Connections: p.Connections, Duration: max(s.Cfg.Rewarm, time.Second),
		Timeout: s.Cfg.Timeout}); err != nil || rep.Req2xx == 0 {
		_, err := fm.failed(ctx, fa, "re-warm failed", err, rep)
		return err
	}
	opts := load.Options{Connections: p.Connections, Duration: p.Duration, Timeout: s.Cfg.Timeout, Rate: rate}
	rep, err := fm.run(ctx, p.Ep, url, opts)
	if err != nil || rep.Req2xx == 0 {
		_, err := fm.failed(ctx, fa, fmt.Sprintf("fixed-rate run (-r %d) failed", rate), err, rep)
		return err
	}
	lr := report.NewLatencyRun(opts.Connections, rate, p.Duration, *rep)
	fa.Row.Footprint.FixedRate = lr
	s.Logf("rate   %-24s -c %d -r %d: %6.0f req/s, p50 %s p90 %s p99 %s max %s", fa.Row.Name, opts.Connections, rate,
		lr.RequestsPerSec, micros(lr.P50Micros), micros(lr.P90Micros), micros(lr.P99Micros), micros(lr.MaxMicros))
	return nil
}

// run loads url with ep's request (bombardier) and returns its result.
// A request with a body carries the comparison's headers (its
// Content-Type); others are sent bare, as they always were here.
func (fm *footprinter) run(ctx context.Context, ep benchtest.Endpoint, url string, o load.Options) (*bombardier.Result, error) {
	t := load.Target{URL: url, Method: ep.Method, Body: ep.RequestBody}
	if ep.RequestBody != nil {
		t.Headers = ep.Headers
	}
	res, err := fm.s.Bombardier().Run(ctx, t, o)
	return res.Bombardier, err
}

// failed excludes fa for reason (with bombardier's error or its counts)
// unless the run was cancelled.
func (fm *footprinter) failed(ctx context.Context, fa *fpApp, reason string, err error, rep *bombardier.Result) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	detail := ""
	switch {
	case err != nil:
		detail = err.Error()
	case rep != nil:
		r := rep
		detail = fmt.Sprintf("no 2xx response: %d non-2xx, %d errors %v", r.NonSuccess(), r.ErrorTotal(), r.Errors)
	}
	if fa.Proc != nil {
		detail += "\n" + fa.Proc.Output()
	}
	fm.exclude(fa, reason, detail)
	return false, nil
}

// exclude marks fa failed, drops its figures and stops its server.
func (fm *footprinter) exclude(fa *fpApp, reason, detail string) {
	fm.s.Exclude(&fa.Live, reason, detail)
	fa.Row.Footprint = nil
}

// stop stops fa's server and redis-server.
func (fm *footprinter) stop(fa *fpApp) {
	if fa.Proc != nil {
		fm.s.Group.Remove(fa.Proc)
		fa.Proc = nil
	}
	fm.s.StopServicesOf(&fa.Live)
}

// start is what one fresh start measured.
type start struct {
	firstResponse, ready time.Duration
	rss                  int64
}

// coldStart starts fa once, polls its request until the expected answer,
// and waits for its readiness lines. The process is left in fa.Proc.
func (fm *footprinter) coldStart(ctx context.Context, p *runner.Planned, fa *fpApp, n int) (start, error) {
	s := fm.s
	if err := runner.PortFree(fa.port); err != nil {
		return start{}, fmt.Errorf("port %d is in use: %w", fa.port, err)
	}
	logFile, err := os.Create(filepath.Join(s.LogDir, fmt.Sprintf("%s-%s-%d.log", p.Key(), strings.ReplaceAll(fa.Row.Name, " ", "_"), n)))
	if err != nil {
		return start{}, err
	}
	clock := &lineClock{w: logFile, want: benchtest.ReadinessLines(fa.port)}
	pctx, cancel := context.WithTimeout(ctx, s.Cfg.StartTimeout)
	defer cancel()
	url := fmt.Sprintf("http://127.0.0.1:%d%s", fa.port, p.Ep.Path)
	polled := make(chan pollResult, 1)

	t0 := time.Now()
	go func() { polled <- poll(pctx, url, p.Ep, fm.opt.PollInterval, t0) }()
	sp, err := s.Group.Start(ctx, proc.Spec{Name: fa.Row.Name, Argv: fa.argv, Env: fa.env, Dir: fa.App.Dir, Port: fa.port, Log: clock}, s.Cfg.StartTimeout)
	if err != nil {
		cancel()
		<-polled
		logFile.Close()
		return start{}, err
	}
	fa.Proc = sp
	pr := <-polled
	if pr.err != nil {
		return start{}, fmt.Errorf("no expected response within %v: %w\n%s", s.Cfg.StartTimeout, pr.err, sp.Output())
	}
	ready, ok := clock.readyAt()
	if !ok {
		return start{}, errors.New("the readiness lines were not stamped")
	}
	// Read once both happened: the app answered and printed its lines.
	return start{firstResponse: pr.at, ready: ready.Sub(t0), rss: proc.GroupRSS(sp.Pid())}, nil
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
func printFootprint(s *runner.Session, res *report.Results) {
	for _, c := range res.Comparisons {
		s.Logf("---- %s: cold start (median, min-max), deploy size, rss after start / after warm-up", c.Key())
		for _, a := range c.Apps {
			switch {
			case a.Skipped != "":
				s.Logf("     %-34s skipped: %s", a.Name, a.Skipped)
			case a.Failed != "":
				s.Logf("     %-34s FAILED: %s", a.Name, a.Failed)
			case a.FootprintMeasured():
				f := a.Footprint
				cs := f.ColdStart.FirstResponse
				s.Logf("     %-34s %7.1fms (%.1f-%.1f)  %10s  %s / %s", a.Name, cs.Median, cs.Min, cs.Max, mib(f.Deploy.Bytes),
					mib(report.MedianBytes(f.RSSAfterStartBytes)), mib(f.RSSAfterWarmupBytes))
			}
		}
	}
}
