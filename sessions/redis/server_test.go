// A single redis-server for the tests, a proc (see topology_test.go) with
// append-only persistence fsynced on every write, so that a killed and
// restarted server still has its data; benchmarks run without it.

package redis

import "testing"

// startRedis starts a persistent server on a free port.
func startRedis(t testing.TB) *proc { return startRedisWith(t, true) }

func startRedisWith(t testing.TB, persist bool) *proc {
	t.Helper()
	var args []string
	if persist { // later arguments win over newServerProc's defaults
		args = []string{"--appendonly", "yes", "--appendfsync", "always"}
	}
	p := newServerProc(t, "redis-server", false, args...)
	p.start()
	return p
}
