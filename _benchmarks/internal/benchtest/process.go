// This file starts an app as a child process and waits for it to be ready.
//
// Readiness is the contract's two stdout lines, not a polled port: an app is
// ready when it says so, and an app that never says so (or says something
// else) is a failure to report, not a thing to wait out silently. The child
// runs in its own process group so that Stop also ends what it forked
// (node:cluster workers, the dotnet host's children).
package benchtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Process is a started app.
type Process struct {
	Cmd  *exec.Cmd
	Port int

	mu      sync.Mutex
	stdout  []string // stdout lines, in order
	stderr  strings.Builder
	changed chan struct{} // closed and replaced whenever stdout grows or the process exits
	exited  bool
	waitErr error
	done    chan struct{} // closed when the process has exited
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// StartProcess starts cmd with PORT=port added to its environment (cmd.Env,
// or the current environment when that is nil) and waits up to timeout for
// the readiness lines. On any failure the process is stopped and the error
// includes what it printed.
func StartProcess(cmd *exec.Cmd, port int, timeout time.Duration) (*Process, error) {
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env, "PORT="+portString(port))
	setProcessGroup(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{Cmd: cmd, Port: port, changed: make(chan struct{}), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); p.readStdout(stdout) }()
	go func() { defer pipes.Done(); p.readStderr(stderr) }()
	go func() {
		pipes.Wait() // Wait must not run before the pipes are drained
		err := cmd.Wait()
		p.mu.Lock()
		p.exited, p.waitErr = true, err
		p.notifyLocked()
		p.mu.Unlock()
		close(p.done)
	}()
	if err := p.waitReady(timeout); err != nil {
		p.Stop()
		return nil, fmt.Errorf("%s: %w\n%s", cmd.Path, err, p.Output())
	}
	return p, nil
}

// notifyLocked wakes everyone waiting for a change; p.mu must be held.
func (p *Process) notifyLocked() {
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *Process) readStdout(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		p.mu.Lock()
		p.stdout = append(p.stdout, sc.Text())
		p.notifyLocked()
		p.mu.Unlock()
	}
}

func (p *Process) readStderr(r io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		p.mu.Lock()
		p.stderr.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// waitReady waits until stdout holds the readiness lines in order.
func (p *Process) waitReady(timeout time.Duration) error {
	want := ReadinessLines(p.Port)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		next := 0
		for _, line := range p.stdout {
			if next < len(want) && strings.TrimRight(line, "\r") == want[next] {
				next++
			}
		}
		exited, changed := p.exited, p.changed
		p.mu.Unlock()
		switch {
		case next == len(want):
			return nil
		case exited:
			return errors.New("exited before printing the readiness lines")
		}
		select {
		case <-changed:
		case <-deadline.C:
			return fmt.Errorf("no readiness lines %q within %v", want, timeout)
		}
	}
}

// Stdout returns the lines the process printed to stdout so far.
func (p *Process) Stdout() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.stdout...)
}

// Stderr returns what the process wrote to stderr so far.
func (p *Process) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// Output returns stdout and stderr so far, for error messages.
func (p *Process) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "stdout:\n" + strings.Join(p.stdout, "\n") + "\nstderr:\n" + p.stderr.String()
}

// URL returns the base URL of the app, http://127.0.0.1:<port>.
func (p *Process) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", p.Port) }

// Stop asks the process group to terminate, kills it after five seconds, and
// waits for the process to exit. It is safe to call more than once.
func (p *Process) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	signalGroup(p.Cmd, false)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		signalGroup(p.Cmd, true)
		<-p.done
	}
}
