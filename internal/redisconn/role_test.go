package redisconn

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// startRedis starts redis-server on a free loopback port with args, in a
// temporary directory and without persistence, and returns its address;
// the server is killed when the test ends. test.sh installs redis-server
// for this package's step.
func startRedis(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not found (Debian: apt-get install -y redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--dir", t.TempDir(), "--save", "", "--appendonly", "no"}, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRequireMaster checks the OnConnect that Open gives a Sentinel
// client: a connection to a master serves commands, a connection to a
// replica (here one whose master is unreachable, as the old master is
// when it comes back as a replica before its first sync) is refused with
// an error that names the role, so no command of the store runs there.
// Before the check, such a connection answered reads from the replica's
// empty data: TestSentinelFailover (sessions/redis) saw sessions missing
// (401) after a failover.
func TestRequireMaster(t *testing.T) {
	master := startRedis(t)
	replica := startRedis(t, "--replicaof", "127.0.0.1", "1")
	for _, tc := range []struct {
		name, addr, want string // want: "" for no error
	}{
		{"master", master, ""},
		{"replica", replica, "is a slave, not the Sentinel master"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := goredis.NewClient(&goredis.Options{Addr: tc.addr, OnConnect: requireMaster, MaxRetries: -1})
			defer c.Close()
			// A missing key, goredis.Nil, is what a replica's empty
			// data answered before the check.
			err := c.Get(context.Background(), "session").Err()
			switch {
			case tc.want == "" && err != goredis.Nil:
				t.Fatalf("GET through %s: %v, want redis: nil", tc.addr, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("GET through %s: error %v, want one containing %q", tc.addr, err, tc.want)
			}
		})
	}
}
