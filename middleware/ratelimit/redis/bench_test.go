package redis

import (
	"strconv"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/redistest"
)

// BenchmarkTake is one round trip to a local redis-server running the
// GCRA script, over a bucket per client that is never exhausted.
func BenchmarkTake(b *testing.B) {
	srv := redistest.StartServer(b)
	s := newStore(b, srv, 1e6, 1<<30)
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = "client" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Take(keys[i%len(keys)], time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}
