// Package redis is a middleware.RateStore backed by Redis, so that every
// instance of an application behind a load balancer draws from the same
// buckets: three instances limited to 100 requests a second let 100 a
// second through in total, not 300.
//
//	store, err := redis.New(100, 200, redis.WithAddr("127.0.0.1:6379"))
//	if err != nil { ... }                     // Redis unreachable at start
//	app.Use(middleware.MustRateLimit(middleware.WithRateStore(store)))
//	app.OnShutdown(func() { store.Close() })
//
// # The algorithm: GCRA in one Lua script
//
// Each key is limited by the generic cell rate algorithm (GCRA), which
// admits exactly what a token bucket of burst tokens refilled at perSecond
// admits, but keeps one number per key instead of two: the theoretical
// arrival time (TAT), when the bucket would be full again. A request at
// time now is admitted when TAT - now <= (burst-1) * T, where T is the
// interval between tokens; admitting it moves TAT to max(TAT, now) + T. The
// tokens left are (burst*T - (TAT - now)) / T, the time until the bucket is
// full (RateLimit-Reset) is TAT - now, and a refused request may retry
// after TAT - now - (burst-1)*T. These are the numbers the in-memory store
// reports, so RateLimit sends the same RateLimit-Limit, RateLimit-Remaining,
// RateLimit-Reset and Retry-After headers with either store.
//
// Reading TAT, deciding and writing it back happen in one Lua script, which
// Redis runs atomically: concurrent requests from any number of instances
// can neither both take the last token nor lose each other's updates (a
// read-then-write from the client could). The script reads the time from
// Redis (TIME), so the instances' clocks, which may differ, do not matter;
// the now argument of Take is ignored. The key expires when the bucket is
// full again (PX = TAT - now), so idle clients cost Redis nothing and no
// sweeping is needed. A key lives in one slot, so the script works
// unchanged on a Redis Cluster; under Sentinel, on the current master.
// Redis 5 or later is required (scripts replicated by their effects).
//
// # When Redis is down
//
// Take returns the client's error, bounded by the command timeouts
// (WithTimeouts, DefaultTimeout each, and no retries by default: a rate
// limiter must not add seconds to a request). The middleware then fails closed - 503 -
// unless it is given middleware.WithFailOpen, which lets the request
// through without RateLimit headers. The client reconnects by itself when
// Redis is back.
package redis

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/internal/redisconn"
	"github.com/vireo-go/vireo/middleware"
)

// Defaults of the options.
const (
	DefaultAddr    = redisconn.DefaultAddr
	DefaultPrefix  = "vireo:ratelimit:"
	DefaultTimeout = 200 * time.Millisecond
)

// gcra is the script: KEYS[1] the bucket's key, ARGV[1] the interval
// between tokens and ARGV[2] the burst, both in microseconds and tokens.
// It returns {allowed (0/1), tokens left, retry after µs, reset µs}.
var gcra = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local allowAt = tat + interval - burst * interval
if now < allowAt then
  return {0, 0, allowAt - now, tat - now}
