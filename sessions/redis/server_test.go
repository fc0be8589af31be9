// A redis-server child process for the tests: started on a free loopback
// port with append-only persistence in a temporary directory (so a killed
// and restarted server still has its data), stopped at the end of the
// test. testtool installs Debian's redis-server when it is missing (as
// root), and the tests skip, saying why, when it cannot be had (fail under
// CI=true).

package redis

import (
	"bytes"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
)

type redisServer struct {
	t testing.TB
	// persist turns on the append-only file, fsynced on every write, for
	// the tests that restart the server; benchmarks run without it.
	persist bool
	bin     string
	port    int
	dir     string
	cmd     *exec.Cmd
	out     bytes.Buffer
}

func (s *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// startRedis starts a server on a free port, or skips the test when
// redis-server is not installed.
func startRedis(t testing.TB) *redisServer { return startRedisWith(t, true) }

func startRedisWith(t testing.TB, persist bool) *redisServer {
	t.Helper()
	bin := testtool.Require(t, "redis-server", "redis-server")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &redisServer{t: t, bin: bin, port: port, dir: t.TempDir(), persist: persist}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// start launches redis-server and waits until it accepts connections.
func (s *redisServer) start() {
	s.t.Helper()
	s.out.Reset()
	aof := "no"
	if s.persist {
		aof = "yes"
	}
	s.cmd = exec.Command(s.bin,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--dir", s.dir, "--save", "", "--appendonly", aof, "--appendfsync", "always",
		"--daemonize", "no", "--loglevel", "warning")
	s.cmd.Stdout = &s.out
	s.cmd.Stderr = &s.out
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.addr(), 100*time.Millisecond)
		if err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			c.Write([]byte("PING\r\n"))
			buf := make([]byte, 16)
			n, _ := c.Read(buf)
			c.Close()
			if bytes.HasPrefix(buf[:n], []byte("+PONG")) {
				return
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			s.t.Fatalf("redis-server did not start on %s: %s", s.addr(), s.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server (SIGKILL: no chance to save, like a crash) and
// reaps it.
func (s *redisServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}
