// Rate limiting.
//
// RateLimit gives every key (the client's IP address by default, as
// core.Context.ClientIP reports it under the trusted-proxy rules, or what
// a key func returns) a token bucket: rate tokens a second, burst at most.
// A request takes a token; without one it is stopped with 429, Retry-After
// (seconds until the next token) and the RateLimit-* headers that every
// response carries: RateLimit-Limit (the burst), RateLimit-Remaining and
// RateLimit-Reset (seconds until the bucket is full again).
//
// The buckets live in a RateStore. RateMemoryStore, the default, holds
// golang.org/x/time/rate limiters in 32 mutex-guarded shards. It is bounded:
// a shard that reaches its share of the key limit first drops its full
// buckets (keys idle long enough to have refilled, whose state is the same
// as a new key's), and when too few are full drops an arbitrary eighth of
// the shard (Go's randomised map order picks them, so a client cannot
// aim at others' keys). Dropping a busy key only forgives it a burst.
// Another store implements RateStore: the module
// github.com/vireo-go/vireo/middleware/ratelimit/redis keeps the buckets in
// Redis, so that several instances behind a load balancer share one limit.
//
// A store that fails (Redis unreachable) fails closed by default: the
// request is stopped with 503 Service Unavailable, so a limit that guards a
// login form or a costly endpoint never lapses with the store. WithFailOpen
// lets such requests through instead, without RateLimit headers, for limits
// that protect capacity rather than security.

package middleware

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/vireo-go/vireo/core"
	"golang.org/x/time/rate"
)

// RateResult is the outcome of taking a token.
type RateResult struct {
	Allowed    bool
	Limit      int           // the bucket's size
	Remaining  int           // whole tokens left after this request
	RetryAfter time.Duration // until a token is available (when refused)
	Reset      time.Duration // until the bucket is full again
}

// RateStore keeps the token buckets of RateLimit.
type RateStore interface {
	// Take takes a token from key's bucket at now.
	Take(key string, now time.Time) (RateResult, error)
}

// RateMemoryStore is an in-memory, bounded RateStore.
type RateMemoryStore struct {
	limit   rate.Limit
	burst   int
	perShrd int
	seed    maphash.Seed
	shards  [32]rateShard
}

type rateShard struct {
	mu sync.Mutex
	m  map[string]*rate.Limiter
}

// NewRateMemoryStore returns a store of buckets of perSecond tokens a second
// and burst tokens at most, holding at most maxKeys keys (0 means 100000).
func NewRateMemoryStore(perSecond float64, burst, maxKeys int) (*RateMemoryStore, error) {
	if perSecond <= 0 || math.IsInf(perSecond, 0) || math.IsNaN(perSecond) || burst < 1 {
		return nil, fmt.Errorf("middleware: rate %v/s with burst %d: both must be positive", perSecond, burst)
	}
	if maxKeys == 0 {
		maxKeys = 100000
	}
	if maxKeys < 32 {
		return nil, fmt.Errorf("middleware: RateMemoryStore: max keys %d below 32", maxKeys)
	}
	s := &RateMemoryStore{limit: rate.Limit(perSecond), burst: burst, perShrd: maxKeys / 32, seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i].m = make(map[string]*rate.Limiter)
	}
	return s, nil
}

// Len returns the number of keys held.
func (s *RateMemoryStore) Len() int {
	n := 0
	for i := range s.shards {
		s.shards[i].mu.Lock()
		n += len(s.shards[i].m)
		s.shards[i].mu.Unlock()
	}
	return n
}

// Take takes a token from key's bucket.
func (s *RateMemoryStore) Take(key string, now time.Time) (RateResult, error) {
	sh := &s.shards[maphash.String(s.seed, key)%uint64(len(s.shards))]
	sh.mu.Lock()
	lim, ok := sh.m[key]
	if !ok {
		if len(sh.m) >= s.perShrd {
			s.evict(sh, now)
		}
		lim = rate.NewLimiter(s.limit, s.burst)
		sh.m[key] = lim
	}
	allowed := lim.AllowN(now, 1)
	tokens := lim.TokensAt(now)
	sh.mu.Unlock()

	res := RateResult{Allowed: allowed, Limit: s.burst, Remaining: max(int(tokens), 0)}
	perToken := float64(time.Second) / float64(s.limit)
	res.Reset = time.Duration((float64(s.burst) - tokens) * perToken)
	if !allowed {
		res.RetryAfter = time.Duration((1 - tokens) * perToken)
	}
	return res, nil
}

// evict frees room in a full shard; see the file comment.
func (s *RateMemoryStore) evict(sh *rateShard, now time.Time) {
	target := max(s.perShrd/8, 1)
	freed := 0
	for k, lim := range sh.m {
		if lim.TokensAt(now) >= float64(s.burst) {
			delete(sh.m, k)
			freed++
		}
	}
	for k := range sh.m {
		if freed >= target {
			return
		}
		delete(sh.m, k)
		freed++
	}
}

