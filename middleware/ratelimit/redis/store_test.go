// Tests against a real redis-server (Debian's, installed by testtool when
// missing): the headers match the in-memory store's, three instances
// sharing one Redis admit the configured rate in total within 5%, the
// bucket's key expires when it is full again, Redis down fails closed or
// open as configured, and bad arguments are errors of New; the sharing
// holds on a three-master Redis Cluster too.

package redis

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/testtool"
	"github.com/vireo-go/vireo/middleware"
)

// server is a redis-server child process on a free loopback port.
type server struct {
	t     testing.TB
	bin   string
	port  int
	dir   string
	extra []string // arguments after the common ones
	cmd   *exec.Cmd
}

func (s *server) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

func startServer(t testing.TB, extra ...string) *server {
	t.Helper()
	bin := testtool.Require(t, "redis-server", "redis-server")
	s := &server{t: t, bin: bin, port: freePort(t), dir: t.TempDir(), extra: extra}
	s.start()
	t.Cleanup(s.stop)
	return s
}

// freePort returns a loopback port that was free a moment ago, and whose
// cluster bus port (port+10000) was free too.
func freePort(t testing.TB) int {
	t.Helper()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		l.Close()
		if err == nil {
			bus.Close()
			return port
		}
	}
	t.Fatal("no free port")
	return 0
}

