// The plan of a run: which comparisons (and sessions variants) run, which apps
// each has, which app is the baseline, and the load of each run, taken from
// expected/endpoints.json and overridden by the flags.
package runner

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// Variants of the sessions comparison.
const (
	// VariantCookieLess is the original run: bombardier keeps no cookies, so
	// every request creates a new session.
	VariantCookieLess = "cookie-less"
	// VariantCookieKeeping sends one session cookie, obtained before the
	// load, with every request.
	VariantCookieKeeping = "cookie-keeping"
)

// CookieMethod is how the cookie-keeping variant keeps cookies, as the
// report states it.
const CookieMethod = "bombardier -H 'Cookie: <name>=<value>' with the cookie of one session obtained by a GET /setget " +
	"before the load, so all connections share that session (the app reads and writes an existing session on " +
	"every request instead of creating one)"

// planned is one comparison (or sessions variant) to run.
type planned struct {
	name, variant string
	ep            benchtest.Endpoint
	apps          []string
	baseline      string
	connections   int
	requests      int64
	duration      time.Duration
}

func (p *planned) key() string {
	if p.variant == "" {
		return p.name
	}
	return p.name + "-" + p.variant
}

// parseLoad reads -c and -n from the contract's bombardier arguments, such
// as "-c 125 -n 1000000".
func parseLoad(s string) (int, int64, error) {
	f := strings.Fields(s)
	var c int
	var n int64
	for i := 0; i+1 < len(f); i += 2 {
		var err error
		switch f[i] {
		case "-c":
			c, err = strconv.Atoi(f[i+1])
		case "-n":
			n, err = strconv.ParseInt(f[i+1], 10, 64)
		default:
			err = fmt.Errorf("unexpected argument %q", f[i])
		}
		if err != nil {
			return 0, 0, fmt.Errorf("runner: bombardier arguments %q: %v", s, err)
		}
	}
	if c <= 0 || n <= 0 {
		return 0, 0, fmt.Errorf("runner: bombardier arguments %q lack -c or -n", s)
	}
	return c, n, nil
}

// makePlan builds the comparisons cfg asks for from the contract.
func makePlan(cfg *Config, contract *benchtest.Contract) ([]planned, error) {
	filter := map[string]bool{}
	for _, a := range cfg.Apps {
		filter[a] = true
	}
	known := map[string]bool{}
	var plan []planned
	for _, name := range cfg.Comparisons {
		ep, ok := contract.Comparisons[name]
		if !ok {
			return nil, fmt.Errorf("runner: expected/endpoints.json has no comparison %q", name)
		}
		c, n, err := parseLoad(ep.Bombardier)
		if err != nil {
			return nil, err
		}
		p := planned{name: name, ep: ep, connections: c, requests: n}
		if cfg.Connections > 0 {
			p.connections = cfg.Connections
		}
		switch {
		case cfg.Duration > 0:
			p.requests, p.duration = 0, cfg.Duration
		case cfg.Requests > 0:
			p.requests = cfg.Requests
		}
		for _, a := range ep.Apps {
			known[a] = true
			if len(filter) == 0 || filter[a] {
				p.apps = append(p.apps, a)
			}
		}
		if len(p.apps) == 0 {
			continue
		}
		p.baseline = baselineOf(ep.Apps, cfg.Baselines)
		// A sessions comparison (its first answer sets a cookie) runs
		// twice: without cookies, as the original did, and keeping one.
		if ep.SetCookie {
			for _, v := range []string{VariantCookieLess, VariantCookieKeeping} {
				q := p
				q.variant = v
				plan = append(plan, q)
			}
			continue
		}
		plan = append(plan, p)
	}
	for _, a := range cfg.Apps {
		if !known[a] {
			return nil, fmt.Errorf("runner: app %q is in none of the comparisons %v", a, cfg.Comparisons)
		}
	}
	if len(plan) == 0 {
		return nil, fmt.Errorf("runner: nothing to run: no app of %v passes the app filter %v", cfg.Comparisons, cfg.Apps)
	}
	return plan, nil
}

// baselineOf returns the first of overrides that is an app of the
// comparison, else the comparison's Vireo app, else its first app.
func baselineOf(apps, overrides []string) string {
	for _, o := range overrides {
		for _, a := range apps {
			if a == o {
				return a
			}
		}
	}
	for _, a := range apps {
		if strings.HasPrefix(a, "vireo") {
			return a
		}
	}
	return apps[0]
}
