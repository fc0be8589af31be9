// Package redistest starts Redis for the tests of every module of the
// repository, from Debian's redis-server, redis-sentinel and redis-cli
// (installed through internal/testtool): a single server, a Redis Cluster
// of three masters with a replica each (created with redis-cli --cluster
// create), and a master with one replica watched by three Sentinels
// (quorum two). Every process runs on free loopback ports in a temporary
// directory of its own and is killed by its PID when the test ends; node
// timeouts are short (a second) so that a failover completes within a few
// seconds.
//
// It speaks just enough RESP2 (Do) to check the topology, so that the
// framework module, which holds it, needs no Redis client.
package redistest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
	"golang.org/x/time/rate"
)

// Server is one redis-server or redis-sentinel child process.
type Server struct {
	t    testing.TB
	Name string
	bin  string
	// Args are the process's arguments; a test may change them between a
	// Kill and a Start (to restart a node as a replica, say).
	Args []string
	Port int
	Dir  string
	cmd  *exec.Cmd
	mu   sync.Mutex // guards out, which the child writes while tests read
	out  bytes.Buffer
}

func (s *Server) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(b)
}

// Output returns what the process printed.
func (s *Server) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// Addr returns the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// Running reports whether the process was started and not killed.
func (s *Server) Running() bool { return s.cmd != nil }

// Start launches the process and waits until it answers PING.
func (s *Server) Start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, s.Args...)
	s.cmd.Dir = s.Dir
	s.cmd.Stdout, s.cmd.Stderr = s, s
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting %s: %v", s.Name, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if v, err := Do(s.Addr(), "PING"); err == nil && v == "PONG" {
			return
		}
		if time.Now().After(deadline) {
			s.Kill()
			s.t.Fatalf("%s did not start on %s: %s", s.Name, s.Addr(), s.Output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill sends SIGKILL (a crash: nothing saved, no goodbye to the cluster)
// and reaps the process.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// FreePort returns a loopback port that was free a moment ago; with bus,
// port+10000 (a cluster node's bus port) was free too.
func FreePort(t testing.TB, bus bool) int {
	t.Helper()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if !bus {
			l.Close()
			return port
		}
		if port+10000 < 65536 {
			if l2, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000)); err == nil {
				l2.Close()
				l.Close()
				return port
			}
		}
		l.Close()
	}
	t.Fatal("no free port pair for a cluster node")
	return 0
}

// NewServer prepares (does not start) a redis-server on a free port with
// args after the common ones (no persistence, replicas synced at once;
// later arguments win). The data directory survives a Kill, so a
// restarted cluster node finds its nodes.conf. The test's end kills it.
func NewServer(t testing.TB, name string, bus bool, args ...string) *Server {
	t.Helper()
	bin := testtool.Require(t, "redis-server", "redis-server")
	s := &Server{t: t, Name: name, bin: bin, Port: FreePort(t, bus), Dir: t.TempDir()}
	s.Args = append([]string{
		"--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1", "--dir", s.Dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
		"--repl-diskless-sync-delay", "0",
	}, args...)
	t.Cleanup(s.Kill)
	return s
}

// StartServer starts a single redis-server with args after the common
// ones.
func StartServer(t testing.TB, args ...string) *Server {
	t.Helper()
	s := NewServer(t, "redis-server", false, args...)
	s.Start()
	return s
}

// Conn is one connection to a Redis server, for commands that must share
// it (READONLY and a read on a replica).
type Conn struct {
	c net.Conn
	r *bufio.Reader
}

