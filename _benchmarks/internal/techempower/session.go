// This file holds a run's session: the tools it found (wrk, PostgreSQL),
// the built apps, and one round of one app: database and app started
// pinned, the verifier in the first round, every test type's primer,
// warm-up and sweep, and both stopped by PID.
package techempower

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/service"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

type session struct {
	cfg    *Config
	pin    proc.Pinning
	gen    load.Generator
	report *Report
	apps   []*app
}

// app is a built app and its results.
type app struct {
	App
	argv   []string
	env    []string
	dir    string
	result *AppResult
}

func newSession(ctx context.Context, cfg *Config) (*session, error) {
	s := &session{cfg: cfg, pin: proc.NewPinning(cfg.ServerCPUs, cfg.LoadCPUs)}
	gen, err := load.New(load.WrkName, s.pin.Load)
	if err != nil {
		return nil, err
	}
	wrkVersion, err := gen.Prepare(ctx, cfg.Root)
	if err != nil {
		return nil, err
	}
	s.gen = gen
	if _, _, err := postgres.Programs(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(cfg.OutDir, "logs"), 0o755); err != nil {
		return nil, err
	}
	// The runner's own work (the verifier's clients, reading wrk's output)
	// stays off the server CPUs.
	if err := s.pin.PinSelf(ctx, cfg.LoadCPUs); err != nil {
		return nil, err
	}
	s.report = newReport(cfg, s.pin, wrkVersion)
	for _, name := range cfg.Apps {
		meta, _ := appNamed(name)
		a := &app{App: meta, dir: filepath.Join(cfg.Root, "apps", name)}
		a.result = s.report.addApp(meta)
		if loc, _, err := stack.LinesOfCode(a.dir); err == nil {
			a.result.LinesOfCode = loc
		}
		fmt.Fprintf(cfg.Log, "build %s\n", name)
		if why := s.build(ctx, a); why != "" {
			a.result.Status = why
			fmt.Fprintf(cfg.Log, "  %s\n", why)
		}
		s.apps = append(s.apps, a)
	}
	return s, nil
}

// build builds a with its stack (internal/stack, as every comparison's
// apps are built) and sets its command; it returns the skip or failure
// reason, or "".
func (s *session) build(ctx context.Context, a *app) string {
	sa := &stack.App{Name: a.Name, StackName: a.Stack, Stack: stack.For(a.Stack), Dir: a.dir}
	if why := sa.SkipReason(); why != "" {
		return "skipped: " + why
	}
	if err := sa.Build(ctx, s.cfg.Root, stack.BuildOptions{NodeWorkers: s.cfg.Workers}); err != nil {
		return "failed: build: " + lastLine([]byte(err.Error()))
	}
	a.argv, a.env, a.result.Deps = sa.Argv, sa.Env, sa.Deps
	switch a.Stack {
	case stack.GoName:
		a.result.Runtime = runtime.Version()
	case stack.NodeName:
		a.result.Runtime = "Node.js " + runtimeVersion("node", "--version")
	case stack.DotnetName:
		a.result.Runtime = ".NET " + runtimeVersion("dotnet", "--version")
	}
	return ""
}

