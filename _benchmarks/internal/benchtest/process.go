// This file holds the one process type of the suite: every app, redis-server
// and test child that the runner or a test starts is a Process.
//
// A Process runs in its own process group, so signals reach what it forked
// (node:cluster workers, the dotnet host's children) and a terminal's Ctrl+C
// reaches only the runner, which then stops its children in order. It is
// ready when it says so: by default when its stdout holds the contract's two
// readiness lines for its port (an app that never prints them, or exits
// first, is a failure to report, not a thing to wait out silently); a
// server with no such lines (redis-server) gives a Poll function instead,
// tried every 20ms. Its output is read line by line: copied to Spec.Log,
// the first lines of stdout and stderr kept for the contract checks, the
// last lines of both kept for error messages, and its runtime-info line
// remembered.
//
// Pause and Resume send SIGSTOP and SIGCONT to the group (interleaved runs).
// Stop sends SIGCONT first (a stopped process cannot act on SIGTERM), then
// SIGTERM, SIGKILL after a grace period, and finally SIGKILL to whatever of
// the group outlived its leader; it waits for the leader and is safe to
// call more than once.
package benchtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// StopGrace is how long a process gets to exit after SIGTERM before it is
// killed.
const StopGrace = 5 * time.Second

// Limits of what a Process keeps of its output.
const (
	keepHeadLines = 64       // first stdout lines (readiness, runtime info, stray log lines)
	keepStderr    = 64 << 10 // first bytes of stderr
	keepTailLines = 40       // last lines of both, for error messages
)

// pollInterval is the pause between two readiness polls (Spec.Poll).
const pollInterval = 20 * time.Millisecond

// Spec says what to start.
type Spec struct {
	// Name names the process in errors.
	Name string
	// Argv is the command and its arguments (a taskset or systemd-run
	// prefix included).
	Argv []string
	// Env is added to the current environment.
	Env []string
	// Dir is the working directory; empty for the current one.
	Dir string
	// Port, when positive, is passed as PORT and is where the readiness
	// lines say the process listens.
	Port int
	// TLS is set for a server that serves TLS: its readiness line says
	// https:// (ReadinessLinesTLS) and URL gives an https:// address.
	TLS bool
	// Log, when set, receives every line the process prints; when it is an
	// io.Closer it is closed once the process has exited or failed to
	// start.
	Log io.Writer
	// Poll, when set, replaces the readiness lines: the process is ready
	// once Poll returns nil.
	Poll func(p *Process) error
}

// Process is a started process.
type Process struct {
	// Name, Port and TLS are Spec's.
	Name string
	Port int
	TLS  bool
	cmd  *exec.Cmd

	mu       sync.Mutex
	head     []string // the first stdout lines
	stderr   strings.Builder
	tail     []string // the last lines of stdout and stderr
	info     map[string]string
	changed  chan struct{} // closed and replaced whenever output grows or the process exits
	exited   bool
	waitErr  error
	done     chan struct{} // closed when the process has exited
	stopOnce sync.Once
}

// Start starts spec's command and waits up to timeout, or until ctx ends,
// for it to be ready. On any failure the process (group) is stopped and the
// error carries what it printed last; a cancelled ctx gives an error that
// wraps ctx.Err().
func Start(ctx context.Context, spec Spec, timeout time.Duration) (*Process, error) {
	closeLog := func() {
		if c, ok := spec.Log.(io.Closer); ok {
			c.Close()
		}
	}
	if len(spec.Argv) == 0 {
		closeLog()
		return nil, errors.New("benchtest: empty command")
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	if spec.Port > 0 {
		cmd.Env = append(cmd.Env, "PORT="+strconv.Itoa(spec.Port))
	}
	setProcessGroup(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		closeLog()
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		closeLog()
		return nil, err
	}
	p := &Process{Name: spec.Name, Port: spec.Port, TLS: spec.TLS, cmd: cmd, changed: make(chan struct{}), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		closeLog()
		return nil, fmt.Errorf("starting %s: %w", spec.Name, err)
	}
	var log io.Writer
	if spec.Log != nil {
		log = &lockedWriter{w: spec.Log}
	}
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); p.read(stdout, log, true) }()
	go func() { defer pipes.Done(); p.read(stderr, log, false) }()
	go func() {
		pipes.Wait() // Wait must not run before the pipes are drained
		err := cmd.Wait()
		closeLog()
		p.mu.Lock()
		p.exited, p.waitErr = true, err
		p.notifyLocked()
		p.mu.Unlock()
		close(p.done)
	}()
	if err := p.waitReady(ctx, spec.Poll, timeout); err != nil {
		p.Stop()
		return nil, fmt.Errorf("%s: %w\n%s", spec.Name, err, p.Output())
	}
	return p, nil
}

