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
// Take returns the client's error, bounded by the command timeout
// (WithTimeout, DefaultTimeout, no retries by default: a rate limiter must
// not add seconds to a request). The middleware then fails closed - 503 -
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
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/middleware"
)

// Defaults of the options.
const (
	DefaultAddr    = "127.0.0.1:6379"
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

// Option configures a Store; pass options to New or MustNew.
type Option func(*settings)

type settings struct {
	client  goredis.UniversalClient
	opts    goredis.UniversalOptions
	prefix  string
	timeout time.Duration
	errs    []error
}

// WithAddr sets the host:port of a single Redis server. Default
// DefaultAddr.
func WithAddr(addr string) Option {
	return func(s *settings) {
		if addr == "" {
			s.errs = append(s.errs, errors.New("ratelimit/redis: empty address"))
		}
		s.opts.Addrs = []string{addr}
	}
}

// WithAddrs sets several seed addresses: a Redis Cluster, or Sentinels with
// WithMasterName.
func WithAddrs(addrs ...string) Option {
	return func(s *settings) {
		if len(addrs) == 0 {
			s.errs = append(s.errs, errors.New("ratelimit/redis: no addresses"))
		}
		s.opts.Addrs = append([]string(nil), addrs...)
	}
}

// WithMasterName sets the Sentinel master name.
func WithMasterName(name string) Option {
	return func(s *settings) { s.opts.MasterName = name }
}

// WithAuth authenticates as an ACL user, or with a password alone when
// username is empty.
func WithAuth(username, password string) Option {
	return func(s *settings) { s.opts.Username, s.opts.Password = username, password }
}

// WithDB sets the database index (single server and Sentinel only).
func WithDB(index int) Option {
	return func(s *settings) {
		if index < 0 {
			s.errs = append(s.errs, fmt.Errorf("ratelimit/redis: negative database index %d", index))
		}
		s.opts.DB = index
	}
}

// WithTLS enables TLS.
func WithTLS(cfg *tls.Config) Option {
	return func(s *settings) { s.opts.TLSConfig = cfg }
}

// WithPrefix sets the string prepended to the limiter's keys. Default
// DefaultPrefix. Limits with different rates need different prefixes.
func WithPrefix(prefix string) Option {
	return func(s *settings) { s.prefix = prefix }
}

// WithTimeout bounds each dial, read and write of the client New makes.
// Default DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) {
		if d <= 0 {
			s.errs = append(s.errs, fmt.Errorf("ratelimit/redis: timeout %v must be positive", d))
		}
		s.timeout = d
	}
}

// WithClient uses an existing client instead of making one; the
// connection options are then ignored and Close leaves the client open.
func WithClient(c goredis.UniversalClient) Option {
	return func(s *settings) {
		if c == nil {
			s.errs = append(s.errs, errors.New("ratelimit/redis: nil client"))
		}
		s.client = c
	}
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
	cfg := settings{prefix: DefaultPrefix, timeout: DefaultTimeout}
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
	if err := errors.Join(append(errs, cfg.errs...)...); err != nil {
		return nil, err
	}
	s := &Store{client: cfg.client, prefix: cfg.prefix, interval: int64(math.Round(1e6 / perSecond)), burst: burst}
	where := "the given client"
	if s.client == nil {
		o := cfg.opts
		o.DialTimeout, o.ReadTimeout, o.WriteTimeout = cfg.timeout, cfg.timeout, cfg.timeout
		o.MaxRetries = -1
		if len(o.Addrs) == 0 {
			o.Addrs = []string{DefaultAddr}
		}
		where = strings.Join(o.Addrs, ",")
		s.client = goredis.NewUniversalClient(&o)
		s.ownClient = true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*cfg.timeout)
	defer cancel()
	err := s.client.Ping(ctx).Err()
	if err == nil {
		err = gcra.Load(ctx, s.client).Err()
	}
	if err != nil {
		if s.ownClient {
			s.client.Close()
		}
		return nil, fmt.Errorf("ratelimit/redis: cannot reach Redis at %s: %w", where, err)
	}
	return s, nil
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
