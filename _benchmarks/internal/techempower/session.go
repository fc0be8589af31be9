// This file holds a run's session: the tools it found (wrk, PostgreSQL),
// the built apps, and a round: every app and its database started pinned,
// the verifier in the first round, then per test type every app's primer
// and warm-up, and the sweep level by level with the apps taking turns,
// and all of them stopped by PID.
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

// instance is an app started for one round, with its database.
type instance struct {
	*app
	p  *benchtest.Process
	pg *service.PostgresInstance // its database
}

// failed marks the app failed for why; it is measured no more.
func (s *session) failed(a *app, why string) {
	a.result.Status = "failed: " + why
	fmt.Fprintf(s.cfg.Log, "  %s: %s\n", a.Name, a.result.Status)
}

// runRound runs one round over apps, in their order: it starts every app
// with a database of its own and verifies it in the first round, then
// measures type by type and level by level, the apps taking turns at
// each level. So the figures that are set against each other, one level
// of one type on every stack, are taken within seconds of each other
// (the apps' levels times the stacks), not minutes apart as when each app
// ran all its types in one go: a machine whose speed drifts, as a shared
// virtual machine's does, moves them together and the quotients less.
// An app that fails is stopped at once and measured no more.
func (s *session) runRound(ctx context.Context, apps []*app, round int) {
	cfg := s.cfg
	fmt.Fprintf(cfg.Log, "round %d\n", round+1)
	var live []*instance
	defer func() {
		for _, in := range live {
			in.stop()
		}
	}()
	for _, a := range apps {
		if ctx.Err() != nil {
			return
		}
		if in := s.start(ctx, a, round); in != nil {
			live = append(live, in)
		}
	}
	measured := func(in *instance) bool { return in.result.Status == "" && ctx.Err() == nil }
	for _, t := range cfg.Types {
		lv := cfg.levels(t)
		for _, in := range live {
			if measured(in) {
				if err := s.warm(ctx, in, t, lv); err != nil {
					s.failType(ctx, in, t, err)
				}
			}
		}
		for i := 0; i < lv.N(); i++ {
			for _, in := range live {
				if measured(in) {
					if err := s.level(ctx, in, t, lv, i); err != nil {
						s.failType(ctx, in, t, err)
					}
				}
			}
			// A second between levels (TechEmpower pauses two).
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return
			}
		}
	}
}

// failType marks in failed on t for err, unless the run was cancelled,
// and stops it.
func (s *session) failType(ctx context.Context, in *instance, t tfb.Type, err error) {
	if ctx.Err() != nil {
		return
	}
	why := string(t) + ": " + err.Error()
	if exited, _ := in.p.Exited(); exited {
		why = string(t) + ": the app exited\n" + in.p.Output()
	}
	s.failed(in.app, why)
	in.stop()
}

// start starts a's database and a, pinned, and verifies a in the first
// round; it returns nil when a failed, which it reports.
func (s *session) start(ctx context.Context, a *app, round int) *instance {
	cfg := s.cfg
	if a.result.Status != "" {
		return nil // skipped or failed: never measured
	}
	fmt.Fprintf(cfg.Log, "  start %s\n", a.Name)
	inst, err := service.Postgres{Pool: cfg.Pool}.Start(ctx, service.Setup{
		Pin: s.pin.Server, LogPath: filepath.Join(cfg.OutDir, "logs", fmt.Sprintf("%s-postgres-%d.log", a.Name, round+1)),
	})
	if err != nil {
		s.failed(a, "PostgreSQL: "+err.Error())
		return nil
	}
	in := &instance{app: a, pg: inst.(*service.PostgresInstance)}
	s.report.Postgres = "PostgreSQL " + in.pg.Version()
	env := append(append([]string(nil), a.env...), inst.Env()...)
	in.p, err = benchtest.StartOnFreePort(ctx, func(port int) (benchtest.Spec, error) {
		log, err := os.Create(filepath.Join(cfg.OutDir, "logs", fmt.Sprintf("%s-%d.log", a.Name, round+1)))
		if err != nil {
			return benchtest.Spec{}, err
		}
		return benchtest.Spec{Name: a.Name, Argv: append(append([]string(nil), s.pin.Server...), a.argv...), Env: env, Dir: a.dir, Port: port, Log: log}, nil
	}, cfg.StartTimeout)
	if err != nil {
		in.stop()
		s.failed(a, "start: "+lastLine([]byte(err.Error())))
		return nil
	}
	if round == 0 {
		v := &tfb.Verifier{Base: in.p.URL(), DB: in.pg.Server, Concurrency: cfg.VerifyConcurrency, Repetitions: 1}
		problems := v.Verify(ctx, cfg.Types...)
		for _, pr := range problems {
			a.result.Verify = append(a.result.Verify, pr.String())
		}
		if failed := tfb.Failed(problems); len(failed) > 0 {
			in.stop()
			s.failed(a, failed[0].Rule+": "+failed[0].Detail+" ("+failed[0].URL+")")
			return nil
		}
	}
	return in
}

// target is t's endpoint on in, with queries for the types that take
// them, and t's Accept header.
func (in *instance) target(t tfb.Type, queries int) load.Target {
	u := in.p.URL() + t.Path()
	if t == tfb.Queries || t == tfb.Updates {
		u += itoa(queries)
	}
	return load.Target{URL: u, Headers: []string{"Accept: " + t.Accept()}}
}

// warm runs TechEmpower's primer and warm-up of t on in (toolset/wrk/*.sh):
// 8 connections, then the highest concurrency for a level's duration;
// queries=2 for the query types. Neither is recorded.
func (s *session) warm(ctx context.Context, in *instance, t tfb.Type, lv Levels) error {
	for _, o := range []load.Options{
		{Connections: 8, Duration: s.cfg.Primer},
		{Connections: lv.Max(), Duration: s.cfg.Duration},
	} {
		if _, err := s.gen.Run(ctx, in.target(t, 2), o); err != nil {
			return err
		}
	}
	return nil
}

// level measures level i of t on in and records it in in's results.
func (s *session) level(ctx context.Context, in *instance, t tfb.Type, lv Levels, i int) error {
	conns, queries := lv.Level(i)
	o := load.Options{Connections: conns, Duration: s.cfg.Duration, Pipeline: lv.Pipeline}
	r, err := s.gen.Run(ctx, in.target(t, queries), o)
	if err != nil {
		return err
	}
	if exited, _ := in.p.Exited(); exited {
		return errors.New("the app exited")
	}
	f := r.Figures()
	p50, _ := f.Percentile(50)
	p99, _ := f.Percentile(99)
	in.result.record(t, i, conns, queries, lv.Pipeline, f)
	fmt.Fprintf(s.cfg.Log, "  %-11s %-9s c=%-4d q=%-2d %10.0f req/s  p50 %s p99 %s  errors %d, non-2xx %d\n",
		in.Name, t, conns, queries, f.RequestsPerSec, us(int64(p50)), us(int64(p99)), f.Errors, f.NonSuccess)
	return nil
}

func us(v int64) string { return (time.Duration(v) * time.Microsecond).String() }

// stop stops in's app and database by PID, once.
func (in *instance) stop() {
	if in.p != nil {
		in.p.Stop()
		in.p = nil
	}
	if in.pg != nil {
		in.pg.Stop()
		in.pg = nil
	}
}

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