func (s *server) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, append([]string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"}, s.extra...)...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", s.addr(), 100*time.Millisecond); err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			c.Write([]byte("PING\r\n"))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			s.t.Fatalf("redis-server did not start on %s", s.addr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server by its PID and reaps it.
func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

var prefixes atomic.Int64

func newStore(t testing.TB, srv *server, perSecond float64, burst int, opts ...Option) *Store {
	t.Helper()
	opts = append([]Option{WithAddr(srv.addr()), WithPrefix("test" + strconv.FormatInt(prefixes.Add(1), 10) + ":")}, opts...)
	s, err := New(perSecond, burst, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// limitedApp serves GET / behind RateLimit with store, keyed by one
// constant so that every request of every instance shares the bucket.
func limitedApp(t testing.TB, store middleware.RateStore, opts ...middleware.RateLimitOption) *core.Application {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil))
	opts = append([]middleware.RateLimitOption{middleware.WithRateStore(store),
		middleware.WithKeyFunc(func(core.Context) string { return "everyone" })}, opts...)
	app.Use(middleware.MustRateLimit(opts...))
	app.Get("/", func(ctx core.Context) { ctx.WriteString("ok") })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

var rateHeaders = []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"}

// TestHeadersMatchMemoryStore: the same requests get the same statuses
// and RateLimit headers from the Redis store as from the in-memory one.
func TestHeadersMatchMemoryStore(t *testing.T) {
	srv := startServer(t)
	for _, tc := range []struct {
		perSecond float64
		burst     int
		requests  int
	}{
		{2, 3, 6},
		{0.5, 1, 3},
		{10, 20, 24},
	} {
		t.Run(fmt.Sprintf("%v/s burst %d", tc.perSecond, tc.burst), func(t *testing.T) {
			mem, err := middleware.NewRateMemoryStore(tc.perSecond, tc.burst, 0)
			if err != nil {
				t.Fatal(err)
			}
			apps := map[string]*core.Application{
				"memory": limitedApp(t, mem),
				"redis":  limitedApp(t, newStore(t, srv, tc.perSecond, tc.burst)),
			}
			got := map[string][]string{}
			for i := range tc.requests {
				for _, name := range []string{"memory", "redis"} {
					rec := httptest.NewRecorder()
					apps[name].ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
					line := strconv.Itoa(rec.Code)
					for _, h := range rateHeaders {
						line += " " + h + "=" + rec.Header().Get(h)
					}
					got[name] = append(got[name], line)
				}
				if got["memory"][i] != got["redis"][i] {
					t.Errorf("request %d:\nmemory %s\nredis  %s", i+1, got["memory"][i], got["redis"][i])
				}
			}
			if !strings.HasPrefix(got["redis"][tc.requests-1], "429 ") {
				t.Errorf("the last request was not refused: %s", got["redis"][tc.requests-1])
			}
		})
	}
}

// TestSharedAcrossInstances: three instances, each with its own client,
// share one bucket in Redis; driven well above the limit for three
// seconds, together they admit burst + rate*elapsed within 5%. The same
// load on three in-memory stores admits about three times as much, which
// shows the test can tell.
func TestSharedAcrossInstances(t *testing.T) {
	srv := startServer(t)
	const perSecond, burst = 100.0, 20
	run := func(stores []middleware.RateStore, d time.Duration) (admitted, sent int, elapsed time.Duration) {
		var instances []*httptest.Server
		for _, s := range stores {
			in := httptest.NewServer(limitedApp(t, s))
			defer in.Close()
			instances = append(instances, in)
		}
		var ok, all atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		deadline := start.Add(d)
		for i := range 3 * len(instances) {
			in := instances[i%len(instances)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				hc := &http.Client{Timeout: 5 * time.Second}
				for time.Now().Before(deadline) {
					res, err := hc.Get(in.URL)
					if err != nil {
						t.Error(err)
						return
					}
					res.Body.Close()
					all.Add(1)
					switch res.StatusCode {
					case http.StatusOK:
						ok.Add(1)
					case http.StatusTooManyRequests:
					default:
						t.Errorf("status %d", res.StatusCode)
					}
					time.Sleep(2 * time.Millisecond) // well above the limit, below what the machine can serve
				}
			}()
		}
		wg.Wait()
		return int(ok.Load()), int(all.Load()), time.Since(start)
	}
	var shared []middleware.RateStore
	for range 3 { // one prefix, hence one bucket
		shared = append(shared, newStore(t, srv, perSecond, burst, WithPrefix("shared:")))
	}
	admitted, sent, elapsed := run(shared, 3*time.Second)
	want := float64(burst) + perSecond*elapsed.Seconds()
	over := float64(admitted)/want - 1
	t.Logf("Redis store, 3 instances: sent %d, admitted %d in %v, configured %.0f: overshoot %+.2f%%", sent, admitted, elapsed.Round(time.Millisecond), want, 100*over)
	if sent < 2*int(want) {
		t.Fatalf("sent only %d requests: not enough load to test a limit of %.0f", sent, want)
	}
	if over > 0.05 || over < -0.05 {
		t.Errorf("admitted %d, want %.0f within 5%%", admitted, want)
	}

	var local []middleware.RateStore
	for range 3 {
		mem, _ := middleware.NewRateMemoryStore(perSecond, burst, 0)
		local = append(local, mem)
	}
	admitted, sent, elapsed = run(local, time.Second)
	want = float64(burst) + perSecond*elapsed.Seconds()
	t.Logf("memory stores, 3 instances: sent %d, admitted %d in %v, configured %.0f: %.2fx", sent, admitted, elapsed.Round(time.Millisecond), want, float64(admitted)/want)
	if float64(admitted) < 2*want {
		t.Errorf("three memory stores admitted %d, want about 3x %.0f: the load does not tell shared from local limits", admitted, want)
	}
}

// TestSharedOnCluster: the same on a Redis Cluster of three masters, with
// three clients whose keys live in different slots: each client gets its
// own rate, within 5%, whichever of the three instances serves it.
func TestSharedOnCluster(t *testing.T) {
	cli := testtool.Require(t, "redis-cli", "redis-tools")
	var seeds []string
	for range 3 {
		seeds = append(seeds, startServer(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf").addr())
	}
	if out, err := exec.Command(cli, append(append([]string{"--cluster", "create"}, seeds...), "--cluster-yes")...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v: %s", err, out)
	}
	const perSecond, burst = 50.0, 10
	var stores []*Store
	deadline := time.Now().Add(20 * time.Second)
	for len(stores) < 3 {
		s, err := New(perSecond, burst, WithAddrs(seeds...), WithPrefix("cluster:"))
		if err == nil {
			_, err = s.Take("probe", time.Time{}) // every slot served
		}
		if err == nil {
			t.Cleanup(func() { s.Close() })
			stores = append(stores, s)
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not come up: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// One client on each master: redis-cli gives them slots 0-5460,
	// 5461-10922 and 10923-16383.
	var clients []string
	masters := map[int]bool{}
	for n := 1; len(clients) < 3 && n < 255; n++ {
		c := "192.0.2." + strconv.Itoa(n)
		slot, err := stores[0].Client().ClusterKeySlot(context.Background(), stores[0].Key(c)).Result()
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		if slot > 10922 {
			m = 2
		} else if slot > 5460 {
			m = 1
		}
		if !masters[m] {
			masters[m] = true
			clients = append(clients, c)
		}
	}
	admitted := make([]atomic.Int64, len(clients))
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(2 * time.Second)
	for i := range 3 * len(clients) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, s := i%len(clients), stores[i/len(clients)]
			for time.Now().Before(end) {
				res, err := s.Take(clients[c], time.Time{})
				if err != nil {
					t.Error(err)
					return
				}
				if res.Allowed {
					admitted[c].Add(1)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	want := float64(burst) + perSecond*time.Since(start).Seconds()
	for c := range clients {
		got := admitted[c].Load()
		t.Logf("client %s (a master of its own) over 3 stores: admitted %d, configured %.0f: %+.2f%%", clients[c], got, want, 100*(float64(got)/want-1))
		if over := float64(got)/want - 1; over > 0.05 || over < -0.05 {
			t.Errorf("client %s: admitted %d, want %.0f within 5%%", clients[c], got, want)
		}
	}
}

// TestKeyExpires: a bucket's key lives until the bucket is full again.
func TestKeyExpires(t *testing.T) {
	srv := startServer(t)
	s := newStore(t, srv, 10, 5) // a token every 100ms
	for range 3 {
		if _, err := s.Take("k", time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	ttl := s.Client().PTTL(ctx, s.Key("k")).Val()
	if ttl <= 200*time.Millisecond || ttl > 300*time.Millisecond {
		t.Fatalf("PTTL after 3 of 5 tokens at 10/s: %v, want about 300ms", ttl)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	if n := s.Client().Exists(ctx, s.Key("k")).Val(); n != 0 {
		t.Fatal("the key of a full bucket is still in Redis")
	}
	res, err := s.Take("k", time.Time{})
	if err != nil || !res.Allowed || res.Remaining != 4 {
		t.Fatalf("after the bucket refilled: %+v, %v; want allowed with 4 left", res, err)
	}
}

// TestRedisDown: with Redis gone, RateLimit answers 503 by default and
// lets the request through with WithFailOpen; both recover when Redis is
// back (the script is loaded again by itself).
func TestRedisDown(t *testing.T) {
	srv := startServer(t)
	store := newStore(t, srv, 100, 100, WithTimeout(100*time.Millisecond))
	closed := limitedApp(t, store)
	open := limitedApp(t, store, middleware.WithFailOpen())
	status := func(app *core.Application) (int, string) {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		return rec.Code, rec.Header().Get("RateLimit-Remaining")
	}
	if code, rem := status(closed); code != 200 || rem == "" {
		t.Fatalf("Redis up: %d, remaining %q", code, rem)
	}
	srv.stop()
	if code, _ := status(closed); code != http.StatusServiceUnavailable {
		t.Errorf("Redis down, default: %d, want 503 (fail closed)", code)
	}
	if code, rem := status(open); code != http.StatusOK || rem != "" {
		t.Errorf("Redis down, WithFailOpen: %d with remaining %q, want 200 without RateLimit headers", code, rem)
	}
	srv.start() // empty: no keys, no script
	waitUp := time.Now().Add(5 * time.Second)
	for {
		code, rem := status(closed)
		if code == 200 && rem != "" {
			break
		}
		if time.Now().After(waitUp) {
			t.Fatalf("Redis back: still %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perSecond float64
		burst     int
		opts      []Option
		want      string
	}{
		{"zero rate", 0, 1, nil, "must be positive"},
		{"zero burst", 1, 0, nil, "must be positive"},
		{"rate too high", 2e6, 1, nil, "microsecond"},
		{"empty address", 1, 1, []Option{WithAddr("")}, "empty address"},
		{"nil option", 1, 1, []Option{nil}, "nil Option"},
		{"bad timeout", 1, 1, []Option{WithTimeout(0)}, "must be positive"},
		{"unreachable", 1, 1, []Option{WithAddr("127.0.0.1:1"), WithTimeout(50 * time.Millisecond)}, "cannot reach Redis at 127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.perSecond, tc.burst, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
