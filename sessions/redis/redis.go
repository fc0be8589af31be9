// Package redis is a sessions.Database backed by Redis, so that several
// vireo instances behind a load balancer share their users' sessions.
//
//	db, err := redis.New(redis.Config{Addr: "127.0.0.1:6379"})
//	if err != nil { ... }                     // Redis unreachable at start
//	m := sessions.New(sessions.Config{Database: db})
//	app.Use(m.Handler())                      // 503 while Redis is down
//	app.OnShutdown(func() { db.Close() })
//
// Each session is one Redis string under Prefix+ID holding the session's
// values (see Codec), with a TTL equal to the session's remaining lifetime:
// Redis expires it, and the TTL is refreshed when sliding expiration moves
// it (PEXPIRE, or the SET of a modified session). Load reads the value and
// its TTL in one MULTI; the Manager's Handler writes a modified session
// back once per request. Regenerate writes the new key and deletes the old
// one in one MULTI (on a cluster, where the two keys live in different
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

// Defaults of Config.
const (
	DefaultAddr         = "127.0.0.1:6379"
	DefaultPrefix       = "vireo:session:"
	DefaultDialTimeout  = 2 * time.Second
	DefaultReadTimeout  = time.Second
	DefaultWriteTimeout = time.Second
)

// Config configures a Database. Every field is optional.
type Config struct {
	// Addr is the host:port of a single Redis server. Default DefaultAddr.
	Addr string
	// Addrs are several seed addresses: a Redis Cluster, or Sentinels
	// when MasterName is set. They take precedence over Addr.
	Addrs []string
	// MasterName is the Sentinel master name.
	MasterName string
	// Username and Password authenticate (ACL user, or password alone).
	Username, Password string
	// DB is the database index (single server and Sentinel only).
	DB int
	// Prefix is prepended to session IDs to form keys. Default
	// DefaultPrefix.
	Prefix string
	// DialTimeout, ReadTimeout and WriteTimeout bound each operation, so
	// a stalled Redis turns into an error (and a 503) in bounded time.
	// Defaults DefaultDialTimeout, DefaultReadTimeout, DefaultWriteTimeout.
	DialTimeout, ReadTimeout, WriteTimeout time.Duration
	// PoolSize is the number of connections per server. Default: the
	// client's (10 per GOMAXPROCS).
	PoolSize int
	// MaxRetries is how often a failed command is retried (with the
	// client's backoff) before the error reaches the Manager. Default: the
	// client's (3); -1 disables retries, which makes requests answer 503
	// fastest while Redis is down.
	MaxRetries int
	// TLSConfig enables TLS.
	TLSConfig *tls.Config
	// Client is an existing client (for example a Sentinel failover or a
	// Cluster client) used instead of the fields above; Close leaves it
	// open.
	Client goredis.UniversalClient
	// Codec serializes session values. Default JSONCodec.
	Codec Codec
	// Now is the clock used to turn expiry times into TTLs. Default
	// time.Now.
	Now func() time.Time
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
// or a Redis that is down fails at startup with a clear error.
func New(cfg Config) (*Database, error) {
	db := &Database{client: cfg.Client, prefix: cfg.Prefix, codec: cfg.Codec, now: cfg.Now}
	if db.prefix == "" {
		db.prefix = DefaultPrefix
	}
	if db.codec == nil {
		db.codec = JSONCodec{}
	}
	if db.now == nil {
		db.now = time.Now
	}
	where := "the given client"
	if db.client == nil {
		opts := &goredis.UniversalOptions{
			Addrs:        cfg.Addrs,
			MasterName:   cfg.MasterName,
			Username:     cfg.Username,
			Password:     cfg.Password,
			DB:           cfg.DB,
			DialTimeout:  orDefault(cfg.DialTimeout, DefaultDialTimeout),
			ReadTimeout:  orDefault(cfg.ReadTimeout, DefaultReadTimeout),
			WriteTimeout: orDefault(cfg.WriteTimeout, DefaultWriteTimeout),
			PoolSize:     cfg.PoolSize,
			MaxRetries:   cfg.MaxRetries,
			TLSConfig:    cfg.TLSConfig,
		}
		if len(opts.Addrs) == 0 {
			addr := cfg.Addr
			if addr == "" {
				addr = DefaultAddr
			}
			opts.Addrs = []string{addr}
		}
		where = strings.Join(opts.Addrs, ",")
		db.client = goredis.NewUniversalClient(opts)
		db.ownClient = true
	}
	_, db.cluster = db.client.(*goredis.ClusterClient)
	ctx, cancel := context.WithTimeout(context.Background(), orDefault(cfg.DialTimeout, DefaultDialTimeout)+orDefault(cfg.ReadTimeout, DefaultReadTimeout))
	defer cancel()
	if err := db.client.Ping(ctx).Err(); err != nil {
		if db.ownClient {
			db.client.Close()
		}
		return nil, fmt.Errorf("sessions/redis: cannot reach Redis at %s: %w", where, err)
	}
	return db, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Client returns the underlying Redis client.
func (db *Database) Client() goredis.UniversalClient { return db.client }

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

// Close closes the client New created; a Config.Client is left open.
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
