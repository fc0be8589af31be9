// Package redis is a sessions.Database backed by Redis, so that several
// vireo instances behind a load balancer share their users' sessions.
//
//	db, err := redis.New(redis.WithAddr("127.0.0.1:6379"))
//	if err != nil { ... }                     // Redis unreachable at start
//	m, err := sessions.New(sessions.WithDatabase(db))
//	app.Use(m.Handler())                      // 503 while Redis is down
//	app.OnShutdown(func() { db.Close() })
//
// One server, a Redis Cluster (WithAddrs with the seed nodes) or a
// master/replica set under Sentinel (WithAddrs with the Sentinels, plus
// WithMasterName) all use the same options.
//
// Each session is one Redis string under the prefix (WithPrefix) and the
// ID, holding the session's values (see Codec), with a TTL equal to the
// session's remaining lifetime: Redis expires it, and the TTL is refreshed
// when sliding expiration moves it (PEXPIRE, or the SET of a modified
// session). Load reads the value and its TTL in one MULTI; the Manager
// writes a modified session back once per request, just before the
// response goes out, so a failed write is a 503 and never a response whose
// session change was lost. Regenerate writes the new key and deletes the
// old one in one Lua script (on a cluster, where the two keys live in
// different slots, the new key first, then the deletion), so the old ID
// cannot be read once it returns.
//
// # The write guarantee: WAIT
//
// Redis replicates asynchronously: a master that dies before its replica
// received a write loses the write in the failover. WithWaitReplicas makes
// every write (Save, Delete, Rename) send WAIT after its commands, on
// the same connection to the key's master, and succeed only when that many
// replicas acknowledged it within the timeout; otherwise it returns an
// error, which the Manager turns into 503 Service Unavailable. A write that
// returned nil is therefore on a replica, and the replica Sentinel or the
// Cluster promotes has it (with one replica, the one promoted is the one
// that acknowledged; with more, the promoted one is the most up to date).
// A logout (Delete) is covered too, so a failover never brings back a
// session its user ended. Touch, which only moves an expiry forward, does
// not wait: a touch lost in a failover leaves the session the expiry its
// last save or touch gave it, earlier by what the touch would have added,
// and the next request moves it again.
//
// The default is one replica within DefaultWaitTimeout on a Cluster and
// under Sentinel, where replicas are the point, and none for a single
// server or a client given with WithClient that is not a *ClusterClient.
// The price: while a master has no replica that answers - after a failover
// that left the new master without one, until the failed node is back as
// its replica - requests that change a session of its keys answer 503,
// while requests that only read (and touch) sessions keep working.
// Run two replicas per master to keep writing through one failure, or
// choose availability with WithWaitReplicas(0, 0), accepting that a
// failover may lose the writes of its last moments.
//
// When Redis cannot be reached, every call returns the client's error: the
// sessions Manager answers 503 Service Unavailable to requests that need a
// session (see package sessions) and the client reconnects by itself when
// Redis is back - to the promoted master after a failover, which the
// Sentinel client learns from the Sentinels and the Cluster client from
// the cluster's slot map. New fails with a clear error when Redis is
// unreachable at start.
package redis

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/internal/redisconn"
	"github.com/vireo-go/vireo/sessions"
)

// Defaults of the options.
const (
	DefaultAddr         = redisconn.DefaultAddr
	DefaultPrefix       = "vireo:session:"
	DefaultDialTimeout  = 2 * time.Second
	DefaultReadTimeout  = time.Second
	DefaultWriteTimeout = time.Second
	DefaultWaitTimeout  = 500 * time.Millisecond
)

// Option configures a Database; pass options to New or MustNew. Like every
// constructor of the framework, New takes functional options: a setting
// reads the same everywhere and new ones break no caller.
type Option func(*settings)

