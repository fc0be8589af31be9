// Redis for the sessions-redis comparison: each app gets a redis-server of
// its own, started right before the app on a free loopback port (never one
// handed to another process of the run: benchtest.FreePort) with no
// persistence, and given to the app as REDIS_ADDR. One server per app keeps
// the apps' data sets and Redis CPU apart: in interleaved mode a paused
// app's Redis sits idle while another app's is loaded.
package service

import (
	"context"
	"os"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// RedisName is the Redis service's name in endpoints.json.
const RedisName = "redis"

// redisStartTimeout bounds the wait for a redis-server's first answer.
const redisStartTimeout = 15 * time.Second

// Redis starts redis-servers. Look finds the binary (benchtest.LookRedis
// when nil); tests set it to play a machine without one.
type Redis struct {
	Look func() (string, error)
}

// Name is "redis".
func (Redis) Name() string { return RedisName }

// Missing returns "redis-server not found" where it is not installed.
func (r Redis) Missing() string {
	look := r.Look
	if look == nil {
		look = benchtest.LookRedis
	}
	if _, err := look(); err != nil {
		return err.Error()
	}
	return ""
}

// Start starts a redis-server on a free port; a port another process took
// before redis-server bound it is retried on a new one.
func (Redis) Start(ctx context.Context, s Setup) (Instance, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var port int
	p, err := benchtest.StartOnFreePort(ctx, func(free int) (benchtest.Spec, error) {
		port = free
		log, err := os.Create(s.LogPath)
		if err != nil {
			return benchtest.Spec{}, err
		}
		spec, err := benchtest.RedisSpec(s.Pin, free, log)
		if err != nil {
			log.Close()
		}
		return spec, err
	}, redisStartTimeout)
	if err != nil {
		return nil, err
	}
	return &redisInstance{Redis: benchtest.NewRedis(p, port), version: benchtest.RedisVersion()}, nil
}

// redisInstance is a started redis-server.
type redisInstance struct {
	*benchtest.Redis
	version string
}

// Env is REDIS_ADDR=127.0.0.1:<port>.
func (r *redisInstance) Env() []string { return []string{benchtest.RedisAddrEnv + "=" + r.Addr()} }

// Program is "redis-server".
func (r *redisInstance) Program() string { return benchtest.RedisBinary }

// Version is redis-server's version.
func (r *redisInstance) Version() string { return r.version }
