// Runs the sessiontest conformance suite against the in-memory database
// and against a copying database that takes the remote-store code paths.

package sessions_test

import (
	"testing"
	"time"

	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestMemoryDatabaseConformance(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	sessiontest.RunDatabaseTests(t, sessiontest.Harness{
		New: func(t *testing.T) sessions.Database {
			return sessions.NewMemoryDatabase(sessions.WithMemoryClock(clock.Now))
		},
		Now:     clock.Now,
		Advance: func(_ *testing.T, d time.Duration) { clock.Advance(d) },
	})
}

func TestCopyingDatabaseConformance(t *testing.T) {
	clock := sessiontest.NewClock(epoch)
	sessiontest.RunDatabaseTests(t, sessiontest.Harness{
		New:     func(t *testing.T) sessions.Database { return newCopyDB(clock.Now) },
		Now:     clock.Now,
		Advance: func(_ *testing.T, d time.Duration) { clock.Advance(d) },
	})
}