type settings struct {
	conn        redisconn.Settings
	prefix      string
	codec       Codec
	now         func() time.Time
	wait        int
	waitTimeout time.Duration
	waitSet     bool
	errs        []error
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

// WithTimeouts bounds each dial, read and write, so a stalled Redis turns
// into an error (and a 503) in bounded time. A zero leaves that default:
// DefaultDialTimeout, DefaultReadTimeout, DefaultWriteTimeout.
func WithTimeouts(dial, read, write time.Duration) Option {
	return redisconn.Timeouts[*settings](dial, read, write)
}

// WithPoolSize sets the number of connections per server. Default: the
// client's (10 per GOMAXPROCS).
func WithPoolSize(n int) Option { return redisconn.PoolSize[*settings](n) }

// WithMaxRetries sets how often a failed command is retried (with the
// client's backoff) before the error reaches the Manager. Default: the
// client's (3); -1 disables retries, which makes requests answer 503
// fastest while Redis is down.
func WithMaxRetries(n int) Option { return redisconn.MaxRetries[*settings](n) }

// WithClient uses an existing client (for example a Sentinel failover or a
// Cluster client) instead of making one; the connection options are then
// ignored and Close leaves the client open.
func WithClient(c goredis.UniversalClient) Option { return redisconn.Client[*settings](c) }

// WithPrefix sets the string prepended to session IDs to form keys.
// Default DefaultPrefix.
func WithPrefix(prefix string) Option {
	return func(s *settings) { s.prefix = prefix }
}

// WithWaitReplicas makes every write wait until n replicas acknowledged it,
// for at most timeout, and fail when fewer did (see the package comment).
// n = 0 turns the wait off. Default: 1 within DefaultWaitTimeout on a
// Cluster and under Sentinel, 0 on a single server. The timeout must be
// positive when n is, and shorter than the read timeout.
func WithWaitReplicas(n int, timeout time.Duration) Option {
	return func(s *settings) {
		if n < 0 || n > 0 && timeout <= 0 {
			s.errs = append(s.errs, fmt.Errorf("sessions/redis: WithWaitReplicas(%d, %v): want n >= 0 and, when n > 0, a positive timeout", n, timeout))
		}
		s.wait, s.waitTimeout, s.waitSet = n, timeout, true
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
	client      goredis.UniversalClient
	ownClient   bool
	cluster     *goredis.ClusterClient // client, when it is a cluster's
	wait        int
	waitTimeout time.Duration
	prefix      string
	codec       Codec
	now         func() time.Time
}

var _ sessions.Database = (*Database)(nil)

// New connects to Redis and checks it answers a PING, so a wrong address
// or a Redis that is down fails at startup with a clear error. An invalid
// option is an error too.
func New(opts ...Option) (*Database, error) {
	cfg := settings{prefix: DefaultPrefix, codec: JSONCodec{}, now: time.Now}
	cfg.conn.Init("sessions/redis", DefaultDialTimeout, DefaultReadTimeout, DefaultWriteTimeout, 0)
	for _, o := range opts {
		if o == nil {
			cfg.errs = append(cfg.errs, errors.New("sessions/redis: nil Option"))
			continue
		}
		o(&cfg)
	}
	read := cfg.conn.ReadTimeout()
	if cfg.wait > 0 && cfg.waitTimeout >= read {
		cfg.errs = append(cfg.errs, fmt.Errorf("sessions/redis: wait timeout %v is not shorter than the read timeout %v", cfg.waitTimeout, read))
	}
	if err := errors.Join(append(cfg.errs, cfg.conn.Err())...); err != nil {
		return nil, err
	}
	client, own, err := cfg.conn.Open(nil)
	if err != nil {
		return nil, err
	}
	db := &Database{client: client, ownClient: own, prefix: cfg.prefix, codec: cfg.codec, now: cfg.now}
	db.cluster, _ = client.(*goredis.ClusterClient)
	db.wait, db.waitTimeout = cfg.wait, cfg.waitTimeout
	if !cfg.waitSet && (db.cluster != nil || cfg.conn.Sentinel()) {
		db.wait, db.waitTimeout = 1, min(DefaultWaitTimeout, read/2)
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
	key := db.Key(id)
	ttl, ok := db.ttl(snap.ExpiresAt)
	if !ok {
		return db.write(ctx, key, db.wait, func(p goredis.Pipeliner) { p.Del(ctx, key) })
	}
	data, err := db.codec.Marshal(snap)
	if err != nil {
		return err
	}
	return db.write(ctx, key, db.wait, func(p goredis.Pipeliner) { p.Set(ctx, key, data, ttl) })
}

// Touch moves the session's expiry by resetting its TTL, without waiting
// for replicas (see the package comment).
func (db *Database) Touch(ctx context.Context, id string, expiresAt time.Time) error {
	key := db.Key(id)
	ttl, ok := db.ttl(expiresAt)
	if !ok {
		return db.write(ctx, key, db.wait, func(p goredis.Pipeliner) { p.Del(ctx, key) })
	}
	return db.write(ctx, key, 0, func(p goredis.Pipeliner) { p.PExpire(ctx, key, ttl) })
}

// Delete removes the session.
func (db *Database) Delete(ctx context.Context, id string) error {
	key := db.Key(id)
	return db.write(ctx, key, db.wait, func(p goredis.Pipeliner) { p.Del(ctx, key) })
}

// renameScript sets KEYS[1] to ARGV[1] with a TTL of ARGV[2] milliseconds
// and deletes KEYS[2], atomically.
const renameScript = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return redis.call('DEL', KEYS[2])`

// Rename writes rec under newID and deletes oldID in one script (on a
// cluster, the new key first, then the deletion). When it returns nil,
// oldID is gone.
func (db *Database) Rename(ctx context.Context, oldID, newID string, rec *sessions.Record) error {
	snap := rec.Snapshot()
	oldKey, newKey := db.Key(oldID), db.Key(newID)
	ttl, ok := db.ttl(snap.ExpiresAt)
	if !ok {
		return db.write(ctx, oldKey, db.wait, func(p goredis.Pipeliner) { p.Del(ctx, oldKey) })
	}
	data, err := db.codec.Marshal(snap)
	if err != nil {
		return err
	}
	if db.cluster != nil {
		if err := db.write(ctx, newKey, db.wait, func(p goredis.Pipeliner) { p.Set(ctx, newKey, data, ttl) }); err != nil {
			return err
		}
		return db.write(ctx, oldKey, db.wait, func(p goredis.Pipeliner) { p.Del(ctx, oldKey) })
	}
	return db.write(ctx, newKey, db.wait, func(p goredis.Pipeliner) {
		p.Eval(ctx, renameScript, []string{newKey, oldKey}, data, ttl.Milliseconds())
	})
}

// write sends the commands queue adds, all about key, to key's master in
// one pipeline, followed, when acks > 0, by WAIT for that many replicas on
// the same connection. It fails when a command fails or fewer replicas
// acknowledged than asked.
func (db *Database) write(ctx context.Context, key string, acks int, queue func(goredis.Pipeliner)) error {
	var wait *goredis.Cmd
	fn := func(p goredis.Pipeliner) error {
		queue(p)
		if acks > 0 {
			wait = p.Do(ctx, "WAIT", acks, db.waitTimeout.Milliseconds())
		}
		return nil
	}
	var err error
	switch {
	case acks > 0 && db.cluster != nil:
		// WAIT counts the writes of its own connection, so it must follow
		// the write on the connection to the key's master. The cluster
		// client would follow a MOVED redirect for the write alone and
		// leave WAIT on the old node; the master's own client makes a
		// stale slot map an error for this write (503) and a reload for
		// the next ones.
		var node *goredis.Client
		if node, err = db.cluster.MasterForKey(ctx, key); err == nil {
			_, err = node.Pipelined(ctx, fn)
		}
		if err != nil {
			db.cluster.ReloadState(ctx)
		}
	default:
		_, err = db.client.Pipelined(ctx, fn)
	}
	if err != nil {
		return err
	}
	if wait != nil {
		if n, _ := wait.Int64(); n < int64(acks) {
			return fmt.Errorf("%w: %s reached %d of %d replicas within %v", ErrNotReplicated, key, n, acks, db.waitTimeout)
		}
	}
	return nil
}

// ErrNotReplicated is the error (wrapped) of a write that fewer replicas
// acknowledged than WithWaitReplicas asks for. The write reached the
// master and may survive, but nothing promises it does.
var ErrNotReplicated = errors.New("sessions/redis: write not acknowledged by enough replicas")

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
