// The Session of one run, shared by every kind of measurement: Begin
// records the machine, the versions and the settings, sets up the CPU
// pinning (and the limits of the constrained profile), creates the log
// directory and prepares the load generators the plan needs; BuildAll
// builds every app first (so compilers never compete with a measurement)
// and then moves the runner onto the load CPUs; Finish writes the report.
// Between them a measurement starts apps (StartServices, the certificate
// of a TLS comparison, Verify) and excludes those that misbehave (Exclude).
// Every server and service is stopped by StopAll, whatever the outcome.
package runner

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/constrained"
	"github.com/vireo-go/vireo/_benchmarks/internal/load"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/service"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
)

// ErrFailed is returned (wrapped) when the run completed but some app failed
// to build, verify or survive its load; the report lists the failures.
var ErrFailed = errors.New("runner: run failed")

// Session is the state of one run.
type Session struct {
	Cfg      *Config
	Contract *benchtest.Contract
	Plan     []Planned
	Group    *proc.Group
	Pin      proc.Pinning
	// Limiter applies the constrained profile; nil in the default one.
	Limiter *constrained.Limiter
	// Apps holds every app of the plan, built or not; Skipped and Failed
	// the reasons of those that are not run.
	Apps    map[string]*stack.App
	Skipped map[string]string
	Failed  map[string]string
	LOC     map[string]int
	Files   map[string][]string
	LogDir  string
	// Client verifies the plain HTTP apps.
	Client *http.Client

	generators map[string]load.Generator // by name, prepared by Begin
	cert       *benchtest.Cert           // of the TLS comparisons, made by Begin
	instances  []service.Instance        // every service instance started
	failures   []string
}

// Live is an app of the comparison being run.
type Live struct {
	App      *stack.App
	Row      *report.App
	Proc     *proc.Proc
	Mem      *proc.MemSampler
	Headers  []string // the comparison's and the cookie-keeping variant's Cookie
	Services []service.Instance
}

// Logf prints one progress line.
func (s *Session) Logf(format string, args ...any) {
	fmt.Fprintf(s.Cfg.Log, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// Fail records a failure of app, which makes the run fail.
func (s *Session) Fail(app, reason string) {
	s.failures = append(s.failures, app+": "+reason)
}

// NewSession loads the contract and the plan and resolves the apps: each
// is skipped with the reason when its directory, its runtime or a service
// its comparison needs is missing.
func NewSession(cfg *Config) (*Session, error) {
	cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	contract, err := benchtest.LoadContract(cfg.Root)
	if err != nil {
		return nil, err
	}
	plan, err := makePlan(cfg, contract)
	if err != nil {
		return nil, err
	}
	s := &Session{
		Cfg: cfg, Contract: contract, Group: &proc.Group{}, Plan: plan,
		Apps: map[string]*stack.App{}, Skipped: map[string]string{}, Failed: map[string]string{},
		LOC: map[string]int{}, Files: map[string][]string{},
		Client: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}},
	}
	for _, p := range plan {
		for _, name := range p.Apps {
			if s.Apps[name] != nil {
				continue
			}
			a := stack.NewApp(cfg.Root, name, contract.Stack(name))
			s.Apps[name] = a
			if why := a.SkipReason(); why != "" {
				s.Skipped[name] = why
			} else if why := s.servicesMissing(p.Ep); why != "" {
				s.Skipped[name] = why
			}
		}
	}
	return s, nil
}

// UnsupportedPrefix starts the skip reason of an app whose framework cannot
// serve the comparison (endpoints.json's "unsupported").
const UnsupportedPrefix = "not supported: "

// service returns the service called name: cfg.Services' or Lookup's.
func (s *Session) service(name string) (service.Service, error) {
	if sv, ok := s.Cfg.Services[name]; ok {
		return sv, nil
	}
	if sv, ok := service.Lookup(name); ok {
		return sv, nil
	}
	return nil, fmt.Errorf("runner: endpoints.json names an unknown service %q", name)
}

