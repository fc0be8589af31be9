// Redis topologies for the tests, from Debian's redis-server,
// redis-sentinel and redis-cli: a Redis Cluster of three masters with one
// replica each, created with redis-cli --cluster create, and a master with
// one replica watched by three Sentinels (quorum two). Every process runs
// on free loopback ports in a temporary directory of its own and is killed
// by its PID when the test ends; node timeouts are short (a second) so
// that a failover completes within a few seconds.

package redis

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/internal/testtool"
)

// proc is one redis-server or redis-sentinel child process.
type proc struct {
	t    testing.TB
	name string
	bin  string
	args []string
	port int
	dir  string
	cmd  *exec.Cmd
	mu   sync.Mutex // guards out, which the child writes while tests read
	out  bytes.Buffer
}

func (p *proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func (p *proc) addr() string { return "127.0.0.1:" + strconv.Itoa(p.port) }

// start launches the process and waits until it answers PING.
func (p *proc) start() {
	p.t.Helper()
	p.cmd = exec.Command(p.bin, p.args...)
	p.cmd.Dir = p.dir
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		p.t.Fatalf("starting %s: %v", p.name, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !pingOK(p.addr()) {
		if time.Now().After(deadline) {
			p.kill()
			p.t.Fatalf("%s did not start on %s: %s", p.name, p.addr(), p.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL (a crash: nothing saved, no goodbye to the cluster)
// and reaps the process.
func (p *proc) kill() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p.cmd = nil
}

func pingOK(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	c.Write([]byte("PING\r\n"))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.HasPrefix(line, "+PONG")
}

// freePort returns a loopback port that was free a moment ago; with bus,
// port+10000 (a cluster node's bus port) was free too.
func freePort(t testing.TB, bus bool) int {
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

// newServerProc prepares (does not start) a redis-server on a free port
// with args after the common ones. The data directory survives a kill, so
// a restarted cluster node finds its nodes.conf.
func newServerProc(t testing.TB, name string, bus bool, args ...string) *proc {
	t.Helper()
	bin := testtool.Require(t, "redis-server", "redis-server")
	p := &proc{t: t, name: name, bin: bin, port: freePort(t, bus), dir: t.TempDir()}
	p.args = append([]string{
		"--port", strconv.Itoa(p.port), "--bind", "127.0.0.1", "--dir", p.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
		"--repl-diskless-sync-delay", "0",
	}, args...)
	t.Cleanup(p.kill)
	return p
}

// redisCmd runs one command on addr, for the tests' own checks.
func redisCmd(addr string, args ...any) (any, error) {
	c := goredis.NewClient(&goredis.Options{Addr: addr, DialTimeout: 300 * time.Millisecond, ReadTimeout: time.Second, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return c.Do(ctx, args...).Result()
}

// replicaHas reports whether the cluster replica at addr holds key (a
// replica answers reads after READONLY on the same connection).
func replicaHas(addr, key string) bool {
	c := goredis.NewClient(&goredis.Options{Addr: addr, DialTimeout: 300 * time.Millisecond, ReadTimeout: time.Second, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn := c.Conn()
	defer conn.Close()
	if err := conn.ReadOnly(ctx).Err(); err != nil {
		return false
	}
	n, err := conn.Exists(ctx, key).Result()
	return err == nil && n == 1
}

func redisInfo(addr, section string) string {
	v, err := redisCmd(addr, "INFO", section)
	if err != nil {
		return ""
	}
	s, _ := v.(string)
	return s
}

// infoField returns field of an INFO reply ("role", "connected_slaves").
func infoField(info, field string) string {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v
		}
	}
	return ""
}

// waitFor polls cond every 50ms until it holds, failing the test with what
// after limit.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cluster is a running Redis Cluster.
type cluster struct {
	t     testing.TB
	nodes []*proc
}

// startCluster starts six cluster-enabled nodes and joins them into three
// masters with a replica each; it returns once the cluster is ok on every
// node and every master has its replica in sync.
func startCluster(t testing.TB) *cluster {
	t.Helper()
	cli := testtool.Require(t, "redis-cli", "redis-tools")
	c := &cluster{t: t}
	var addrs []string
	for i := range 6 {
		n := newServerProc(t, fmt.Sprintf("cluster node %d", i), true,
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "1000", "--cluster-require-full-coverage", "no")
		n.start()
		c.nodes = append(c.nodes, n)
		addrs = append(addrs, n.addr())
	}
	out, err := exec.Command(cli, append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	waitFor(t, 20*time.Second, "the cluster to be ok with a replica in sync for every master", c.healthy)
	return c
}

// healthy reports whether every running node says cluster_state:ok and
// every master has a replica whose link is up.
func (c *cluster) healthy() bool {
	masters := 0
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		info, _ := redisCmd(n.addr(), "CLUSTER", "INFO")
		if s, _ := info.(string); infoField(s, "cluster_state") != "ok" {
			return false
		}
		repl := redisInfo(n.addr(), "replication")
		switch infoField(repl, "role") {
		case "master":
			masters++
			if infoField(repl, "connected_slaves") == "0" {
				return false
			}
		case "slave":
			if infoField(repl, "master_link_status") != "up" {
				return false
			}
		default:
			return false
		}
	}
	return masters == 3
}

func (c *cluster) seeds() []string {
	var s []string
	for _, n := range c.nodes {
		s = append(s, n.addr())
	}
	return s
}

// node returns the node listening on addr.
func (c *cluster) node(addr string) *proc {
	for _, n := range c.nodes {
		if n.addr() == addr {
			return n
		}
	}
	c.t.Fatalf("no cluster node at %s", addr)
	return nil
}

// masterOf returns the address of the node that serves key's slot as
// master, asking a running node.
func (c *cluster) masterOf(key string) string {
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		slot, err := redisCmd(n.addr(), "CLUSTER", "KEYSLOT", key)
		if err != nil {
			continue
		}
		v, err := redisCmd(n.addr(), "CLUSTER", "SHARDS")
		if err != nil {
			continue
		}
		if addr := shardMaster(v, slot.(int64)); addr != "" {
			return addr
		}
	}
	return ""
}

// replicaOf returns the address of the online replica of key's master.
func (c *cluster) replicaOf(key string) string {
	for _, n := range c.nodes {
		if n.cmd == nil {
			continue
		}
		slot, err := redisCmd(n.addr(), "CLUSTER", "KEYSLOT", key)
		if err != nil {
			continue
		}
		v, err := redisCmd(n.addr(), "CLUSTER", "SHARDS")
		if err != nil {
			continue
		}
		if addr := shardNode(v, slot.(int64), "replica"); addr != "" {
			return addr
		}
	}
	return ""
}

// shardMaster finds, in a CLUSTER SHARDS reply, the master node serving
// slot whose health is online.
func shardMaster(reply any, slot int64) string { return shardNode(reply, slot, "master") }

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

// kv reads a RESP2 flat list of alternating names and values (or a RESP3
// map) as a map.
func kv(v any) map[string]any {
	out := map[string]any{}
	switch x := v.(type) {
	case []any:
		for i := 0; i+1 < len(x); i += 2 {
			if k, ok := x[i].(string); ok {
				out[k] = x[i+1]
			}
		}
	case map[any]any:
		for k, val := range x {
			if ks, ok := k.(string); ok {
				out[ks] = val
			}
		}
	}
	return out
}

// sentinelSet is a master and a replica under three Sentinels.
type sentinelSet struct {
	t         testing.TB
	name      string
	master    *proc
	replica   *proc
	sentinels []*proc
}

// startSentinel starts the master, its replica and three Sentinels
// (quorum 2, down after 800ms, failover timeout 3s); it returns once every
// Sentinel knows the replica and the two other Sentinels, so that a
// failover can be agreed on.
func startSentinel(t testing.TB) *sentinelSet {
	t.Helper()
	sbin := testtool.Require(t, "redis-sentinel", "redis-sentinel")
	s := &sentinelSet{t: t, name: "vireo-test"}
	s.master = newServerProc(t, "sentinel master", false)
	s.master.start()
	s.replica = newServerProc(t, "sentinel replica", false, "--replicaof", "127.0.0.1", strconv.Itoa(s.master.port))
	s.replica.start()
	for i := range 3 {
		p := &proc{t: t, name: fmt.Sprintf("sentinel %d", i), bin: sbin, port: freePort(t, false), dir: t.TempDir()}
		conf := filepath.Join(p.dir, "sentinel.conf")
		text := fmt.Sprintf(`port %d
bind 127.0.0.1
dir %s
sentinel resolve-hostnames no
sentinel monitor %s 127.0.0.1 %d 2
sentinel down-after-milliseconds %s 800
sentinel failover-timeout %s 3000
sentinel parallel-syncs %s 1
`, p.port, p.dir, s.name, s.master.port, s.name, s.name, s.name)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		p.args = []string{conf}
		t.Cleanup(p.kill)
		p.start()
		s.sentinels = append(s.sentinels, p)
	}
	waitFor(t, 30*time.Second, "every Sentinel to know the replica and the other Sentinels", func() bool {
		for _, p := range s.sentinels {
			reps, err := redisCmd(p.addr(), "SENTINEL", "REPLICAS", s.name)
			if err != nil || len(reps.([]any)) < 1 {
				return false
			}
			sens, err := redisCmd(p.addr(), "SENTINEL", "SENTINELS", s.name)
			if err != nil || len(sens.([]any)) < 2 {
				return false
			}
		}
		return infoField(redisInfo(s.master.addr(), "replication"), "connected_slaves") == "1"
	})
	return s
}

func (s *sentinelSet) addrs() []string {
	var a []string
	for _, p := range s.sentinels {
		a = append(a, p.addr())
	}
	return a
}

// masterAddr asks the Sentinels where the master is.
func (s *sentinelSet) masterAddr() string {
	for _, p := range s.sentinels {
		v, err := redisCmd(p.addr(), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", s.name)
		if err != nil {
			continue
		}
		if hp, ok := v.([]any); ok && len(hp) == 2 {
			return fmt.Sprintf("%v:%v", hp[0], hp[1])
		}
	}
	return ""
}
