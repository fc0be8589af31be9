// This file starts and stops the throwaway redis-server that the Redis
// sessions comparison needs, for the runner and for the apps' tests alike.
//
// The server listens on 127.0.0.1 only, on a port chosen by the caller,
// without persistence (no RDB snapshots, no append-only file), so a run
// leaves nothing on disk and measures the store, not the disk. It runs in
// its own process group, so a terminal's Ctrl+C reaches the runner alone,
// which then stops the server by its PID: SIGTERM, and SIGKILL after a grace
// period. Readiness is polled until a deadline,
// since redis-server prints no contract lines of its own: INFO must name
// the started process, so a server already on the port is never mistaken
// for ours.
package benchtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RedisBinary is the name of the Redis server executable (Debian package
// redis-server) looked up in PATH.
const RedisBinary = "redis-server"

// RedisAddrEnv is the environment variable that passes the Redis address
// (host:port) to an app.
const RedisAddrEnv = "REDIS_ADDR"

// ErrNoRedis means redis-server is not installed; the runner reports its
// message as the skip reason of the apps that need it.
var ErrNoRedis = errors.New("redis-server not found")

// redisStopGrace is how long redis-server gets to exit after SIGTERM.
const redisStopGrace = 5 * time.Second

// LookRedis returns the path of redis-server, or ErrNoRedis.
func LookRedis() (string, error) {
	path, err := exec.LookPath(RedisBinary)
	if err != nil {
		return "", ErrNoRedis
	}
	return path, nil
}

// RedisArgs returns redis-server's arguments for a throwaway server on
// 127.0.0.1:port with no persistence, in the foreground, logging warnings
// only.
func RedisArgs(port int) []string {
	return []string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no",
		"--daemonize", "no", "--loglevel", "warning",
	}
}

var redisVersion = regexp.MustCompile(`v=(\S+)`)

// RedisVersion returns the version of the installed redis-server (such as
// "7.0.15"), or "" when it is missing.
func RedisVersion() string {
	path, err := LookRedis()
	if err != nil {
		return ""
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return ""
	}
	if m := redisVersion.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return strings.TrimSpace(string(out))
}

// Redis is a started redis-server.
type Redis struct {
	Port int
	cmd  *exec.Cmd

	mu      sync.Mutex
	tail    []string      // the last lines it printed, for error messages
	done    chan struct{} // closed when it has exited
	waitErr error
}

// StartRedis starts redis-server on 127.0.0.1:port, prefixed by prefix (for
// example a taskset command that pins it; the prefix must exec the server so
// that the PID is the server's), copying its output to log when not nil;
// log, when it is an io.Closer, is closed once the server has exited or
// could not be started. It waits up to timeout for the server to answer as
// itself; on failure the server is stopped and the error carries its last
// output. A missing binary gives ErrNoRedis.
func StartRedis(prefix []string, port int, log io.Writer, timeout time.Duration) (*Redis, error) {
	closeLog := func() {
		if c, ok := log.(io.Closer); ok {
			c.Close()
		}
	}
	path, err := LookRedis()
	if err != nil {
		closeLog()
		return nil, err
	}
	argv := append(append(append([]string(nil), prefix...), path), RedisArgs(port)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	// Nothing is written with persistence off; should a SHUTDOWN SAVE ever
	// come, it lands in the temporary directory, not the repository.
	cmd.Dir = os.TempDir()
	setProcessGroup(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		closeLog()
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	r := &Redis{Port: port, cmd: cmd, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		closeLog()
		return nil, fmt.Errorf("starting %s: %w", RedisBinary, err)
	}
	go func() {
		r.read(out, log)
		err := cmd.Wait()
		closeLog()
		r.mu.Lock()
		r.waitErr = err
		r.mu.Unlock()
		close(r.done)
	}()
	if err := r.waitReady(timeout); err != nil {
		r.Stop()
		return nil, fmt.Errorf("%s on %s: %w\n%s", RedisBinary, r.Addr(), err, r.Output())
	}
	return r, nil
}

func (r *Redis) read(out io.Reader, log io.Writer) {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		r.mu.Lock()
		r.tail = append(r.tail, line)
		if len(r.tail) > 20 {
			r.tail = r.tail[len(r.tail)-20:]
		}
		r.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, out)
}

// waitReady polls until the server answers as itself (a server already on
// the port would answer too, while ours exits), exits or the timeout
// passes.
func (r *Redis) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		pid, err := r.serverPid()
		if err == nil && pid == r.Pid() {
			return nil
		}
		select {
		case <-r.done:
			return fmt.Errorf("exited before answering (%v)", r.waitErr)
		default:
		}
		if err == nil {
			err = fmt.Errorf("the server on the port is process %d, not %d", pid, r.Pid())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready within %v: %v", timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverPid asks the server on r's port for its process id (INFO server).
func (r *Redis) serverPid() (int, error) {
	c, err := net.DialTimeout("tcp", r.Addr(), 200*time.Millisecond)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("INFO server\r\n")); err != nil {
		return 0, err
	}
	// The reply is one bulk string: $<length>\r\n<length bytes>\r\n.
	br := bufio.NewReader(c)
	head, err := br.ReadString('\n')
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if !strings.HasPrefix(head, "$") || err != nil || n < 0 {
		return 0, fmt.Errorf("unexpected reply %q", strings.TrimSpace(head))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, errors.New("INFO server has no process_id")
}

// Addr is the server's host:port, the value of REDIS_ADDR.
func (r *Redis) Addr() string { return "127.0.0.1:" + strconv.Itoa(r.Port) }

// Pid is the server's process id.
func (r *Redis) Pid() int { return r.cmd.Process.Pid }

// Output returns the last lines the server printed.
func (r *Redis) Output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "redis-server output:\n  " + strings.Join(r.tail, "\n  ")
}

// Exited reports whether the server has exited.
func (r *Redis) Exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// Stop ends the server by its PID: SIGTERM (with persistence off it exits
// without writing anything), and SIGKILL after a grace period; it waits for
// the exit and is safe to call more than once.
func (r *Redis) Stop() {
	if r == nil || r.Exited() {
		return
	}
	p := r.cmd.Process
	_ = p.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(redisStopGrace):
		_ = p.Kill()
		<-r.done
	}
}

// MustRedis starts a redis-server for a test on a free loopback port and
// stops it when the test ends. It skips the test, saying why, when
// redis-server is not installed.
func MustRedis(t testing.TB) *Redis {
	t.Helper()
	if _, err := LookRedis(); err != nil {
		t.Skipf("%v (Debian: apt-get install -y redis-server); skipping the test that needs Redis", err)
	}
	// Another process may take the free port before redis-server binds
	// it; a server that exits at once is retried on a new port.
	for attempt := 1; ; attempt++ {
		port, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		r, err := StartRedis(nil, port, nil, 10*time.Second)
		if err == nil {
			t.Cleanup(r.Stop)
			return r
		}
		if attempt == 3 {
			t.Fatal(err)
		}
	}
}