// Dial connects to addr.
func Dial(addr string) (*Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	return &Conn{c: c, r: bufio.NewReader(c)}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Do sends one command and reads its reply: a string (simple or bulk),
// an int64, nil, or a []any of those; a Redis error is an error.
func (c *Conn) Do(args ...string) (any, error) {
	c.c.SetDeadline(time.Now().Add(2 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.c.Write([]byte(b.String())); err != nil {
		return nil, err
	}
	return c.read()
}

func (c *Conn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, errors.New("redistest: empty reply line")
	}
	switch body := line[1:]; line[0] {
	case '+':
		return body, nil
	case '-':
		return nil, errors.New(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			return nil, err
		}
		return string(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		out := make([]any, n)
		for i := range out {
			if out[i], err = c.read(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("redistest: unexpected reply %q", line)
}

// Do runs one command on a fresh connection to addr.
func Do(addr string, args ...string) (any, error) {
	c, err := Dial(addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Do(args...)
}

// Info returns an INFO section of addr, "" when it cannot be had.
func Info(addr, section string) string {
	v, _ := Do(addr, "INFO", section)
	s, _ := v.(string)
	return s
}

// Field returns field of an INFO or CLUSTER INFO reply ("role",
// "connected_slaves", "cluster_state").
func Field(info, field string) string {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v
		}
	}
	return ""
}

// WaitFor polls cond every 50ms until it holds, failing the test with what
// after limit.
func WaitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Cluster is a running Redis Cluster.
type Cluster struct {
	t     testing.TB
	Nodes []*Server
}

// StartCluster starts six cluster-enabled nodes and joins them into three
// masters with a replica each; it returns once the cluster is ok on every
// node and every master has its replica in sync.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	cli := testtool.Require(t, "redis-cli", "redis-tools")
	c := &Cluster{t: t}
	var addrs []string
	for i := range 6 {
		n := NewServer(t, fmt.Sprintf("cluster node %d", i), true,
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "1000", "--cluster-require-full-coverage", "no")
		n.Start()
		c.Nodes = append(c.Nodes, n)
		addrs = append(addrs, n.Addr())
	}
	out, err := exec.Command(cli, append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	WaitFor(t, 20*time.Second, "the cluster to be ok with a replica in sync for every master", c.Healthy)
	return c
}

// Healthy reports whether every running node says cluster_state:ok and
// every master has a replica whose link is up.
func (c *Cluster) Healthy() bool {
	masters := 0
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		info, _ := Do(n.Addr(), "CLUSTER", "INFO")
		if s, _ := info.(string); Field(s, "cluster_state") != "ok" {
			return false
		}
		repl := Info(n.Addr(), "replication")
		switch Field(repl, "role") {
		case "master":
			masters++
			if Field(repl, "connected_slaves") == "0" {
				return false
			}
		case "slave":
			if Field(repl, "master_link_status") != "up" {
				return false
			}
		default:
			return false
		}
	}
	return masters == 3
}

// Seeds returns every node's address.
func (c *Cluster) Seeds() []string {
	var s []string
	for _, n := range c.Nodes {
		s = append(s, n.Addr())
	}
	return s
}

// Node returns the node listening on addr.
func (c *Cluster) Node(addr string) *Server {
	for _, n := range c.Nodes {
		if n.Addr() == addr {
			return n
		}
	}
	c.t.Fatalf("no cluster node at %s", addr)
	return nil
}

// MasterOf returns the address of the node serving key's slot as master,
// asking a running node, or "" when none says.
func (c *Cluster) MasterOf(key string) string { return c.nodeOf(key, "master") }

// ReplicaOf returns the address of the replica of key's master.
func (c *Cluster) ReplicaOf(key string) string { return c.nodeOf(key, "replica") }

func (c *Cluster) nodeOf(key, role string) string {
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		slot, err := Do(n.Addr(), "CLUSTER", "KEYSLOT", key)
		if err != nil {
			continue
		}
		v, err := Do(n.Addr(), "CLUSTER", "SHARDS")
		if err != nil {
			continue
		}
		if addr := shardNode(v, slot.(int64), role); addr != "" {
			return addr
		}
	}
	return ""
}

// shardNode finds, in a CLUSTER SHARDS reply, the node of role serving
// slot that is up: "online" for a master; for a replica anything but
// "failed" (Redis 7.0 says "loading" while its replication offset is 0).
func shardNode(reply any, slot int64, role string) string {
	shards, _ := reply.([]any)
	for _, s := range shards {
		m := kv(s)
		ranges, _ := m["slots"].([]any)
		in := false
		for i := 0; i+1 < len(ranges); i += 2 {
			lo, _ := ranges[i].(int64)
			hi, _ := ranges[i+1].(int64)
			in = in || lo <= slot && slot <= hi
		}
		if !in {
			continue
		}
		nodes, _ := m["nodes"].([]any)
		for _, n := range nodes {
			nm := kv(n)
			if nm["role"] == role && (nm["health"] == "online" || role == "replica" && nm["health"] != "failed") {
				return fmt.Sprintf("%v:%v", nm["ip"], nm["port"])
			}
		}
	}
	return ""
}

// kv reads a RESP2 flat list of alternating names and values as a map.
func kv(v any) map[string]any {
	out := map[string]any{}
	x, _ := v.([]any)
	for i := 0; i+1 < len(x); i += 2 {
		if k, ok := x[i].(string); ok {
			out[k] = x[i+1]
		}
	}
	return out
}

// ReplicaHas reports whether the cluster replica at addr holds key (a
// replica answers reads after READONLY on the same connection).
func ReplicaHas(addr, key string) bool {
	c, err := Dial(addr)
	if err != nil {
		return false
	}
	defer c.Close()
	if _, err := c.Do("READONLY"); err != nil {
		return false
	}
	n, err := c.Do("EXISTS", key)
	return err == nil && n == int64(1)
}

// Sentinel is a master and a replica under three Sentinels.
type Sentinel struct {
	t         testing.TB
	Name      string // the master name
	Master    *Server
	Replica   *Server
	Sentinels []*Server
}

// StartSentinel starts the master, its replica and three Sentinels
// (quorum 2, down after 800ms, failover timeout 3s); it returns once every
// Sentinel knows the replica and the two other Sentinels, so that a
// failover can be agreed on.
func StartSentinel(t testing.TB) *Sentinel {
	t.Helper()
	sbin := testtool.Require(t, "redis-sentinel", "redis-sentinel")
	s := &Sentinel{t: t, Name: "vireo-test"}
	s.Master = NewServer(t, "sentinel master", false)
	s.Master.Start()
	s.Replica = NewServer(t, "sentinel replica", false, "--replicaof", "127.0.0.1", strconv.Itoa(s.Master.Port))
	s.Replica.Start()
	for i := range 3 {
		p := &Server{t: t, Name: fmt.Sprintf("sentinel %d", i), bin: sbin, Port: FreePort(t, false), Dir: t.TempDir()}
		conf := filepath.Join(p.Dir, "sentinel.conf")
		text := fmt.Sprintf(`port %d
bind 127.0.0.1
dir %s
sentinel resolve-hostnames no
sentinel monitor %s 127.0.0.1 %d 2
sentinel down-after-milliseconds %s 800
sentinel failover-timeout %s 3000
sentinel parallel-syncs %s 1
`, p.Port, p.Dir, s.Name, s.Master.Port, s.Name, s.Name, s.Name)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		p.Args = []string{conf}
		t.Cleanup(p.Kill)
		p.Start()
		s.Sentinels = append(s.Sentinels, p)
	}
	WaitFor(t, 30*time.Second, "every Sentinel to know the replica and the other Sentinels", func() bool {
		for _, p := range s.Sentinels {
			reps, err := Do(p.Addr(), "SENTINEL", "REPLICAS", s.Name)
			if l, _ := reps.([]any); err != nil || len(l) < 1 {
				return false
			}
			sens, err := Do(p.Addr(), "SENTINEL", "SENTINELS", s.Name)
			if l, _ := sens.([]any); err != nil || len(l) < 2 {
				return false
			}
		}
		return Field(Info(s.Master.Addr(), "replication"), "connected_slaves") == "1"
	})
	return s
}

// Addrs returns the Sentinels' addresses.
func (s *Sentinel) Addrs() []string {
	var a []string
	for _, p := range s.Sentinels {
		a = append(a, p.Addr())
	}
	return a
}

// MasterAddr asks the Sentinels where the master is, "" when none says.
func (s *Sentinel) MasterAddr() string {
	for _, p := range s.Sentinels {
		v, err := Do(p.Addr(), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", s.Name)
		if hp, ok := v.([]any); err == nil && ok && len(hp) == 2 {
			return fmt.Sprintf("%v:%v", hp[0], hp[1])
		}
	}
	return ""
}

// Admitted replays request times through an exact in-process token bucket
// (golang.org/x/time/rate) of rate perSecond and burst, and returns how
// many it admits: what a perfect shared rate limiter lets through for
// these arrivals, however unevenly a loaded machine sent them - the
// yardstick of the tests of a limiter kept in Redis.
func Admitted(times []time.Time, perSecond float64, burst int) int {
	times = slices.Clone(times)
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	lim := rate.NewLimiter(rate.Limit(perSecond), burst)
	n := 0
	for _, t := range times {
		if lim.AllowN(t, 1) {
			n++
		}
	}
	return n
}
