// A single redis-server for the tests (internal/redistest), with
// append-only persistence fsynced on every write, so that a killed and
// restarted server still has its data; benchmarks run without it.

package redis

import (
	"testing"

	"github.com/vireo-go/vireo/internal/redistest"
)

// startRedis starts a persistent server on a free port.
func startRedis(t testing.TB) *redistest.Server { return startRedisWith(t, true) }

func startRedisWith(t testing.TB, persist bool) *redistest.Server {
	t.Helper()
	if persist { // later arguments win over redistest's defaults
		return redistest.StartServer(t, "--appendonly", "yes", "--appendfsync", "always")
	}
	return redistest.StartServer(t)
}
