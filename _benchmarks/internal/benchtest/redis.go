// This file starts and stops the throwaway redis-server that the Redis
// sessions comparison needs, for the runner and for the apps' tests alike.
//
// The server listens on 127.0.0.1 only, on a port chosen by the caller,
// without persistence (no RDB snapshots, no append-only file), so a run
// leaves nothing on disk and measures the store, not the disk. It runs in
// is a Process like every app (process.go): its own process group, so a
// terminal's Ctrl+C reaches the runner alone, which then stops it: SIGTERM,
// and SIGKILL after a grace period. Since redis-server prints no contract
// lines of its own, readiness is polled until a deadline: INFO must name the
// started process, so a server already on the port is never mistaken for
// ours.
package benchtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
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
	p    *Process
}

// RedisSpec returns the Spec of a redis-server on 127.0.0.1:port, prefixed
// by prefix (for example a taskset command that pins it; the prefix must
// exec the server so that the PID is the server's), copying its output to
// log when not nil. It is ready when the server on the port answers INFO
// with its own process id, so a server already on the port is never
// mistaken for it. A missing binary gives ErrNoRedis.
func RedisSpec(prefix []string, port int, log io.Writer) (Spec, error) {
	path, err := LookRedis()
	if err != nil {
		return Spec{}, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	return Spec{
		Name: RedisBinary + " on " + addr,
		Argv: append(append(append([]string(nil), prefix...), path), RedisArgs(port)...),
		// Nothing is written with persistence off; should a SHUTDOWN SAVE
		// ever come, it lands in the temporary directory, not the
		// repository.
		Dir: os.TempDir(),
		Log: log,
		Poll: func(p *Process) error {
			pid, err := serverPid(addr)
			if err == nil && pid != p.Pid() {
				err = fmt.Errorf("the server on the port is process %d, not %d", pid, p.Pid())
			}
			return err
		},
	}, nil
}

// StartRedis starts redis-server on 127.0.0.1:port (see RedisSpec) and waits
// up to timeout for it to answer as itself; log, when it is an io.Closer,
// is closed once the server has exited or could not be started. On failure
// the server is stopped and the error carries its last output.
func StartRedis(prefix []string, port int, log io.Writer, timeout time.Duration) (*Redis, error) {
	spec, err := RedisSpec(prefix, port, log)
	if err != nil {
		if c, ok := log.(io.Closer); ok {
			c.Close()
		}
		return nil, err
	}
	p, err := Start(context.Background(), spec, timeout)
	if err != nil {
		return nil, err
	}
	return &Redis{Port: port, p: p}, nil
}

// NewRedis returns the Redis of a redis-server started from RedisSpec(...,
// port, ...).
func NewRedis(p *Process, port int) *Redis { return &Redis{Port: port, p: p} }

// serverPid asks the server at addr for its process id (INFO server).
func serverPid(addr string) (int, error) {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
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
func (r *Redis) Pid() int { return r.p.Pid() }

// Output returns the last lines the server printed.
func (r *Redis) Output() string { return r.p.Output() }

// Exited reports whether the server has exited.
func (r *Redis) Exited() bool {
	exited, _ := r.p.Exited()
	return exited
}

// Stop ends the server (SIGTERM: with persistence off it exits without
// writing anything; SIGKILL after StopGrace) and waits for it; it is safe
// to call more than once, and on a nil Redis.
func (r *Redis) Stop() {
	if r != nil {
		r.p.Stop()
	}
}

// MustRedis starts a redis-server for a test on a free loopback port and
// stops it when the test ends. redis-server is installed when missing
// (testtool.Require: a failure under CI, a skip elsewhere).
func MustRedis(t testing.TB) *Redis {
	t.Helper()
	testtool.Require(t, RedisBinary)
	var port int
	p, err := StartOnFreePort(context.Background(), func(free int) (Spec, error) {
		port = free
		return RedisSpec(nil, free, nil)
	}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRedis(p, port)
	t.Cleanup(r.Stop)
	return r
}
