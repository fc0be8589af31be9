// Tests of the Redis service: without the redis-server binary it says so,
// with it each app's server is started on a port of its own and stopped by
// PID.
package service

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"

	"github.com/vireo-go/vireo/internal/testtool"
)

func TestLookup(t *testing.T) {
	s, ok := Lookup("redis")
	if !ok || s.Name() != RedisName {
		t.Fatalf("Lookup(redis) = %v, %v", s, ok)
	}
	if _, ok := Lookup("memcached"); ok {
		t.Error("Lookup found a service that does not exist")
	}
}

func TestRedisMissing(t *testing.T) {
	r := Redis{Look: func() (string, error) { return "", benchtest.ErrNoRedis }}
	if got := r.Missing(); got != "redis-server not found" {
		t.Errorf("Missing() = %q, want %q", got, "redis-server not found")
	}
}

// TestStartRedisPerApp starts two apps' redis-servers as a comparison does
// and checks that each has its own port and that Stop ends it by PID.
func TestStartRedisPerApp(t *testing.T) {
	testtool.Require(t, benchtest.RedisBinary)
	r := Redis{}
	dir := t.TempDir()
	start := func(name string) Instance {
		t.Helper()
		in, err := r.Start(context.Background(), Setup{LogPath: filepath.Join(dir, name+".log")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(in.Stop)
		return in
	}
	r1, r2 := start("a"), start("b")
	if env := r1.Env(); len(env) != 1 || env[0] != "REDIS_ADDR="+r1.Addr() || !strings.HasPrefix(r1.Addr(), "127.0.0.1:") {
		t.Errorf("env %q for %s", env, r1.Addr())
	}
	if r1.Addr() == r2.Addr() {
		t.Error("two apps share one redis-server port")
	}
	if r1.Version() == "" || r1.Program() != "redis-server" {
		t.Errorf("version %q, program %q", r1.Version(), r1.Program())
	}
	for _, in := range []Instance{r1, r2} {
		in.Stop()
		if syscall.Kill(in.Pid(), 0) == nil {
			t.Errorf("pid %d still runs after Stop", in.Pid())
		}
		in.Stop() // a no-op once stopped
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Start(ctx, Setup{LogPath: filepath.Join(dir, "c.log")}); err == nil {
		t.Error("started a server with a cancelled context")
	}
}
