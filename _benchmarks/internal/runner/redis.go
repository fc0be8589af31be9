// Redis for the sessions-redis comparison: each app of a comparison whose
// endpoint says "redis" gets a redis-server of its own, started right
// before the app on a free loopback port (never one handed to another
// process of the run: benchtest.FreePort) with no persistence, pinned to the
// server CPUs (the store is part of the server side), and given to the app
// as REDIS_ADDR. One server per app keeps the apps' data sets and Redis CPU
// apart: in interleaved mode a paused app's Redis sits idle while another
// app's is loaded. The runner never installs anything: without the
// redis-server binary those apps are skipped with "redis-server not found".
//
// Every server is stopped by its PID when its app is stopped or excluded,
// at the end of its comparison, and by the deferred stopRedis of Run and
// Verify on failure and Ctrl+C.
package runner

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// redisStartTimeout bounds the wait for a redis-server's first answer.
const redisStartTimeout = 15 * time.Second

// lookRedis finds redis-server; tests replace it to play a machine without.
var lookRedis = benchtest.LookRedis

// redisSkipReason returns why the apps of ep cannot run here, or "".
func redisSkipReason(ep benchtest.Endpoint) string {
	if !ep.Redis {
		return ""
	}
	if _, err := lookRedis(); err != nil {
		return err.Error()
	}
	return ""
}

// startRedis starts the redis-server of app for comparison key, logging to
// logs/<key>-<app>-redis.log, and returns it with the environment entry
// that tells the app where it is. The server is registered for stopRedis.
func (s *session) startRedis(ctx context.Context, key, app string) (*benchtest.Redis, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	// A port another process took before redis-server bound it is
	// retried on a new one; the log file is rewritten for each attempt
	// and closed once its server has exited.
	var port int
	proc, err := benchtest.StartOnFreePort(ctx, func(free int) (benchtest.Spec, error) {
		port = free
		log, err := os.Create(filepath.Join(s.logDir, key+"-"+app+"-redis.log"))
		if err != nil {
			return benchtest.Spec{}, err
		}
		spec, err := benchtest.RedisSpec(s.pin.server, free, log)
		if err != nil {
			log.Close()
		}
		return spec, err
	}, redisStartTimeout)
	if err != nil {
		return nil, "", err
	}
	r := benchtest.NewRedis(proc, port)
	s.redis = append(s.redis, r)
	if s.redisVersion == "" {
		s.redisVersion = benchtest.RedisVersion()
	}
	s.logf("redis  %-24s redis-server %s on %s (pid %d)", app, s.redisVersion, r.Addr(), r.Pid())
	return r, benchtest.RedisAddrEnv + "=" + r.Addr(), nil
}

// stopRedis stops every redis-server the run started (each Stop is a no-op
// for one already stopped).
func (s *session) stopRedis() {
	for _, r := range s.redis {
		r.Stop()
	}
	s.redis = nil
}

// stopRedisOf stops lv's redis-server, if it has one.
func (s *session) stopRedisOf(lv *live) {
	if lv.redis != nil {
		lv.redis.Stop()
		s.logf("redis  %-24s stopped (pid %d)", lv.app.name, lv.redis.Pid())
		lv.redis = nil
	}
}

// recordRedisVersion adds the redis-server version to the dependencies of
// the app's report row, next to the framework versions.
func recordRedisVersion(deps map[string]string, version string) map[string]string {
	if version == "" {
		return deps
	}
	if deps == nil {
		deps = map[string]string{}
	}
	deps[benchtest.RedisBinary] = version
	return deps
}
