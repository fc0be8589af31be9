// Package runner is the core every kind of measurement runs on (packages
// throughput, instructions, footprint): the run's configuration, the plan
// drawn from expected/endpoints.json, and the Session that builds the apps
// (package stack), starts them pinned to their own CPUs (package proc;
// optionally limited, package constrained) with the services they need
// (package service) and the certificate of a TLS comparison, verifies their
// responses against expected/, prepares the load generators (package load)
// and writes the report. `bench verify` is here too.
//
// This file holds the run's configuration, its defaults and their checks.
package runner

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/service"
)

// Modes of a run.
const (
	// ModeInterleaved starts every app of a comparison, pauses all but one
	// with SIGSTOP and measures one app after the other in each round, so
	// that the apps of a round see the same machine.
	ModeInterleaved = "interleaved"
	// ModeSequential measures each app's runs back to back, starting one
	// app at a time.
	ModeSequential = "sequential"
)

// Profiles of a run.
const (
	ProfileDefault = "default"
	// ProfileConstrained limits the server to a share of a CPU and a memory
	// maximum, like docker's `cpus: 0.40, mem_limit: 256m`.
	ProfileConstrained = "constrained"
)

// Comparisons is the order comparisons run and appear in the report.
var Comparisons = []string{"simple", "mvc", "templates", "sessions", "sessions-redis", "middleware", "otel", "h2", "json"}

// Config is everything a run needs to know.
type Config struct {
	// Root is the directory of the _benchmarks module.
	Root string
	// OutDir receives results.json, RESULTS.md and the charts.
	OutDir string
	// Comparisons to run, in the order of the package-level Comparisons
	// when empty.
	Comparisons []string
	// Apps restricts the run to these apps when not empty.
	Apps []string
	// Baselines overrides the baseline of every comparison that contains
	// one of these apps; the default baseline is the comparison's Vireo app.
	Baselines []string

	Mode    string
	Profile string
	Quick   bool
	Repeats int
	// Connections overrides the comparison's -c when positive.
	Connections int
	// Requests overrides the comparison's -n when positive.
	Requests int64
	// quickDuration: Duration is the quick mode's default, not a flag.
	quickDuration bool
	// Duration, when positive, makes every run a timed run (-d) instead of a
	// fixed number of requests.
	Duration time.Duration
	// Warmup is the load an app gets after it started, before its first
	// measured run; Rewarm the load before every run in interleaved
	// mode, after the app was resumed.
	Warmup, Rewarm time.Duration
	// WarmupRequests is the number of requests an app gets before its
	// instructions are counted (instructions runs only).
	WarmupRequests int64
	// Timeout is bombardier's per-request timeout (-t).
	Timeout time.Duration
	// StartTimeout bounds the wait for an app's readiness lines.
	StartTimeout time.Duration

	ServerCPUs, LoadCPUs string
	GOMAXPROCS           int
	NodeWorkers          int
	// DotnetProperties are MSBuild properties (Name=Value) given to every
	// dotnet publish as -p:Name=Value, for example PublishReadyToRun=true
	// or TieredPGO=false; none by default.
	DotnetProperties []string
	// CPUQuotaPercent and MemoryMax are the limits of the constrained profile.
	CPUQuotaPercent int
	MemoryMax       int64
	// BasePort is the port of a comparison's first app, the next app gets
	// the next port; zero picks free ports.
	BasePort int

	// Services, when set, replaces the services of these names
	// (service.Lookup); tests use it to play a machine without one.
	Services map[string]service.Service

	// Log receives the progress output.
	Log io.Writer
	// Command is the command line recorded in the report.
	Command string
}

