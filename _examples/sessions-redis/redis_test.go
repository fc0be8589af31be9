// A redis-server child process for the tests, on a free loopback port with
// no persistence, stopped when the test ends. Tests skip, saying why, when
// the redis-server binary (Debian package redis-server) is not installed.

package main

import (
	"bytes"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
)

type redisServer struct {
	t    testing.TB
	port int
	dir  string
	cmd  *exec.Cmd
	mu   sync.Mutex // guards out, which the child writes while tests read
	out  bytes.Buffer
}

// Write collects the server's output for error messages.
func (s *redisServer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

func (s *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// startRedis starts a server on a free port, or skips the test when
// redis-server is not installed.
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	testtool.Require(t, "redis-server")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &redisServer{t: t, port: l.Addr().(*net.TCPAddr).Port, dir: t.TempDir()}
	l.Close()
	s.start()
	t.Cleanup(s.stop)
	return s
}

// start launches redis-server on s.port and waits until it answers PING.
func (s *redisServer) start() {
	s.t.Helper()
	s.cmd = exec.Command(testtool.Look("redis-server"), // found by Require
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir,
		"--daemonize", "no", "--loglevel", "warning")
	s.cmd.Stdout, s.cmd.Stderr = s, s
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !s.pong() {
		if time.Now().After(deadline) {
			s.stop()
			s.mu.Lock()
			defer s.mu.Unlock()
			s.t.Fatalf("redis-server did not start on %s: %s", s.addr(), s.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *redisServer) pong() bool {
	c, err := net.DialTimeout("tcp", s.addr(), 100*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	c.Write([]byte("PING\r\n"))
	buf := make([]byte, 16)
	n, _ := c.Read(buf)
	return bytes.HasPrefix(buf[:n], []byte("+PONG"))
}

// stop kills the server, by its PID, like a crash, and reaps it.
func (s *redisServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}
