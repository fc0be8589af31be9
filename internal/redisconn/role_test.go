package redisconn

import (
	"context"
	"strings"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/vireo-go/vireo/internal/redistest"
)

// TestRequireMaster checks the OnConnect that Open gives a Sentinel
// client: a connection to a master serves commands, a connection to a
// replica (here one whose master is unreachable, as the old master is
// when it comes back as a replica before its first sync) is refused with
// an error that names the role, so no command of the store runs there.
// Before the check, such a connection answered reads from the replica's
// empty data: TestSentinelFailover (sessions/redis) saw sessions missing
// (401) after a failover.
func TestRequireMaster(t *testing.T) {
	master := redistest.StartServer(t).Addr()
	replica := redistest.StartServer(t, "--replicaof", "127.0.0.1", "1").Addr()
	for _, tc := range []struct {
		name, addr, want string // want: "" for no error
	}{
		{"master", master, ""},
		{"replica", replica, "is a slave, not the Sentinel master"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := goredis.NewClient(&goredis.Options{Addr: tc.addr, OnConnect: requireMaster, MaxRetries: -1})
			defer c.Close()
			// A missing key, goredis.Nil, is what a replica's empty
			// data answered before the check.
			err := c.Get(context.Background(), "session").Err()
			switch {
			case tc.want == "" && err != goredis.Nil:
				t.Fatalf("GET through %s: %v, want redis: nil", tc.addr, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("GET through %s: error %v, want one containing %q", tc.addr, err, tc.want)
			}
		})
	}
}