// Defaults fills the zero fields of c with the defaults of a full run, or of a
// quick run when c.Quick is set.
func (c *Config) Defaults() {
	if c.Mode == "" {
		c.Mode = ModeInterleaved
	}
	if c.Profile == "" {
		c.Profile = ProfileDefault
	}
	if len(c.Comparisons) == 0 {
		c.Comparisons = append([]string(nil), Comparisons...)
	}
	if c.Quick {
		if c.Repeats == 0 {
			c.Repeats = 1
		}
		if c.Duration == 0 && c.Requests == 0 {
			c.Duration = 2 * time.Second
			c.quickDuration = true
		}
		// bombardier's shortest timed run is one second.
		if c.Warmup == 0 {
			c.Warmup = time.Second
		}
		if c.Rewarm == 0 {
			c.Rewarm = time.Second
		}
	}
	if c.Repeats == 0 {
		c.Repeats = 3
	}
	if c.Warmup == 0 {
		c.Warmup = 5 * time.Second
	}
	if c.Rewarm == 0 {
		c.Rewarm = time.Second
	}
	if c.Timeout == 0 {
		c.Timeout = 2 * time.Second // bombardier's default, as in the original runs
	}
	if c.StartTimeout == 0 {
		c.StartTimeout = 60 * time.Second
	}
	if c.ServerCPUs == "" && c.LoadCPUs == "" {
		c.ServerCPUs, c.LoadCPUs = proc.DefaultCPUSplit(runtime.NumCPU())
	}
	if c.NodeWorkers == 0 {
		c.NodeWorkers = 1
		if cpus, err := proc.ParseCPUList(c.ServerCPUs); err == nil && len(cpus) > 0 {
			c.NodeWorkers = len(cpus)
		}
	}
	if c.CPUQuotaPercent == 0 {
		c.CPUQuotaPercent = 40
	}
	if c.MemoryMax == 0 {
		c.MemoryMax = 256 << 20
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// Validate reports the first setting that cannot work.
func (c *Config) Validate() error {
	switch {
	case c.Root == "":
		return errors.New("runner: no module root")
	case c.Mode != ModeInterleaved && c.Mode != ModeSequential:
		return fmt.Errorf("runner: mode %q: want %s or %s", c.Mode, ModeInterleaved, ModeSequential)
	case c.Profile != ProfileDefault && c.Profile != ProfileConstrained:
		return fmt.Errorf("runner: profile %q: want %s or %s", c.Profile, ProfileDefault, ProfileConstrained)
	case c.Repeats < 1:
		return fmt.Errorf("runner: repeats must be at least 1, got %d", c.Repeats)
	case c.Connections < 0 || c.Requests < 0 || c.Duration < 0:
		return errors.New("runner: connections, requests and duration must not be negative")
	case tooShort(c.Duration) || tooShort(c.Warmup) || tooShort(c.Rewarm):
		return errors.New("runner: bombardier's timed runs last at least 1s: -d, -warmup and -rewarm must be 0 or >= 1s")
	case c.Requests > 0 && c.Duration > 0:
		return errors.New("runner: give a request count or a duration, not both")
	case c.GOMAXPROCS < 0 || c.NodeWorkers < 1:
		return errors.New("runner: GOMAXPROCS must not be negative and the Node worker count must be positive")
	case c.CPUQuotaPercent < 1 || c.MemoryMax < 16<<20:
		return errors.New("runner: the constrained profile needs a CPU quota of at least 1% and at least 16 MiB of memory")
	case c.BasePort < 0 || c.BasePort > 65535-32:
		return fmt.Errorf("runner: base port %d out of range", c.BasePort)
	}
	for _, prop := range c.DotnetProperties {
		if name, _, ok := strings.Cut(prop, "="); !ok || name == "" || strings.ContainsAny(prop, " ;") {
			return fmt.Errorf("runner: dotnet property %q: want Name=Value without spaces or ';'", prop)
		}
	}
	for _, name := range c.Comparisons {
		if !isComparison(name) {
			return fmt.Errorf("runner: unknown comparison %q (have %v)", name, Comparisons)
		}
	}
	if c.ServerCPUs != "" || c.LoadCPUs != "" {
		if _, _, err := proc.CheckCPUSplit(c.ServerCPUs, c.LoadCPUs, runtime.NumCPU()); err != nil {
			return err
		}
	}
	return nil
}

func tooShort(d time.Duration) bool { return d > 0 && d < time.Second }

func isComparison(name string) bool {
	for _, c := range Comparisons {
		if c == name {
			return true
		}
	}
	return false
}
