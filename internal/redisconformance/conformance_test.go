// Package redisconformance runs the engines' conformance suite's sessions
// tests (internal/conformance.RunSessions) on the Redis session store, on
// every engine and serving path: net/http, the fasthttp engine and
// Vireo's HTTP/2 path (h2c). It is a module of its own because it imports
// all three and the Redis client, none of which the framework module may
// depend on; it has tests only.
package redisconformance

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/h2"
	"github.com/vireo-go/vireo/internal/conformance"
	"github.com/vireo-go/vireo/internal/redistest"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/redis"
)

// targets are the engines and serving paths, as their own modules' tests
// run the suite on them.
var targets = []struct {
	name   string
	target conformance.Target
}{
	{"nethttp", conformance.Target{}},
	{"fast", conformance.Target{Options: []core.Option{core.WithEngine(fast.Engine())}}},
	{"h2c", conformance.Target{
		Options: []core.Option{core.WithH2C(), core.WithHTTP2(h2.MustNew())},
		Transport: func() *http.Transport {
			var protos http.Protocols
			protos.SetUnencryptedHTTP2(true)
			return &http.Transport{Protocols: &protos}
		},
	}},
}

// TestSessionsOnRedis runs the sessions tests on a real redis-server
// (started by internal/redistest), each test under a key prefix of its
// own.
func TestSessionsOnRedis(t *testing.T) {
	srv := redistest.StartServer(t)
	var prefixes atomic.Int64
	newDB := func(t *testing.T) sessions.Database {
		db, err := redis.New(redis.WithAddr(srv.Addr()), redis.WithPrefix("conformance:"+strconv.FormatInt(prefixes.Add(1), 10)+":"))
		if err != nil {
			t.Fatalf("redis.New: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) { conformance.RunSessions(t, tg.target, newDB) })
	}
}