// RateLimitOption configures RateLimit.
type RateLimitOption func(*rateConfig) error

type rateConfig struct {
	perSecond float64
	burst     int
	maxKeys   int
	store     RateStore
	key       func(ctx core.Context) string
	failOpen  bool
}

// WithRate sets the rate (tokens a second) and the burst of the buckets of
// the default RateMemoryStore.
func WithRate(perSecond float64, burst int) RateLimitOption {
	return func(c *rateConfig) error { c.perSecond, c.burst = perSecond, burst; return nil }
}

// WithMaxKeys bounds the keys the default RateMemoryStore holds (default
// 100000).
func WithMaxKeys(n int) RateLimitOption {
	return func(c *rateConfig) error { c.maxKeys = n; return nil }
}

// WithRateStore sets the store of the buckets, replacing WithRate's
// RateMemoryStore. The RateLimit-Limit header then comes from the store's
// results.
func WithRateStore(s RateStore) RateLimitOption {
	return func(c *rateConfig) error {
		if s == nil {
			return errors.New("middleware: RateLimit: nil store")
		}
		c.store = s
		return nil
	}
}

// WithFailOpen lets a request through, without RateLimit headers, when the
// store returns an error; by default such a request is stopped with 503.
func WithFailOpen() RateLimitOption {
	return func(c *rateConfig) error { c.failOpen = true; return nil }
}

// WithKeyFunc sets what a bucket belongs to (default the client IP,
// ctx.ClientIP). A request for which fn returns "" is not limited.
func WithKeyFunc(fn func(ctx core.Context) string) RateLimitOption {
	return func(c *rateConfig) error {
		if fn == nil {
			return errors.New("middleware: RateLimit: nil key func")
		}
		c.key = fn
		return nil
	}
}

// RateLimit returns rate-limiting middleware, or an error for an invalid
// configuration (WithRate or WithRateStore is required).
func RateLimit(opts ...RateLimitOption) (core.Handler, error) {
	cfg := rateConfig{key: (core.Context).ClientIP}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: RateLimit: nil option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	store := cfg.store
	if store == nil {
		if cfg.perSecond == 0 && cfg.burst == 0 {
			return nil, errors.New("middleware: RateLimit: WithRate or WithRateStore is required")
		}
		ms, err := NewRateMemoryStore(cfg.perSecond, cfg.burst, cfg.maxKeys)
		if err != nil {
			return nil, err
		}
		store = ms
	}
	// Header values for small numbers are made once and shared; a larger
	// burst pays an allocation for its counts instead of a table that size.
	nums := make([][]string, min(max(cfg.burst, 60), 4096)+1)
	for i := range nums {
		nums[i] = []string{strconv.Itoa(i)}
	}
	num := func(n int) []string {
		if n >= 0 && n < len(nums) {
			return nums[n]
		}
		return []string{strconv.Itoa(n)}
	}
	tooMany := core.NewHTTPError(http.StatusTooManyRequests, "rate limit exceeded")
	return func(ctx core.Context) {
		key := cfg.key(ctx)
		if key == "" {
			ctx.Next()
			return
		}
		res, err := store.Take(key, time.Now())
		if err != nil {
			if cfg.failOpen {
				ctx.Next()
				return
			}
			ctx.StopWithError(&core.HTTPError{Code: http.StatusServiceUnavailable, Message: "rate limiter unavailable", Err: err})
			return
		}
		// The shared values go in through the Context, in one call, which
		// hands the header map to no one: the fast engine keeps reusing it.
		limit := rateLimitLimit.WithValues(num(res.Limit)...)
		remaining := rateLimitRemaining.WithValues(num(res.Remaining)...)
		reset := rateLimitReset.WithValues(num(ceilSeconds(res.Reset))...)
		if !res.Allowed {
			ctx.SetResponseHeaders(limit, remaining, reset, retryAfter.WithValues(num(max(ceilSeconds(res.RetryAfter), 1))...))
			ctx.StopWithError(tooMany)
			return
		}
		ctx.SetResponseHeaders(limit, remaining, reset)
		ctx.Next()
	}, nil
}

// The headers RateLimit sets, their values per request (WithValues).
var (
	rateLimitLimit     = core.NewHeaderField("Ratelimit-Limit")
	rateLimitRemaining = core.NewHeaderField("Ratelimit-Remaining")
	rateLimitReset     = core.NewHeaderField("Ratelimit-Reset")
	retryAfter         = core.NewHeaderField("Retry-After")
)

// MustRateLimit is RateLimit that panics on an invalid configuration.
func MustRateLimit(opts ...RateLimitOption) core.Handler {
	h, err := RateLimit(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

func ceilSeconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
