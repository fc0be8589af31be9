package conformance_test

import (
	"testing"

	"github.com/vireo-go/vireo/internal/conformance"
	"github.com/vireo-go/vireo/sessions"
)

// TestConformance runs the engines' shared HTTP-level suite on net/http
// (here, so that core's tests do not import the packages above core);
// the fast module runs it on fasthttp.
func TestConformance(t *testing.T) { conformance.Run(t, conformance.Target{}) }

// TestRunSessionsWithAGivenDatabase runs the sessions tests through
// RunSessions on a MemoryDatabase the caller owns (the Redis store runs
// them in internal/redisconformance).
func TestRunSessionsWithAGivenDatabase(t *testing.T) {
	conformance.RunSessions(t, conformance.Target{}, func(t *testing.T) sessions.Database {
		db := sessions.NewMemoryDatabase()
		t.Cleanup(func() { db.Close() })
		return db
	})
}
