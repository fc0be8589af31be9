// Tests of the services of a comparison that need no load: without the
// redis-server binary the sessions-redis apps are skipped with the reason
// (and verify says so). Starting and stopping the servers is tested in
// package service, the quick end-to-end run in package throughput.
package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/service"
)

// withoutRedis is the services of a machine without redis-server.
var withoutRedis = map[string]service.Service{
	service.RedisName: service.Redis{Look: func() (string, error) { return "", benchtest.ErrNoRedis }},
}

func TestRedisSkipReason(t *testing.T) {
	contract := loadContract(t)
	withRedis, plain := contract.Comparisons["sessions-redis"], contract.Comparisons["sessions"]
	if !withRedis.Uses("redis") || plain.Uses("redis") {
		t.Fatalf("endpoints.json: redis is %v for sessions-redis and %v for sessions", withRedis.Services, plain.Services)
	}
	root, _ := benchtest.MustContract(t)
	cfg := Config{Root: root, Comparisons: []string{"sessions-redis", "sessions"}, Services: withoutRedis}
	s, err := NewSession(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	plan := s.Plan
	if len(plan) != 4 || plan[0].Key() != "sessions-redis-cookie-less" || plan[1].Key() != "sessions-redis-cookie-keeping" {
		t.Fatalf("plan %+v", plan)
	}
	for _, app := range plan[0].Apps {
		if got := s.Skipped[app]; got != "redis-server not found" {
			t.Errorf("%s: skipped %q, want %q", app, got, "redis-server not found")
		}
	}
	for _, app := range plan[2].Apps {
		if got := s.Skipped[app]; strings.Contains(got, "redis") {
			t.Errorf("the in-memory sessions app %s is skipped for %q", app, got)
		}
	}
}

// TestVerifySkipsWithoutRedis runs `bench verify sessions-redis` on a
// machine without redis-server: nothing is built or started, every app is
// reported skipped with the reason, and the run does not fail.
func TestVerifySkipsWithoutRedis(t *testing.T) {
	root, _ := benchtest.MustContract(t)
	res, err := Verify(context.Background(), Config{Root: root, Comparisons: []string{"sessions-redis"}, Log: &benchtest.TestLog{T: t}, Services: withoutRedis})
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
