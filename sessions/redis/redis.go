// Package redis is a sessions.Database backed by Redis, so that several
// vireo instances behind a load balancer share their users' sessions.
//
//	db, err := redis.New(redis.WithAddr("127.0.0.1:6379"))
//	if err != nil { ... }                     // Redis unreachable at start
//	m, err := sessions.New(sessions.WithDatabase(db))
//	app.Use(m.Handler())                      // 503 while Redis is down
//	app.OnShutdown(func() { db.Close() })
//
// Each session is one Redis string under the prefix (WithPrefix) and the
// ID, holding the session's values (see Codec), with a TTL equal to the
// session's remaining lifetime: Redis expires it, and the TTL is refreshed
// when sliding expiration moves it (PEXPIRE, or the SET of a modified
// session). Load reads the value and its TTL in one MULTI; the Manager
// writes a modified session back once per request, just before the
// response goes out, so a failed write is a 503 and never a response whose
// session change was lost. Regenerate writes the new key and deletes the
// old one in one MULTI (on a cluster, where the two keys live in different
// slots, in one pipeline), so the old ID cannot be read once it returns.
//
// When Redis cannot be reached, every call returns the client's error: the
// sessions Manager answers 503 Service Unavailable to requests that need a
// session (see package sessions) and the client reconnects by itself when
// Redis is back. New fails with a clear error when Redis is unreachable at
// start.
package redis

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/sessions"
)

// Defaults of the options.
const (
	DefaultAddr         = "127.0.0.1:6379"
	DefaultPrefix       = "vireo:session:"
	DefaultDialTimeout  = 2 * time.Second
	DefaultReadTimeout  = time.Second
	DefaultWriteTimeout = time.Second
)

// Option configures a Database; pass options to New or MustNew. Like every
// constructor of the framework, New takes functional options: a setting
// reads the same everywhere and new ones break no caller.
type Option func(*settings)

type settings struct {
	client       goredis.UniversalClient
	opts         goredis.UniversalOptions
	prefix       string
	codec        Codec
	now          func() time.Time
	dialTimeout  time.Duration
	readTimeout  time.Duration
	writeTimeout time.Duration
	errs         []error
}

// WithAddr sets the host:port of a single Redis server. Default
// DefaultAddr.
func WithAddr(addr string) Option {
	return func(s *settings) {
		if addr == "" {
			s.errs = append(s.errs, errors.New("sessions/redis: empty address"))
		}
		s.opts.Addrs = []string{addr}
	}
}

// WithAddrs sets several seed addresses: a Redis Cluster, or Sentinels with
// WithMasterName.
func WithAddrs(addrs ...string) Option {
	return func(s *settings) {
		if len(addrs) == 0 {
			s.errs = append(s.errs, errors.New("sessions/redis: no addresses"))
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
			s.errs = append(s.errs, fmt.Errorf("sessions/redis: negative database index %d", index))
		}
		s.opts.DB = index
	}
}

// WithPrefix sets the string prepended to session IDs to form keys.
// Default DefaultPrefix.
func WithPrefix(prefix string) Option {
	return func(s *settings) { s.prefix = prefix }
}

// WithTimeouts bounds each dial, read and write, so a stalled Redis turns
// into an error (and a 503) in bounded time. A zero leaves that default:
// DefaultDialTimeout, DefaultReadTimeout, DefaultWriteTimeout.
func WithTimeouts(dial, read, write time.Duration) Option {
	return func(s *settings) {
		if dial < 0 || read < 0 || write < 0 {
			s.errs = append(s.errs, errors.New("sessions/redis: negative timeout"))
		}
		if dial > 0 {
			s.dialTimeout = dial
		}
		if read > 0 {
			s.readTimeout = read
		}
		if write > 0 {
			s.writeTimeout = write
		}
	}
}

// WithPoolSize sets the number of connections per server. Default: the
// client's (10 per GOMAXPROCS).
func WithPoolSize(n int) Option {
	return func(s *settings) { s.opts.PoolSize = n }
}

// WithMaxRetries sets how often a failed command is retried (with the
// client's backoff) before the error reaches the Manager. Default: the
// client's (3); -1 disables retries, which makes requests answer 503
// fastest while Redis is down.
func WithMaxRetries(n int) Option {
	return func(s *settings) { s.opts.MaxRetries = n }
}

// WithTLS enables TLS.
func WithTLS(cfg *tls.Config) Option {
	return func(s *settings) { s.opts.TLSConfig = cfg }
}

// WithClient uses an existing client (for example a Sentinel failover or a
// Cluster client) instead of making one; the connection options are then
// ignored and Close leaves the client open.
func WithClient(c goredis.UniversalClient) Option {
	return func(s *settings) {
		if c == nil {
			s.errs = append(s.errs, errors.New("sessions/redis: nil client"))
		}
		s.client = c
	}
}

// WithCodec sets how session values are serialized. Default JSONCodec.
func WithCodec(c Codec) Option {
	return func(s *settings) {
		if c == nil {
			s.errs = append(s.errs, errors.New("sessions/redis: nil Codec"))
		}
		s.codec = c
	}
}

// WithClock sets the clock used to turn expiry times into TTLs. Default
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(s *settings) {
		if now == nil {
			s.errs = append(s.errs, errors.New("sessions/redis: nil clock"))
		}
		s.now = now
	}
}

// Database is a sessions.Database stored in Redis. It is safe for
// concurrent use.
type Database struct {
	client    goredis.UniversalClient
	ownClient bool
	cluster   bool
	prefix    string
	codec     Codec
	now       func() time.Time
}