// servicesMissing returns why a service of ep cannot run here, or "".
func (s *Session) servicesMissing(ep benchtest.Endpoint) string {
	for _, name := range ep.Services {
		sv, err := s.service(name)
		if err != nil {
			return err.Error()
		}
		if why := sv.Missing(); why != "" {
			return why
		}
	}
	return ""
}

// BuildOptions are the settings of the run that the stacks build with.
func (s *Session) BuildOptions() stack.BuildOptions {
	return stack.BuildOptions{GOMAXPROCS: s.Cfg.GOMAXPROCS, NodeWorkers: s.Cfg.NodeWorkers, DotnetProperties: s.Cfg.DotnetProperties}
}

// BuildApps builds every app that is not skipped, in plan order.
func (s *Session) BuildApps(ctx context.Context) error {
	done := map[string]bool{}
	for _, p := range s.Plan {
		for _, name := range p.Apps {
			a := s.Apps[name]
			if done[name] {
				continue
			}
			done[name] = true
			if n, files, err := stack.LinesOfCode(a.Dir); err == nil && len(files) > 0 {
				s.LOC[name], s.Files[name] = n, files
			}
			if why := s.Skipped[name]; why != "" {
				s.Logf("skip   %-24s skipped: %s", name, why)
				continue
			}
			s.Logf("build  %-24s (%s)", name, a.StackName)
			if err := a.Build(ctx, s.Cfg.Root, s.BuildOptions()); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				reason := "build failed: " + FirstLine(err.Error())
				s.Failed[name] = reason
				s.Fail(name, err.Error())
				s.Logf("FAILED %-24s %s\n%s", name, reason, err)
				continue
			}
			s.Logf("built  %-24s in %.1fs", name, a.BuildSeconds)
		}
	}
	return nil
}

