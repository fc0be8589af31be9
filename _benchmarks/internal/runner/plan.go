// The plan of a run: which comparisons (and their variants) run, which apps
// each has, which app is the baseline, and the load of each run, taken from
// expected/endpoints.json and overridden by the flags.
//
// A comparison declares its load in endpoints.json: "bombardier": "-c 125
// -n 1000000" for one bombardier load, or "loads" for several, each a
// variant keyed <comparison>-<name> with its own generator, protocol and
// arguments (the h2 comparison: HTTP/1.1 over TLS, HTTP/2 with 1 and 16
// streams per connection). A comparison whose first answer sets a cookie
// runs as two variants instead: cookie-less and cookie-keeping.
package runner

import (
	"fmt"
	"sort"
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

// QuickH2loadRequests is the request count of an h2load run in quick
// mode (-quick without -d or -n): a second or less on a loaded 2-core
// machine.
const QuickH2loadRequests = 20000

// Planned is one comparison (or one of its variants) to run.
type Planned struct {
	Name, Variant string
	Ep            benchtest.Endpoint
	Apps          []string
	// Unsupported are the apps the comparison reports as not supporting
	// it (endpoints.json's "unsupported"), sorted; they are never built.
	Unsupported []string
	Baseline    string
	// Generator is the load generator's name (load.New); Protocol what the
	// load must speak ("" for bombardier's plain HTTP/1.1); Streams
	// h2load's -m.
	Generator   string
	Protocol    string
	Streams     int
	Connections int
	Requests    int64
	Duration    time.Duration
}

// Key is the comparison's name with its variant, used in file names.
func (p *Planned) Key() string {
	if p.Variant == "" {
		return p.Name
	}
	return p.Name + "-" + p.Variant
}

// parseLoad reads -c, -n and (for h2load) -m from a load's arguments, such
// as "-c 125 -n 1000000" or "-c 32 -m 16 -n 1000000".
func parseLoad(s string) (c, m int, n int64, err error) {
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return 0, 0, 0, fmt.Errorf("runner: load arguments %q: a flag without a value", s)
	}
	for i := 0; i+1 < len(f); i += 2 {
		switch f[i] {
		case "-c":
			c, err = strconv.Atoi(f[i+1])
		case "-m":
			m, err = strconv.Atoi(f[i+1])
		case "-n":
			n, err = strconv.ParseInt(f[i+1], 10, 64)
		default:
			err = fmt.Errorf("unexpected argument %q", f[i])
		}
		if err != nil {
			return 0, 0, 0, fmt.Errorf("runner: load arguments %q: %v", s, err)
		}
	}
	if c <= 0 || n <= 0 || m < 0 {
		return 0, 0, 0, fmt.Errorf("runner: load arguments %q lack -c or -n", s)
	}
	return c, m, n, nil
}

// loadsOf returns the loads of ep: its "loads", or the one bombardier load
// of its "bombardier" arguments.
func loadsOf(ep benchtest.Endpoint) []benchtest.Load {
	if len(ep.Loads) > 0 {
		return ep.Loads
	}
	return []benchtest.Load{{Generator: "bombardier", Args: ep.Bombardier}}
}

// makePlan builds the comparisons cfg asks for from the contract.
func makePlan(cfg *Config, contract *benchtest.Contract) ([]Planned, error) {
	filter := map[string]bool{}
	for _, a := range cfg.Apps {
		filter[a] = true
	}
	known := map[string]bool{}
	var plan []Planned
	for _, name := range cfg.Comparisons {
		ep, ok := contract.Comparisons[name]
		if !ok {
			return nil, fmt.Errorf("runner: expected/endpoints.json has no comparison %q", name)
		}
		var apps []string
		for _, a := range ep.Apps {
			known[a] = true
			if len(filter) == 0 || filter[a] {
				apps = append(apps, a)
			}
		}
		var unsupported []string
		for a := range ep.Unsupported {
			known[a] = true
			if len(filter) == 0 || filter[a] {
				unsupported = append(unsupported, a)
			}
		}
		sort.Strings(unsupported)
		if len(apps) == 0 {
			continue
		}
		loads := loadsOf(ep)
		for _, l := range loads {
			c, m, n, err := parseLoad(l.Args)
			if err != nil {
				return nil, err
			}
			p := Planned{Name: name, Ep: ep, Apps: apps, Unsupported: unsupported, Baseline: baselineOf(ep.Apps, cfg.Baselines),
				Generator: l.Generator, Protocol: l.Protocol, Streams: m, Connections: c, Requests: n}
			if len(loads) > 1 {
				p.Variant = l.Name
			}
			if cfg.Connections > 0 {
				p.Connections = cfg.Connections
			}
			switch {
			case cfg.quickDuration && l.Generator == "h2load":
				// h2load 1.52 can abort at the end of a timed run
				// (libev's epoll_modify assertion after it stopped
				// its clients, seen at -m 16 against net/http's HTTP/2
				// and the h2 module alike), so its quick runs count
				// requests instead.
				p.Requests = QuickH2loadRequests
			case cfg.Duration > 0:
				p.Requests, p.Duration = 0, cfg.Duration
			case cfg.Requests > 0:
				p.Requests = cfg.Requests
			}
			// A sessions comparison (its first answer sets a cookie) runs
			// twice: without cookies, as the original did, and keeping one.
			if ep.SetCookie {
				for _, v := range []string{VariantCookieLess, VariantCookieKeeping} {
					q := p
					q.Variant = v
					plan = append(plan, q)
				}
				continue
			}
			plan = append(plan, p)
		}
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