func runtimeVersion(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// runRound starts a's database and a, verifies it in the first round, and
// measures every type; a failure marks the app failed.
func (s *session) runRound(ctx context.Context, a *app, round int) {
	cfg := s.cfg
	fmt.Fprintf(cfg.Log, "round %d: %s\n", round+1, a.Name)
	fail := func(why string) {
		a.result.Status = "failed: " + why
		fmt.Fprintf(cfg.Log, "  %s\n", a.result.Status)
	}
	inst, err := service.Postgres{Pool: cfg.Pool}.Start(ctx, service.Setup{
		Pin: s.pin.Server, LogPath: filepath.Join(cfg.OutDir, "logs", fmt.Sprintf("%s-postgres-%d.log", a.Name, round+1)),
	})
	if err != nil {
		fail("PostgreSQL: " + err.Error())
		return
	}
	defer inst.Stop()
	db := inst.(*service.PostgresInstance).Server
	s.report.Postgres = "PostgreSQL " + db.Version
	env := append(append([]string(nil), a.env...), inst.Env()...)
	p, err := benchtest.StartOnFreePort(ctx, func(port int) (benchtest.Spec, error) {
		log, err := os.Create(filepath.Join(cfg.OutDir, "logs", fmt.Sprintf("%s-%d.log", a.Name, round+1)))
		if err != nil {
			return benchtest.Spec{}, err
		}
		return benchtest.Spec{Name: a.Name, Argv: append(append([]string(nil), s.pin.Server...), a.argv...), Env: env, Dir: a.dir, Port: port, Log: log}, nil
	}, cfg.StartTimeout)
	if err != nil {
		fail("start: " + lastLine([]byte(err.Error())))
		return
	}
	defer p.Stop()
	if round == 0 {
		v := &tfb.Verifier{Base: p.URL(), DB: db, Concurrency: cfg.VerifyConcurrency, Repetitions: 1}
		problems := v.Verify(ctx, cfg.Types...)
		for _, pr := range problems {
			a.result.Verify = append(a.result.Verify, pr.String())
		}
		if failed := tfb.Failed(problems); len(failed) > 0 {
			fail(failed[0].Rule + ": " + failed[0].Detail + " (" + failed[0].URL + ")")
			return
		}
	}
	for _, t := range cfg.Types {
		if err := s.sweep(ctx, a, p, t); err != nil {
			if ctx.Err() != nil {
				return
			}
			fail(string(t) + ": " + err.Error())
			return
		}
		if exited, _ := p.Exited(); exited {
			fail(string(t) + ": the app exited\n" + p.Output())
			return
		}
	}
}

// sweep runs the primer, the warm-up and every level of t, and records
// the levels in a's results.
func (s *session) sweep(ctx context.Context, a *app, p *benchtest.Process, t tfb.Type) error {
	cfg := s.cfg
	lv := cfg.levels(t)
	headers := []string{"Accept: " + t.Accept()}
	url := func(queries int) string {
		u := p.URL() + t.Path()
		if t == tfb.Queries || t == tfb.Updates {
			u += itoa(queries)
		}
		return u
	}
	// TechEmpower's primer and warm-up (toolset/wrk/*.sh): 8 connections,
	// then the highest concurrency for a level's duration; queries=2 for
	// the query types. Neither is recorded.
	for _, o := range []load.Options{
		{Connections: 8, Duration: cfg.Primer},
		{Connections: lv.Max(), Duration: cfg.Duration},
	} {
		if _, err := s.gen.Run(ctx, load.Target{URL: url(2), Headers: headers}, o); err != nil {
			return err
		}
	}
	for i := 0; i < lv.N(); i++ {
		conns, queries := lv.Level(i)
		o := load.Options{Connections: conns, Duration: cfg.Duration, Pipeline: lv.Pipeline}
		r, err := s.gen.Run(ctx, load.Target{URL: url(queries), Headers: headers}, o)
		if err != nil {
			return err
		}
		f := r.Figures()
		p50, _ := f.Percentile(50)
		p99, _ := f.Percentile(99)
		a.result.record(t, i, conns, queries, lv.Pipeline, f)
		fmt.Fprintf(cfg.Log, "  %-9s c=%-4d q=%-2d %10.0f req/s  p50 %s p99 %s  errors %d, non-2xx %d\n",
			t, conns, queries, f.RequestsPerSec, us(int64(p50)), us(int64(p99)), f.Errors, f.NonSuccess)
		// A second between levels (TechEmpower pauses two).
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func us(v int64) string { return (time.Duration(v) * time.Microsecond).String() }

func (s *session) close() {}

func (s *session) finish() (*Report, error) {
	s.report.Finished = time.Now().UTC()
	s.report.finish()
	if err := s.report.write(s.cfg.OutDir); err != nil {
		return s.report, err
	}
	var failed []string
	for _, a := range s.apps {
		if strings.HasPrefix(a.result.Status, "failed") {
			failed = append(failed, a.Name+": "+a.result.Status)
		}
	}
	if failed != nil {
		return s.report, errors.New("techempower: " + strings.Join(failed, "; "))
	}
	return s.report, nil
}
