// Package health serves liveness and readiness probes with registered
// checks, in the spirit of ASP.NET Core's health checks.
//
// A Checker holds two lists of checks: liveness checks, whose failure means
// the process is broken and should be restarted (most services register
// none: answering at all is the proof of life), and readiness checks, whose
// failure means the process should get no traffic for now (a database or
// the Redis session store that does not answer). A probe runs its list's
// checks concurrently, each with its own timeout under the request's
// context, waits for all of them (a check that ignores its context is given
// up at its timeout and reported as failed), and answers 200 when every
// check passed, 503 otherwise, with a JSON report:
//
//	{"status":"fail","checks":{"redis":{"status":"fail","duration":"1.001s","error":"context deadline exceeded"}}}
//
// Register mounts the probes at LivePath and ReadyPath. The otelvireo
// middleware leaves those paths out of traces and metrics by default.
package health

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/vireo-go/vireo/core"
)

// The paths Register mounts the probes at.
const (
	LivePath  = "/healthz"
	ReadyPath = "/readyz"
)

// DefaultTimeout is the timeout of a check registered without one and
// without WithTimeout.
const DefaultTimeout = 5 * time.Second

// CheckFunc checks one dependency; a nil error means it is healthy. It
// should return when ctx is done. (*sql.DB).PingContext and the Redis
// session store's Ping have this signature.
type CheckFunc func(ctx context.Context) error

// Checker runs the registered checks for the probes.
type Checker struct {
	live, ready []check
	timeout     time.Duration
}

type check struct {
	name    string
	fn      CheckFunc
	timeout time.Duration // 0: the Checker's
}

// Option configures a Checker.
type Option func(*Checker) error

// WithLiveCheck registers a liveness check: its failure makes LivePath
// answer 503. timeout 0 means the Checker's (WithTimeout).
func WithLiveCheck(name string, fn CheckFunc, timeout time.Duration) Option {
	return func(h *Checker) error {
		c, err := newCheck(name, fn, timeout)
		h.live = append(h.live, c)
		return err
	}
}

// WithReadyCheck registers a readiness check: its failure makes ReadyPath
// answer 503. timeout 0 means the Checker's (WithTimeout).
func WithReadyCheck(name string, fn CheckFunc, timeout time.Duration) Option {
	return func(h *Checker) error {
		c, err := newCheck(name, fn, timeout)
		h.ready = append(h.ready, c)
		return err
	}
}

// WithTimeout sets the timeout of the checks registered without one
// (default DefaultTimeout).
func WithTimeout(d time.Duration) Option {
	return func(h *Checker) error {
		if d <= 0 {
			return fmt.Errorf("health: WithTimeout: %v is not positive", d)
		}
		h.timeout = d
		return nil
	}
}

func newCheck(name string, fn CheckFunc, timeout time.Duration) (check, error) {
	switch {
	case name == "":
		return check{}, errors.New("health: a check needs a name")
	case fn == nil:
		return check{}, fmt.Errorf("health: check %q: nil function", name)
	case timeout < 0:
		return check{}, fmt.Errorf("health: check %q: negative timeout %v", name, timeout)
	}
	return check{name: name, fn: fn, timeout: timeout}, nil
}

// New returns a Checker with the given checks. It returns an error for a
// nil option, a check without a name or function, a negative timeout or
// two checks of the same name in one list.
func New(opts ...Option) (*Checker, error) {
	h := &Checker{timeout: DefaultTimeout}
	var errs []error
	for _, opt := range opts {
		if opt == nil {
			errs = append(errs, errors.New("health: nil Option"))
			continue
		}
		if err := opt(h); err != nil {
			errs = append(errs, err)
		}
	}
	for _, list := range [][]check{h.live, h.ready} {
		for i, c := range list {
			if c.name != "" && slices.ContainsFunc(list[:i], func(o check) bool { return o.name == c.name }) {
				errs = append(errs, fmt.Errorf("health: two checks named %q", c.name))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return h, nil
}

// MustNew is New that panics on error.
func MustNew(opts ...Option) *Checker {
	h, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// Registrar is what Register mounts the probes on: an Application or a
// Router.
type Registrar interface {
	Get(pattern string, handlers ...core.Handler) *core.Route
}

// Register mounts the liveness probe at LivePath and the readiness probe
// at ReadyPath (GET, and HEAD through GET).
func (h *Checker) Register(r Registrar) {
	r.Get(LivePath, h.LiveHandler())
	r.Get(ReadyPath, h.ReadyHandler())
}

// LiveHandler returns the handler of the liveness probe, for a path of
// one's own.
func (h *Checker) LiveHandler() core.Handler { return h.handler(h.live) }

// ReadyHandler returns the handler of the readiness probe, for a path of
// one's own.
func (h *Checker) ReadyHandler() core.Handler { return h.handler(h.ready) }

func (h *Checker) handler(checks []check) core.Handler {
	return func(ctx core.Context) {
		rep := h.run(ctx.Request().Context(), checks)
		ctx.SetResponseHeader("Cache-Control", "no-store")
		if rep.Status != StatusPass {
			ctx.SetStatus(http.StatusServiceUnavailable)
		}
		ctx.JSON(rep)
	}
}

// Live runs the liveness checks and returns their report.
func (h *Checker) Live(ctx context.Context) Report { return h.run(ctx, h.live) }

// Ready runs the readiness checks and returns their report.
func (h *Checker) Ready(ctx context.Context) Report { return h.run(ctx, h.ready) }

// The statuses of a report and of a check.
const (
	StatusPass = "pass"
	StatusFail = "fail"
)

// Report is the outcome of a probe: StatusPass when every check passed.
type Report struct {
	Status string                 `json:"status"`
	Checks map[string]CheckResult `json:"checks"`
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	Status   string `json:"status"`
	Duration string `json:"duration"`
	Error    string `json:"error,omitempty"`
}

// run runs checks concurrently and reports on them.
func (h *Checker) run(ctx context.Context, checks []check) Report {
	rep := Report{Status: StatusPass, Checks: make(map[string]CheckResult, len(checks))}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := h.runOne(ctx, c)
			mu.Lock()
			rep.Checks[c.name] = res
			if res.Status != StatusPass {
				rep.Status = StatusFail
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return rep
}

// runOne runs one check under its timeout. A check that does not return
// by then is reported as failed and left to finish on its own.
func (h *Checker) runOne(ctx context.Context, c check) CheckResult {
	timeout := c.timeout
	if timeout == 0 {
		timeout = h.timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if rec := recover(); rec != nil {
				done <- fmt.Errorf("panic: %v", rec)
			}
		}()
		done <- c.fn(ctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = fmt.Errorf("no answer within %v: %w", timeout, ctx.Err())
	}
	res := CheckResult{Status: StatusPass, Duration: time.Since(start).Round(time.Microsecond).String()}
	if err != nil {
		res.Status, res.Error = StatusFail, err.Error()
	}
	return res
}