var _ sessions.Database = (*Database)(nil)

// New connects to Redis and checks it answers a PING, so a wrong address
// or a Redis that is down fails at startup with a clear error. An invalid
// option is an error too.
func New(opts ...Option) (*Database, error) {
	cfg := settings{
		prefix:       DefaultPrefix,
		codec:        JSONCodec{},
		now:          time.Now,
		dialTimeout:  DefaultDialTimeout,
		readTimeout:  DefaultReadTimeout,
		writeTimeout: DefaultWriteTimeout,
	}
	for _, o := range opts {
		if o == nil {
			cfg.errs = append(cfg.errs, errors.New("sessions/redis: nil Option"))
			continue
		}
		o(&cfg)
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, err
	}
	db := &Database{client: cfg.client, prefix: cfg.prefix, codec: cfg.codec, now: cfg.now}
	where := "the given client"
	if db.client == nil {
		o := cfg.opts
		o.DialTimeout, o.ReadTimeout, o.WriteTimeout = cfg.dialTimeout, cfg.readTimeout, cfg.writeTimeout
		if len(o.Addrs) == 0 {
			o.Addrs = []string{DefaultAddr}
		}
		where = strings.Join(o.Addrs, ",")
		db.client = goredis.NewUniversalClient(&o)
		db.ownClient = true
	}
	_, db.cluster = db.client.(*goredis.ClusterClient)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.dialTimeout+cfg.readTimeout)
	defer cancel()
	if err := db.client.Ping(ctx).Err(); err != nil {
		if db.ownClient {
			db.client.Close()
		}
		return nil, fmt.Errorf("sessions/redis: cannot reach Redis at %s: %w", where, err)
	}
	return db, nil
}

// MustNew is New that panics on an error, for programs that cannot run
// without their session store.
func MustNew(opts ...Option) *Database {
	db, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return db
}

// Client returns the underlying Redis client.
func (db *Database) Client() goredis.UniversalClient { return db.client }

// Ping reports whether Redis answers a PING within ctx: the readiness
// check of the session store, a health.CheckFunc
// (health.WithReadyCheck("redis", db.Ping, 0)).
func (db *Database) Ping(ctx context.Context) error {
	if err := db.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("sessions/redis: ping: %w", err)
	}
	return nil
}

// Key returns the Redis key of a session ID.
func (db *Database) Key(id string) string { return db.prefix + id }

// Load reads the value and the TTL of the session in one transaction.
func (db *Database) Load(ctx context.Context, id string) (*sessions.Record, error) {
	key := db.Key(id)
	var get *goredis.StringCmd
	var ttl *goredis.DurationCmd
	_, err := db.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		get = p.Get(ctx, key)
		ttl = p.PTTL(ctx, key)
		return nil
	})
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	left := ttl.Val()
	if left <= 0 {
		// -2: gone between the commands (impossible in MULTI, kept for
		// safety); -1: no TTL, which this package never writes.
		return nil, nil
	}
	data, err := get.Bytes()
	if err != nil {
		return nil, err
	}
	snap, err := db.codec.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", errCorrupt, key, err)
	}
	snap.ExpiresAt = db.now().Add(left)
	return sessions.NewRecord(snap), nil
}

// ttl returns the time left until t, or false when it has passed.
func (db *Database) ttl(t time.Time) (time.Duration, bool) {
	d := t.Sub(db.now())
	if d < time.Millisecond {
		return 0, false
	}
	return d, true
}

// Save writes the session with a TTL reaching its expiry.
func (db *Database) Save(ctx context.Context, id string, rec *sessions.Record) error {
	snap := rec.Snapshot()
	ttl, ok := db.ttl(snap.ExpiresAt)
	if !ok {
		return db.client.Del(ctx, db.Key(id)).Err()
	}
	data, err := db.codec.Marshal(snap)
	if err != nil {
		return err
	}
	return db.client.Set(ctx, db.Key(id), data, ttl).Err()
}

// Touch moves the session's expiry by resetting its TTL.
func (db *Database) Touch(ctx context.Context, id string, expiresAt time.Time) error {
	ttl, ok := db.ttl(expiresAt)
	if !ok {
		return db.client.Del(ctx, db.Key(id)).Err()
	}
	return db.client.PExpire(ctx, db.Key(id), ttl).Err()
}

// Delete removes the session.
func (db *Database) Delete(ctx context.Context, id string) error {
	return db.client.Del(ctx, db.Key(id)).Err()
}

// Rename writes rec under newID and deletes oldID in one MULTI (a pipeline
// on a cluster). When it returns nil, oldID is gone.
func (db *Database) Rename(ctx context.Context, oldID, newID string, rec *sessions.Record) error {
	snap := rec.Snapshot()
	ttl, ok := db.ttl(snap.ExpiresAt)
	if !ok {
		return db.client.Del(ctx, db.Key(oldID)).Err()
	}
	data, err := db.codec.Marshal(snap)
	if err != nil {
		return err
	}
	fn := func(p goredis.Pipeliner) error {
		p.Set(ctx, db.Key(newID), data, ttl)
		p.Del(ctx, db.Key(oldID))
		return nil
	}
	if db.cluster {
		_, err = db.client.Pipelined(ctx, fn)
	} else {
		_, err = db.client.TxPipelined(ctx, fn)
	}
	return err
}

// Close closes the client New created; a client given with WithClient is
// left open.
func (db *Database) Close() error {
	if db.ownClient {
		err := db.client.Close()
		if errors.Is(err, goredis.ErrClosed) {
			return nil
		}
		return err
	}
	return nil
}
