// Tests of the throwaway redis-server: it answers on its port, keeps
// nothing on disk, refuses a taken port with its own words, and Stop ends
// the process by its PID. Skipped, with the reason, without redis-server.
package benchtest

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// command sends one inline Redis command and returns the reply's values
// (simple strings, bulk strings, or an array of them) separated by spaces.
func command(t *testing.T, addr, cmd string) string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte(cmd + "\r\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	var read func() string
	read = func() string {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "*"):
			n, _ := strconv.Atoi(line[1:])
			parts := make([]string, n)
			for i := range parts {
				parts[i] = read()
			}
			return strings.Join(parts, " ")
		case strings.HasPrefix(line, "$"):
			n, _ := strconv.Atoi(line[1:])
			b := make([]byte, n+2)
			if _, err := io.ReadFull(r, b); err != nil {
				t.Fatal(err)
			}
			return string(b[:n])
		}
		return line
	}
	return read()
}

func TestRedisArgs(t *testing.T) {
	got := strings.Join(RedisArgs(6390), " ")
	for _, want := range []string{"--port 6390", "--bind 127.0.0.1", "--save  ", "--appendonly no", "--daemonize no"} {
		if !strings.Contains(got, want) {
			t.Errorf("RedisArgs = %q, lacks %q", got, want)
		}
	}
}

func TestStartRedis(t *testing.T) {
	r := MustRedis(t)
	if v := RedisVersion(); v == "" {
		t.Error("no redis-server version")
	}
	tests := []struct{ cmd, want string }{
		{"PING", "+PONG"},
		{"CONFIG GET save", "save "},               // empty: no snapshots
		{"CONFIG GET appendonly", "appendonly no"}, // no append-only file
		{"CONFIG GET bind", "bind 127.0.0.1"},
	}
	for _, tt := range tests {
		if got := command(t, r.Addr(), tt.cmd); got != tt.want {
			t.Errorf("%s = %q, want %q", tt.cmd, got, tt.want)
		}
	}

	// A second server on the same port fails, with redis-server's reason.
	if _, err := StartRedis(nil, r.Port, nil, 5*time.Second); err == nil || !strings.Contains(err.Error(), "exited before answering") {
		t.Errorf("second server on a taken port: err = %v", err)
	}

	pid := r.Pid()
	start := time.Now()
	r.Stop()
	r.Stop() // a second Stop returns at once
	if time.Since(start) > StopGrace {
		t.Errorf("Stop took %v: SIGTERM was not enough", time.Since(start))
	}
	if !r.Exited() {
		t.Error("not exited after Stop")
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("process %d still exists after Stop", pid)
	}
	if _, err := net.DialTimeout("tcp", r.Addr(), 200*time.Millisecond); err == nil {
		t.Error("still accepting connections after Stop")
	}
}

func TestStartRedisMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := StartRedis(nil, 1, nil, time.Second); err != ErrNoRedis {
		t.Errorf("StartRedis without redis-server: err = %v, want ErrNoRedis", err)
	}
	if v := RedisVersion(); v != "" {
		t.Errorf("RedisVersion without redis-server = %q", v)
	}
}
