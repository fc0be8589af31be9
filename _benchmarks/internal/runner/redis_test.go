// Tests of the sessions-redis plumbing that need no load: without the
// redis-server binary the comparison's apps are skipped with the reason
// (and verify says so), with it each app's server is started and stopped
// by PID. The quick end-to-end run is in e2e_test.go.
package runner

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"

	"github.com/vireo-go/vireo/internal/testtool"
)

// withoutRedis makes the runner see a machine without redis-server.
func withoutRedis(t *testing.T) {
	saved := lookRedis
	lookRedis = func() (string, error) { return "", benchtest.ErrNoRedis }
	t.Cleanup(func() { lookRedis = saved })
}

func TestRedisSkipReason(t *testing.T) {
	contract := loadContract(t)
	withRedis, plain := contract.Comparisons["sessions-redis"], contract.Comparisons["sessions"]
	if !withRedis.Redis || plain.Redis {
		t.Fatalf("endpoints.json: redis is %v for sessions-redis and %v for sessions", withRedis.Redis, plain.Redis)
	}
	withoutRedis(t)
	if got := redisSkipReason(withRedis); got != "redis-server not found" {
		t.Errorf("skip reason %q, want %q", got, "redis-server not found")
	}
	if got := redisSkipReason(plain); got != "" {
		t.Errorf("the in-memory sessions comparison is skipped for %q", got)
	}

	root, _ := benchtest.MustContract(t)
	cfg := Config{Root: root, Comparisons: []string{"sessions-redis"}}
	s, plan, err := newSession(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 2 || plan[0].key() != "sessions-redis-cookie-less" || plan[1].key() != "sessions-redis-cookie-keeping" {
		t.Fatalf("plan %+v", plan)
	}
	for _, app := range plan[0].apps {
		if got := s.skipped[app]; got != "redis-server not found" {
			t.Errorf("%s: skipped %q, want %q", app, got, "redis-server not found")
		}
	}
}

// TestVerifySkipsWithoutRedis runs `bench verify sessions-redis` on a
// machine without redis-server: nothing is built or started, every app is
// reported skipped with the reason, and the run does not fail.
func TestVerifySkipsWithoutRedis(t *testing.T) {
	withoutRedis(t)
	root, _ := benchtest.MustContract(t)
	log := &testLog{t: t}
	res, err := Verify(context.Background(), Config{Root: root, Comparisons: []string{"sessions-redis"}, Log: log})
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if len(res) != 2 {
		t.Fatalf("results %+v", res)
	}
	for _, r := range res {
		if r.Status != "skipped: redis-server not found" {
			t.Errorf("%s: %q", r.App, r.Status)
		}
	}
}

// TestStartRedisPerApp starts an app's redis-server as the comparison does
// and checks that stopRedisOf and stopRedis end it by PID.
func TestStartRedisPerApp(t *testing.T) {
	testtool.Require(t, benchtest.RedisBinary)
	s := &session{cfg: &Config{Log: &testLog{t: t}}, logDir: t.TempDir()}
	r1, env, err := s.startRedis(context.Background(), "sessions-redis-cookie-less", "a")
	if err != nil {
		t.Fatal(err)
	}
	if env != "REDIS_ADDR="+r1.Addr() || !strings.HasPrefix(r1.Addr(), "127.0.0.1:") {
		t.Errorf("env %q for %s", env, r1.Addr())
	}
	r2, _, err := s.startRedis(context.Background(), "sessions-redis-cookie-less", "b")
	if err != nil {
		t.Fatal(err)
	}
	if r1.Port == r2.Port {
		t.Error("two apps share one redis-server port")
	}
	deps := recordRedisVersion(nil, s.redisVersion)
	if deps["redis-server"] == "" {
		t.Errorf("no redis-server version recorded: %v", deps)
	}

	lv := &live{app: &app{name: "a"}, redis: r1}
	s.stopRedisOf(lv)
	if lv.redis != nil || !r1.Exited() || syscall.Kill(r1.Pid(), 0) == nil {
		t.Error("stopRedisOf left the server running")
	}
	s.stopRedis()
	if !r2.Exited() || syscall.Kill(r2.Pid(), 0) == nil {
		t.Error("stopRedis left the server running")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.startRedis(ctx, "k", "c"); err == nil {
		t.Error("started a server with a cancelled context")
	}
}