end
tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000))
return {1, math.floor((now - allowAt) / interval), 0, tat - now}
`)

// Option configures a Store; pass options to New or MustNew. The
// connection options are those of sessions/redis, with the same names and
// checks.
type Option func(*settings)

type settings struct {
	conn   redisconn.Settings
	prefix string
}

func (s *settings) Conn() *redisconn.Settings { return &s.conn }

// WithAddr sets the host:port of a single Redis server. Default
// DefaultAddr.
func WithAddr(addr string) Option { return redisconn.Addr[*settings](addr) }

// WithAddrs sets several seed addresses: a Redis Cluster, or Sentinels with
// WithMasterName.
func WithAddrs(addrs ...string) Option { return redisconn.Addrs[*settings](addrs...) }

// WithMasterName sets the Sentinel master name.
func WithMasterName(name string) Option { return redisconn.MasterName[*settings](name) }

// WithAuth authenticates as an ACL user, or with a password alone when
// username is empty.
func WithAuth(username, password string) Option {
	return redisconn.Auth[*settings](username, password)
}

// WithDB sets the database index (single server and Sentinel only).
func WithDB(index int) Option { return redisconn.DB[*settings](index) }

// WithTLS enables TLS.
func WithTLS(cfg *tls.Config) Option { return redisconn.TLS[*settings](cfg) }

// WithTimeouts bounds each dial, read and write of the client New makes. A
// zero leaves that default, DefaultTimeout.
func WithTimeouts(dial, read, write time.Duration) Option {
	return redisconn.Timeouts[*settings](dial, read, write)
}

// WithPoolSize sets the number of connections per server. Default: the
// client's (10 per GOMAXPROCS).
func WithPoolSize(n int) Option { return redisconn.PoolSize[*settings](n) }

// WithMaxRetries sets how often a failed command is retried before Take
// returns its error. Default -1: none.
func WithMaxRetries(n int) Option { return redisconn.MaxRetries[*settings](n) }

// WithClient uses an existing client instead of making one; the
// connection options are then ignored and Close leaves the client open.
func WithClient(c goredis.UniversalClient) Option { return redisconn.Client[*settings](c) }

// WithPrefix sets the string prepended to the limiter's keys. Default
// DefaultPrefix. Limits with different rates need different prefixes.
func WithPrefix(prefix string) Option {
	return func(s *settings) { s.prefix = prefix }
}

// Store is a middleware.RateStore in Redis. It is safe for concurrent use.
type Store struct {
	client    goredis.UniversalClient
	ownClient bool
	prefix    string
	interval  int64 // microseconds between tokens
	burst     int
}

var _ middleware.RateStore = (*Store)(nil)

// New returns a store of buckets of perSecond tokens a second and burst
// tokens at most, after checking that Redis answers a PING and loading the
// script, so a wrong address fails at startup with a clear error. Invalid
// arguments or options are errors too.
func New(perSecond float64, burst int, opts ...Option) (*Store, error) {
	cfg := settings{prefix: DefaultPrefix}
	cfg.conn.Init("ratelimit/redis", DefaultTimeout, DefaultTimeout, DefaultTimeout, -1)
	var errs []error
	if perSecond <= 0 || math.IsInf(perSecond, 0) || math.IsNaN(perSecond) || burst < 1 {
		errs = append(errs, fmt.Errorf("ratelimit/redis: rate %v/s with burst %d: both must be positive", perSecond, burst))
	} else if perSecond > 1e6 {
		errs = append(errs, fmt.Errorf("ratelimit/redis: rate %v/s is above a token a microsecond", perSecond))
	}
	for _, o := range opts {
		if o == nil {
			errs = append(errs, errors.New("ratelimit/redis: nil Option"))
			continue
		}
		o(&cfg)
	}
	if err := errors.Join(append(errs, cfg.conn.Err())...); err != nil {
		return nil, err
	}
	client, own, err := cfg.conn.Open(func(ctx context.Context, c goredis.UniversalClient) error {
		return gcra.Load(ctx, c).Err()
	})
	if err != nil {
		return nil, err
	}
	return &Store{client: client, ownClient: own, prefix: cfg.prefix, interval: int64(math.Round(1e6 / perSecond)), burst: burst}, nil
}

// MustNew is New that panics on an error.
func MustNew(perSecond float64, burst int, opts ...Option) *Store {
	s, err := New(perSecond, burst, opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// Client returns the underlying Redis client.
func (s *Store) Client() goredis.UniversalClient { return s.client }

// Key returns the Redis key of a limiter key.
func (s *Store) Key(key string) string { return s.prefix + key }

// Take takes a token from key's bucket, by the Redis server's clock (now
// is ignored; see the package comment).
func (s *Store) Take(key string, _ time.Time) (middleware.RateResult, error) {
	// EVALSHA, and EVAL when the server lost the script (a restart, a
	// failover to a replica that never saw it).
	v, err := gcra.Run(context.Background(), s.client, []string{s.Key(key)}, s.interval, s.burst).Int64Slice()
	if err != nil {
		return middleware.RateResult{}, err
	}
	if len(v) != 4 {
		return middleware.RateResult{}, fmt.Errorf("ratelimit/redis: script returned %d values, want 4", len(v))
	}
	return middleware.RateResult{
		Allowed:    v[0] == 1,
		Limit:      s.burst,
		Remaining:  int(v[1]),
		RetryAfter: time.Duration(v[2]) * time.Microsecond,
		Reset:      time.Duration(v[3]) * time.Microsecond,
	}, nil
}

// Close closes the client New created; a client given with WithClient is
// left open.
func (s *Store) Close() error {
	if s.ownClient {
		err := s.client.Close()
		if errors.Is(err, goredis.ErrClosed) {
			return nil
		}
		return err
	}
	return nil
}