// lockedWriter serializes the writes of the stdout and stderr readers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// notifyLocked wakes everyone waiting for a change; p.mu must be held.
func (p *Process) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// read copies one output stream line by line into log and keeps what
// Stdout, Stderr, Output and RuntimeInfo return.
func (p *Process) read(r io.Reader, log io.Writer, isStdout bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if log != nil {
			fmt.Fprintln(log, line)
		}
		p.mu.Lock()
		if isStdout {
			if len(p.head) < keepHeadLines {
				p.head = append(p.head, line)
			}
			if info, ok := ParseRuntimeInfo(line); ok && p.info == nil {
				p.info = info
			}
		} else if p.stderr.Len() < keepStderr {
			p.stderr.WriteString(line)
			p.stderr.WriteByte('\n')
		}
		p.tail = append(p.tail, line)
		if len(p.tail) > keepTailLines {
			p.tail = p.tail[len(p.tail)-keepTailLines:]
		}
		p.notifyLocked()
		p.mu.Unlock()
	}
	// Keep draining after a scanner error (an over-long line) so the
	// process never blocks on a full pipe.
	_, _ = io.Copy(io.Discard, r)
}

// waitReady waits until the readiness lines are on stdout (or poll returns
// nil), the process exits, ctx ends or timeout passes.
func (p *Process) waitReady(ctx context.Context, poll func(*Process) error, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	want := ReadinessLines(p.Port)
	if p.TLS {
		want = ReadinessLinesTLS(p.Port)
	}
	var pollErr error
	for {
		p.mu.Lock()
		ready := false
		if poll == nil {
			next := 0
			for _, line := range p.head {
				if next < len(want) && line == want[next] {
					next++
				}
			}
			ready = next == len(want)
		}
		exited, waitErr, changed := p.exited, p.waitErr, p.changed
		p.mu.Unlock()
		if poll != nil && !exited {
			if pollErr = poll(p); pollErr == nil {
				ready = true
			}
		}
		switch {
		case ready:
			return nil
		case exited && poll != nil:
			return fmt.Errorf("exited before answering (%v)", waitErr)
		case exited:
			return fmt.Errorf("exited before printing the readiness lines (%v)", waitErr)
		}
		var tick <-chan time.Time
		if poll != nil {
			tick = time.After(pollInterval)
		}
		select {
		case <-changed:
		case <-tick:
		case <-ctx.Done():
			return fmt.Errorf("waiting for readiness: %w", ctx.Err())
		case <-deadline.C:
			if poll != nil {
				return fmt.Errorf("not ready within %v: %v", timeout, pollErr)
			}
			return fmt.Errorf("no readiness lines %q within %v", want, timeout)
		}
	}
}

// Pid is the process id of the process, the leader of its group.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// URL is the base URL of a server, http://127.0.0.1:<port> (https:// for
// a TLS server).
func (p *Process) URL() string {
	if p.TLS {
		return fmt.Sprintf("https://127.0.0.1:%d", p.Port)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", p.Port)
}

// Stdout returns the first lines the process printed to stdout (up to 64).
func (p *Process) Stdout() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.head...)
}

// Stderr returns what the process wrote to stderr (its first 64 KiB).
func (p *Process) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// Output returns the last lines the process printed, for error messages.
func (p *Process) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "last output of " + p.Name + ":\n  " + strings.Join(p.tail, "\n  ")
}

// RuntimeInfo returns the settings of the process's runtime-info line
// (RuntimeInfoPrefix), or nil when it printed none so far.
func (p *Process) RuntimeInfo() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.info
}

// Exited reports whether the process has exited, and its exit error.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.waitErr
	default:
		return false, nil
	}
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pause stops the whole process group with SIGSTOP.
func (p *Process) Pause() error {
	if err := signalGroup(p.Pid(), sigStop); err != nil {
		return fmt.Errorf("pausing %s: %w", p.Name, err)
	}
	return nil
}

// Resume continues the process group with SIGCONT.
func (p *Process) Resume() error {
	if err := signalGroup(p.Pid(), sigCont); err != nil {
		return fmt.Errorf("resuming %s: %w", p.Name, err)
	}
	return nil
}

// Stop ends the process and everything in its group: SIGCONT (in case it
// is paused), SIGTERM, and SIGKILL after StopGrace or when the leader
// exited leaving children behind. It waits for the leader and is safe to
// call more than once, also concurrently.
func (p *Process) Stop() {
	if p == nil {
		return
	}
	p.stopOnce.Do(func() {
		pid := p.Pid()
		select {
		case <-p.done:
		default:
			_ = signalGroup(pid, sigCont)
			_ = signalGroup(pid, sigTerm)
			select {
			case <-p.done:
			case <-time.After(StopGrace):
				_ = signalGroup(pid, sigKill)
				<-p.done
			}
		}
		// Workers that outlived their leader (or ignore SIGTERM) go too.
		_ = signalGroup(pid, sigCont)
		_ = signalGroup(pid, sigKill)
	})
	<-p.done
}