// FirstLine is the first line of s.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Begin is the first half of the setup every kind of run shares: it starts
// the report with the machine, the versions and the settings, sets up the
// CPU pinning (and the limits of the constrained profile), creates the log
// directory, makes the certificate of the TLS comparisons and prepares the
// load generators of the plan. The apps of a comparison whose generator is
// missing (h2load) are skipped with the reason.
func (s *Session) Begin(ctx context.Context) (*report.Results, error) {
	cfg := s.Cfg
	res := &report.Results{StartedAt: time.Now().UTC(), Command: cfg.Command, Machine: machineInfo(), Versions: versions(ctx)}
	s.Pin = proc.NewPinning(cfg.ServerCPUs, cfg.LoadCPUs)
	res.Settings = s.Settings()
	if cfg.Profile == ProfileConstrained {
		s.Limiter = constrained.New(cfg.CPUQuotaPercent, cfg.MemoryMax)
		res.Settings.Constraint = s.Limiter.Limit()
		if s.Limiter.Method() == "none" {
			s.Logf("WARNING: the constrained profile cannot be applied: %s; measuring unconstrained and marking the results so", s.Limiter.Note())
		} else {
			s.Logf("constrained profile: %d%% of a CPU, %d MiB via %s", cfg.CPUQuotaPercent, cfg.MemoryMax>>20, s.Limiter.Method())
		}
		res.Settings.GOMAXPROCS = s.GOMAXPROCS()
	}
	if !s.Pin.Pinned() {
		s.Logf("WARNING: not pinning CPUs: %s", s.Pin.Note)
	}
	s.LogDir = filepath.Join(cfg.OutDir, "logs")
	if err := os.MkdirAll(s.LogDir, 0o755); err != nil {
		return nil, err
	}
	if err := s.makeCert(filepath.Join(cfg.OutDir, "tls")); err != nil {
		return nil, err
	}
	if err := s.prepareGenerators(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// makeCert makes the certificate of the plan's TLS comparisons in dir,
// once.
func (s *Session) makeCert(dir string) error {
	for _, p := range s.Plan {
		if p.Ep.TLS && s.cert == nil {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			c, err := benchtest.MakeCert(dir)
			if err != nil {
				return fmt.Errorf("runner: making the TLS certificate: %w", err)
			}
			s.cert = c
			s.Logf("tls    self-signed ECDSA P-256 certificate for 127.0.0.1 in %s", dir)
		}
	}
	return nil
}

// prepareGenerators builds or finds every generator of the plan; a missing
// one (h2load not installed) skips the apps of its comparisons.
func (s *Session) prepareGenerators(ctx context.Context, res *report.Results) error {
	s.generators = map[string]load.Generator{}
	for _, p := range s.Plan {
		name := p.Generator
		if _, done := s.generators[name]; done {
			continue
		}
		g, err := load.New(name, s.Pin.Load)
		if err != nil {
			return err
		}
		s.Logf("prepare %s", g.Name())
		version, err := g.Prepare(ctx, s.Cfg.Root)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if g.Name() == load.BombardierName {
				return err // every measurement needs it
			}
			s.Logf("WARNING: %v: the apps of the comparisons it loads are skipped", err)
			for _, q := range s.Plan {
				if q.Generator == name {
					for _, a := range q.Apps {
						if s.Skipped[a] == "" {
							s.Skipped[a] = err.Error()
						}
					}
				}
			}
			s.generators[name] = nil
			continue
		}
		s.generators[name] = g
		switch g.Name() {
		case load.BombardierName:
			res.Versions.Bombardier = version
		case load.H2loadName:
			res.Versions.H2load = version
		}
	}
	return nil
}

// Generator returns the prepared load generator of p, or nil when it is
// missing (its apps are then skipped).
func (s *Session) Generator(p *Planned) load.Generator {
	return s.generators[p.Generator]
}

// Bombardier returns bombardier, prepared by Begin: the warm-ups of every
// kind of measurement use it for plain HTTP/1.1.
func (s *Session) Bombardier() load.Generator {
	return s.generators[load.BombardierName]
}

// BuildAll is the second half of the shared setup: it builds every app of
// the plan that is not skipped, records the Express version, and then
// moves the runner onto the load CPUs (after the builds, which should use
// every CPU).
func (s *Session) BuildAll(ctx context.Context, res *report.Results) error {
	if err := s.BuildApps(ctx); err != nil {
		return err
	}
	for _, a := range s.Apps {
		if v := a.Deps["express"]; v != "" && res.Versions.Express == "" {
			res.Versions.Express = v
		}
	}
	if err := s.Pin.PinSelf(ctx, s.Cfg.LoadCPUs); err != nil {
		s.Logf("WARNING: %v", err)
	}
	return nil
}

// Finish writes the report of a run, prints its summary and turns the
// failures recorded along the way into the error.
func (s *Session) Finish(res *report.Results, printSummary func(*report.Results)) (*report.Results, report.Files, error) {
	res.FinishedAt = time.Now().UTC()
	res.Failures = s.failures
	files, err := report.WriteDir(s.Cfg.OutDir, res)
	if err != nil {
		return res, files, err
	}
	printSummary(res)
	s.Logf("report %s", files.Markdown)
	if len(s.failures) > 0 {
		return res, files, fmt.Errorf("%w: %d failure(s):\n  %s", ErrFailed, len(s.failures), strings.Join(s.failures, "\n  "))
	}
	return res, files, nil
}

// StopAll stops every server of the run, then every service instance.
func (s *Session) StopAll() {
	s.Group.StopAll()
	for _, in := range s.instances {
		in.Stop()
	}
	s.instances = nil
}

// NewComparison returns the report section of p with a row per app, each
// skipped or failed app with its reason, no figures yet.
func (s *Session) NewComparison(p *Planned) report.Comparison {
	c := report.Comparison{Name: p.Name, Variant: p.Variant, Method: p.Ep.Method, Path: p.Ep.Path,
		Connections: p.Connections, Requests: p.Requests, Baseline: p.Baseline, TLS: p.Ep.TLS, Protocol: p.Protocol}
	if p.Generator != load.BombardierName {
		c.Generator, c.Streams = p.Generator, max(p.Streams, 1)
	}
	if p.Duration > 0 {
		c.Duration = p.Duration.String()
	}
	if p.Variant == VariantCookieKeeping {
		c.CookieMethod = CookieMethod
	}
	c.Apps = make([]report.App, len(p.Apps), len(p.Apps)+len(p.Unsupported))
	for i, name := range p.Apps {
		a := s.Apps[name]
		c.Apps[i] = report.App{Name: name, Stack: a.StackName, Skipped: s.Skipped[name], Failed: s.Failed[name],
			LinesOfCode: s.LOC[name], SourceFiles: s.Files[name], Dependencies: a.Deps, BuildSeconds: a.BuildSeconds}
	}
	for _, name := range p.Unsupported {
		why := p.Ep.Unsupported[name]
		c.Apps = append(c.Apps, report.App{Name: name, Stack: s.Contract.Stack(name), Skipped: UnsupportedPrefix + why, Unsupported: why})
	}
	return c
}

// Ports returns n ports for a comparison's apps: consecutive from
// BasePort, or free ones when BasePort is zero. Free ports come from
// benchtest.FreePort, which never hands out a port twice in a process, so
// no two apps or services of a run get the same one.
func (s *Session) Ports(n int) ([]int, error) {
	ports := make([]int, n)
	for i := range ports {
		if s.Cfg.BasePort > 0 {
			ports[i] = s.Cfg.BasePort + i
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

// Exclude marks lv failed, records why, and stops its server and services.
func (s *Session) Exclude(lv *Live, reason, detail string) {
	lv.Row.Failed = reason
	lv.Row.Runs = nil
	s.Fail(lv.Row.Name, reason+"\n"+detail)
	s.Logf("FAILED %-24s %s\n%s", lv.Row.Name, reason, detail)
	if lv.Proc != nil {
		s.Group.Remove(lv.Proc)
		lv.Proc = nil
	}
	s.StopServicesOf(lv)
}

// StartServices starts an instance of every service p's apps need, for
// lv, pinned to the server CPUs, and returns the environment that tells
// the app where they are. Each instance's version is recorded among the
// app's dependencies. On error the instances started are stopped.
func (s *Session) StartServices(ctx context.Context, p *Planned, lv *Live) ([]string, error) {
	var env []string
	for _, name := range p.Ep.Services {
		sv, err := s.service(name)
		if err != nil {
			s.StopServicesOf(lv)
			return nil, err
		}
		log := filepath.Join(s.LogDir, p.Key()+"-"+lv.App.Name+"-"+name+".log")
		in, err := sv.Start(ctx, service.Setup{Pin: s.Pin.Server, LogPath: log})
		if err != nil {
			s.StopServicesOf(lv)
			return nil, fmt.Errorf("%s did not start: %w", name, err)
		}
		s.instances = append(s.instances, in)
		lv.Services = append(lv.Services, in)
		if v := in.Version(); v != "" {
			if lv.Row.Dependencies == nil {
				lv.Row.Dependencies = map[string]string{}
			}
			lv.Row.Dependencies[in.Program()] = v
		}
		s.Logf("%-6s %-24s %s %s on %s (pid %d)", name, lv.App.Name, in.Program(), in.Version(), in.Addr(), in.Pid())
		env = append(env, in.Env()...)
	}
	return env, nil
}

// StopServicesOf stops lv's service instances by PID.
func (s *Session) StopServicesOf(lv *Live) {
	for _, in := range lv.Services {
		in.Stop()
		s.Logf("stop   %-24s %s (pid %d)", lv.App.Name, in.Program(), in.Pid())
	}
	lv.Services = nil
}

// AppEnv is the environment p's apps start with beyond their stack's: the
// certificate of a TLS comparison.
func (s *Session) AppEnv(p *Planned) []string {
	if p.Ep.TLS && s.cert != nil {
		return s.cert.Env()
	}
	return nil
}

// Verify checks the server at url against the contract and returns the
// headers the load will carry: the comparison's own (Endpoint.Headers) and,
// for the cookie-keeping variant of a sessions comparison (whose cookie it
// also sends back once), the Cookie header. For a TLS comparison the
// request goes over p's protocol, which the server must negotiate by ALPN
// (every load of the comparison's is checked when p has no variant).
func (s *Session) Verify(url string, p *Planned) ([]string, error) {
	client := s.Client
	if p.Ep.TLS {
		if s.cert == nil {
			return nil, errors.New("runner: a TLS comparison without a certificate")
		}
		protocols := []string{p.Protocol}
		if p.Protocol == "" {
			protocols = nil
			for _, l := range loadsOf(p.Ep) {
				protocols = append(protocols, l.Protocol)
			}
		}
		for _, proto := range protocols {
			client = s.cert.Client(proto)
			client.Timeout = s.Client.Timeout
			if _, err := benchtest.VerifyWithCookies(client, url, p.Ep, nil); err != nil {
				return nil, fmt.Errorf("over %s: %w", proto, err)
			}
		}
	}
	cookies, err := benchtest.VerifyWithCookies(client, url, p.Ep, nil)
	if err != nil {
		return nil, err
	}
	if !p.Ep.SetCookie {
		return p.Ep.Headers, nil
	}
	if _, err := benchtest.VerifyWithCookies(client, url, p.Ep, cookies); err != nil {
		return nil, fmt.Errorf("sending the session cookie back: %w", err)
	}
	if p.Variant != VariantCookieKeeping {
		return p.Ep.Headers, nil
	}
	parts := make([]string, len(cookies))
	for i, c := range cookies {
		parts[i] = c.Name + "=" + c.Value
	}
	return append(append([]string(nil), p.Ep.Headers...), "Cookie: "+strings.Join(parts, "; ")), nil
}

// GOMAXPROCS returns the GOMAXPROCS the Go apps run with: -gomaxprocs, or
// Go's default, the number of CPUs in the affinity mask (the server CPUs
// when pinned) lowered, since Go 1.25, to the cgroup CPU limit of the
// constrained profile rounded up, but not below 2.
func (s *Session) GOMAXPROCS() int {
	return gomaxprocs(s.Cfg, s.Pin.Pinned(), s.Limiter != nil && s.Limiter.Method() != "none")
}

// gomaxprocs is GOMAXPROCS for cfg when the servers are pinned and when
// the constrained profile's CPU limit applies.
func gomaxprocs(cfg *Config, pinned, limited bool) int {
	if cfg.GOMAXPROCS > 0 {
		return cfg.GOMAXPROCS
	}
	n := runtime.NumCPU()
	if cpus, err := proc.ParseCPUList(cfg.ServerCPUs); err == nil && len(cpus) > 0 && pinned {
		n = len(cpus)
	}
	if limited {
		limit := max(2, (cfg.CPUQuotaPercent+99)/100)
		n = min(n, limit)
	}
	return n
}

// Settings are the run's settings as the report records them.
func (s *Session) Settings() report.Settings {
	c := s.Cfg
	st := report.Settings{
		Mode: c.Mode, Quick: c.Quick, Repeats: c.Repeats, Connections: c.Connections, Requests: c.Requests,
		Warmup: c.Warmup.String(), Timeout: c.Timeout.String(),
		ServerCPUs: c.ServerCPUs, LoadCPUs: c.LoadCPUs, Pinned: s.Pin.Pinned(), PinNote: s.Pin.Note,
		GOMAXPROCS: s.GOMAXPROCS(), GOMAXPROCSSet: c.GOMAXPROCS > 0, NodeWorkers: c.NodeWorkers, Baseline: strings.Join(c.Baselines, ","),
		Apps: c.Apps, Profile: c.Profile, BasePort: c.BasePort, CookieMethod: CookieMethod,
		DotnetProperties: c.DotnetProperties,
	}
	if c.Duration > 0 {
		st.Duration = c.Duration.String()
	}
	// The -c every comparison used, when they share one (they do unless a
	// comparison brings its own); each comparison records its own too.
	if st.Connections == 0 {
		for i, p := range s.Plan {
			if i == 0 || p.Connections == st.Connections {
				st.Connections = p.Connections
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

// PortFree reports an error when something already listens on port, which
// would make the verify step talk to the wrong server.
func PortFree(port int) error {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	return ln.Close()
}
