// Processes the runner starts: servers and load generators.
//
// Every child runs in its own process group, so signals reach what it forked
// (node:cluster workers) and a terminal's Ctrl+C reaches only the runner,
// which then stops its children in order. A server is paused with SIGSTOP and
// resumed with SIGCONT (interleaved mode); stopping sends SIGCONT first (a
// stopped process cannot act on SIGTERM), then SIGTERM, and SIGKILL after a
// grace period. A Group remembers every server so that one deferred StopAll
// ends them on success, failure and cancellation alike.
package runner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// stopGrace is how long a server gets to exit after SIGTERM.
const stopGrace = 5 * time.Second

// setGroup puts cmd into its own process group and makes a cancelled
// context kill the whole group, not just the leader.
func setGroup(cmd *exec.Cmd) {
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

// Proc is a started server.
type Proc struct {
	Name string
	Port int
	cmd  *exec.Cmd

	mu      sync.Mutex
	lines   []string // the first stdout lines, until readiness
	ready   bool
	tail    []string // the last lines of stdout and stderr, for error messages
	changed chan struct{}
	done    chan struct{} // closed when the process has exited
	waitErr error
	paused  bool
	info    map[string]string // the settings of its runtime-info line
	cg      *cgroup           // nil unless the constrained profile placed it in one
}

// ProcSpec says what to start.
type ProcSpec struct {
	Name string
	Argv []string
	Env  []string // added to the runner's environment
	Dir  string
	Port int
	// Log, when set, receives everything the process prints.
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
func (g *Group) Start(ctx context.Context, spec ProcSpec, timeout time.Duration) (*Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("runner: empty command")
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(append(os.Environ(), spec.Env...), fmt.Sprintf("PORT=%d", spec.Port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p := &Proc{Name: spec.Name, Port: spec.Port, cmd: cmd, changed: make(chan struct{}), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("runner: starting %s: %w", spec.Name, err)
	}
	g.mu.Lock()
	g.procs = append(g.procs, p)
	g.mu.Unlock()

	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); p.read(stdout, spec.Log, true) }()
	go func() { defer pipes.Done(); p.read(stderr, spec.Log, false) }()
	go func() {
		pipes.Wait()
		err := cmd.Wait()
		if c, ok := spec.Log.(io.Closer); ok {
			c.Close()
		}
		p.mu.Lock()
		p.waitErr = err
		p.notifyLocked()
		p.mu.Unlock()
		close(p.done)
	}()

	if err := p.waitReady(ctx, timeout); err != nil {
		p.Stop()
		return nil, fmt.Errorf("runner: %s: %w\n%s", spec.Name, err, p.Output())
	}
	return p, nil
}

// Pid is the process id of the server (the leader of its process group).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// URL is the server's base URL.
func (p *Proc) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", p.Port) }

func (p *Proc) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// read copies one output stream line by line into log, keeps the stdout
// lines until readiness and a short tail of both for error messages.
func (p *Proc) read(r io.Reader, log io.Writer, isStdout bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		p.mu.Lock()
		if isStdout && !p.ready {
			p.lines = append(p.lines, strings.TrimRight(line, "\r"))
		}
		if info, ok := benchtest.ParseRuntimeInfo(line); ok && isStdout && p.info == nil {
			p.info = info
		}
		p.tail = append(p.tail, line)
		if len(p.tail) > 40 {
			p.tail = p.tail[len(p.tail)-40:]
		}
		p.notifyLocked()
		p.mu.Unlock()
	}
	// Keep draining after a scanner error (an over-long line) so the
	// process never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, r)
}

func (p *Proc) waitReady(ctx context.Context, timeout time.Duration) error {
	want := benchtest.ReadinessLines(p.Port)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		next := 0
		for _, line := range p.lines {
			if next < len(want) && line == want[next] {
				next++
			}
		}
		if next == len(want) {
			p.ready, p.lines = true, nil
		}
		ready, changed := p.ready, p.changed
		p.mu.Unlock()
		if ready {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("exited before printing the readiness lines (%v)", p.waitErr)
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return fmt.Errorf("no readiness lines %q within %v", want, timeout)
		}
	}
}

// RuntimeInfo returns the settings the server stated in its runtime-info
// line (benchtest.RuntimeInfoPrefix), or nil when it printed none so far.
func (p *Proc) RuntimeInfo() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.info
}

// Exited reports whether the server has exited, and its exit error.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.waitErr
	default:
		return false, nil
	}
}

// Output returns the last lines the server printed.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "last output:\n  " + strings.Join(p.tail, "\n  ")
}

// Pause stops the whole process group with SIGSTOP.
func (p *Proc) Pause() error {
	if err := syscall.Kill(-p.Pid(), syscall.SIGSTOP); err != nil {
		return fmt.Errorf("runner: pausing %s: %w", p.Name, err)
	}
	p.mu.Lock()
	p.paused = true
	p.mu.Unlock()
	return nil
}

// Resume continues the process group with SIGCONT.
func (p *Proc) Resume() error {
	if err := syscall.Kill(-p.Pid(), syscall.SIGCONT); err != nil {
		return fmt.Errorf("runner: resuming %s: %w", p.Name, err)
	}
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()
	return nil
}

// Stop ends the server and everything in its process group: SIGCONT (in
// case it is paused), SIGTERM, and SIGKILL after the grace period or when
// the leader exited leaving children behind. It waits for the leader and is
// safe to call more than once.
func (p *Proc) Stop() {
	pgid := p.Pid()
	select {
	case <-p.done:
	default:
		_ = syscall.Kill(-pgid, syscall.SIGCONT)
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(stopGrace):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-p.done
		}
	}
	// Workers that outlived their leader (or ignore SIGTERM) go too.
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if p.cg != nil {
		p.cg.remove()
		p.cg = nil
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
