// Tests of the run plan drawn from expected/endpoints.json: loads, app
// filter, baselines, the two sessions variants, flag overrides.
package runner

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

func TestParseLoad(t *testing.T) {
	tests := []struct {
		in      string
		c       int
		n       int64
		wantErr bool
	}{
		{"-c 125 -n 1000000", 125, 1000000, false},
		{"-n 5000000 -c 125", 125, 5000000, false},
		{"-c 125", 0, 0, true},
		{"-c 125 -d 10s", 0, 0, true},
		{"-c x -n 1", 0, 0, true},
		{"-c 32 -m", 0, 0, true},
	}
	for _, tt := range tests {
		c, _, n, err := parseLoad(tt.in)
		if (err != nil) != tt.wantErr || c != tt.c || n != tt.n {
			t.Errorf("parseLoad(%q) = %d, %d, %v", tt.in, c, n, err)
		}
	}
}

func TestBaselineOf(t *testing.T) {
	apps := []string{"netcore", "vireo-mvc", "iris-mvc"}
	if got := baselineOf(apps, nil); got != "vireo-mvc" {
		t.Errorf("default baseline %q, want the vireo app", got)
	}
	if got := baselineOf(apps, []string{"nethttp", "iris-mvc"}); got != "iris-mvc" {
		t.Errorf("override baseline %q, want iris-mvc", got)
	}
	if got := baselineOf([]string{"a", "b"}, nil); got != "a" {
		t.Errorf("baseline without vireo %q, want the first app", got)
	}
}

func loadContract(t *testing.T) *benchtest.Contract {
	t.Helper()
	root, err := benchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	c, err := benchtest.LoadContract(root)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMakePlan(t *testing.T) {
	contract := loadContract(t)

	cfg := &Config{Root: "x"}
	cfg.Defaults()
	plan, err := makePlan(cfg, contract)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range plan {
		keys = append(keys, p.Key())
		if !strings.HasPrefix(p.Baseline, "vireo") {
			t.Errorf("%s: default baseline %q is not the vireo app", p.Key(), p.Baseline)
		}
		if p.Name == "h2" {
			if p.Generator != "h2load" || p.Connections != 32 || p.Requests < 1000000 || !p.Ep.TLS {
				t.Errorf("%s: %s -c %d -m %d -n %d, tls %v", p.Key(), p.Generator, p.Connections, p.Streams, p.Requests, p.Ep.TLS)
			}
			continue
		}
		if p.Generator != "bombardier" || p.Connections != 125 || p.Requests < 1000000 || p.Duration != 0 {
			t.Errorf("%s: load %s -c %d -n %d -d %v, want the original article's", p.Key(), p.Generator, p.Connections, p.Requests, p.Duration)
		}
	}
	want := []string{"simple", "mvc", "templates", "sessions-cookie-less", "sessions-cookie-keeping",
		"sessions-redis-cookie-less", "sessions-redis-cookie-keeping", "middleware", "otel", "h2-h1-tls", "h2-m1", "h2-m16", "json"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("plan %v, want %v", keys, want)
	}

	cfg = &Config{Root: "x", Quick: true, Apps: []string{"nethttp", "chi"}, Baselines: []string{"nethttp"}, Connections: 10}
	cfg.Defaults()
	plan, err = makePlan(cfg, contract)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 1 || plan[0].Name != "simple" || !reflect.DeepEqual(plan[0].Apps, []string{"nethttp", "chi"}) {
		t.Fatalf("filtered plan %+v", plan)
	}
	if p := plan[0]; p.Baseline != "nethttp" || p.Connections != 10 || p.Requests != 0 || p.Duration != 2*time.Second {
		t.Errorf("quick plan baseline %q -c %d -n %d -d %v", p.Baseline, p.Connections, p.Requests, p.Duration)
	}

	cfg = &Config{Root: "x", Quick: true, Comparisons: []string{"h2"}}
	cfg.Defaults()
	if plan, err = makePlan(cfg, contract); err != nil {
		t.Fatal(err)
	}
	for _, p := range plan {
		if p.Generator != "h2load" || p.Requests != QuickH2loadRequests || p.Duration != 0 {
			t.Errorf("quick %s: %s -n %d -d %v, want h2load -n %d (its timed runs can abort)", p.Key(), p.Generator, p.Requests, p.Duration, QuickH2loadRequests)
		}
	}
	cfg = &Config{Root: "x", Quick: true, Comparisons: []string{"h2"}, Duration: 3 * time.Second}
	cfg.Defaults()
	if plan, err = makePlan(cfg, contract); err != nil || plan[0].Duration != 3*time.Second {
		t.Errorf("quick h2 with -d 3s: %v %+v", err, plan)
	}

	for _, apps := range [][]string{{"no-such-app"}} {
		cfg = &Config{Root: "x", Apps: apps}
		cfg.Defaults()
		if _, err := makePlan(cfg, contract); err == nil {
			t.Errorf("apps %v accepted", apps)
		}
	}
	cfg = &Config{Root: "x", Apps: []string{"nethttp"}, Comparisons: []string{"mvc"}}
	cfg.Defaults()
	if _, err := makePlan(cfg, contract); err == nil {
		t.Error("an app filter matching nothing of the comparisons was accepted")
	}
}

func TestConfigValidate(t *testing.T) {
	valid := func() Config {
		c := Config{Root: "x"}
		c.Defaults()
		return c
	}
	tests := map[string]func(*Config){
		"mode":        func(c *Config) { c.Mode = "parallel" },
		"profile":     func(c *Config) { c.Profile = "tiny" },
		"repeats":     func(c *Config) { c.Repeats = -1 },
		"n and d":     func(c *Config) { c.Requests, c.Duration = 10, time.Second },
		"short d":     func(c *Config) { c.Duration = 500 * time.Millisecond },
		"short warm":  func(c *Config) { c.Warmup = 10 * time.Millisecond },
		"comparison":  func(c *Config) { c.Comparisons = []string{"graphql"} },
		"cpus":        func(c *Config) { c.ServerCPUs, c.LoadCPUs = "0", "0" },
		"memory":      func(c *Config) { c.MemoryMax = 1 << 20 },
		"no root":     func(c *Config) { c.Root = "" },
		"port":        func(c *Config) { c.BasePort = 70000 },
		"workers":     func(c *Config) { c.NodeWorkers = -2 },
		"negative -c": func(c *Config) { c.Connections = -1 },
	}
	c := valid()
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	for name, mutate := range tests {
		c := valid()
		mutate(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
