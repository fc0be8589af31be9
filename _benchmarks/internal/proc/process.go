// Package proc starts, pauses and stops the processes of a run (servers and
// the tools around them), reads their CPU time and memory from /proc, and
// places them on CPUs.
//
// This file: the processes the runner starts, servers and load generators.
//
// A server is a benchtest.Process, the one process type of the suite (its
// own process group; readiness lines; SIGSTOP/SIGCONT to pause and resume
// in interleaved mode; SIGCONT, SIGTERM, SIGKILL to stop). A Group
// remembers every server so that one deferred StopAll ends them on success,
// failure and cancellation alike. Build tools and bombardier run with
// exec.CommandContext in a process group of their own (SetGroup), so a
// cancelled context kills all they forked.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// stopGrace is how long a tool gets to exit after its context ended.
const stopGrace = benchtest.StopGrace

// SetGroup puts cmd into its own process group and makes a cancelled
// context kill the whole group, not just the leader.
func SetGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = stopGrace
}

// Limit is a group of limits a server runs in (package constrained).
type Limit interface {
	// MemoryPeak is the group's peak memory usage in bytes, 0 when unknown.
	MemoryPeak() int64
	// Remove deletes the group once its processes are gone.
	Remove()
}

// Proc is a started server: a benchtest.Process (the suite's one process
// type, shared with the apps' tests and the redis-servers) and, under the
// constrained profile, the cgroup it was placed in.
type Proc struct {
	*benchtest.Process
	// Limit is the CPU and memory limit the constrained profile placed
	// the server in; nil when it runs unconstrained.
	Limit Limit
}

// Spec says what to start.
type Spec struct {
	Name string
	Argv []string
	Env  []string // added to the runner's environment
	Dir  string
	Port int
	// TLS is set for a server that serves TLS (its readiness line says
	// https://).
	TLS bool
	// Log, when set, receives everything the process prints; it is closed
	// (when an io.Closer) once the process has exited.
	Log io.Writer
}

// Group is the set of servers a run started.
type Group struct {
	mu    sync.Mutex
	procs []*Proc
}

// Start starts spec's command with PORT set, registers it in g and waits up
// to timeout for the two readiness lines of the contract. A process that
// exits, prints nothing or is cancelled first is stopped and an error with
// its last output is returned.
func (g *Group) Start(ctx context.Context, spec Spec, timeout time.Duration) (*Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("proc: empty command")
	}
	bp, err := benchtest.Start(ctx, benchtest.Spec{Name: spec.Name, Argv: spec.Argv, Env: spec.Env, Dir: spec.Dir,
		Port: spec.Port, TLS: spec.TLS, Log: spec.Log}, timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("proc: %s: %w", spec.Name, ctx.Err())
		}
		return nil, fmt.Errorf("proc: %w", err)
	}
	p := &Proc{Process: bp}
	g.mu.Lock()
	g.procs = append(g.procs, p)
	g.mu.Unlock()
	return p, nil
}

// Stop ends the server and everything in its process group (see
// benchtest.Process.Stop) and removes its cgroup.
func (p *Proc) Stop() {
	p.Process.Stop()
	if p.Limit != nil {
		p.Limit.Remove()
		p.Limit = nil
	}
}

// StopAll stops every server of g, in parallel.
func (g *Group) StopAll() {
	g.mu.Lock()
	procs := g.procs
	g.procs = nil
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func(p *Proc) { defer wg.Done(); p.Stop() }(p)
	}
	wg.Wait()
}

// Remove stops p and forgets it.
func (g *Group) Remove(p *Proc) {
	p.Stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, q := range g.procs {
		if q == p {
			g.procs = append(g.procs[:i], g.procs[i+1:]...)
			break
		}
	}
}

// Tail returns the last n bytes of a tool's output s, marked with "..."
// when cut.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
