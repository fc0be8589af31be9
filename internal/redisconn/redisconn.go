// Package redisconn holds the connection settings of the framework's
// Redis-backed packages (sessions/redis and middleware/ratelimit/redis), so
// that both accept the same connection options, check them the same way
// and make their client the same way.
//
// Each package keeps its own Option type, a function of its own settings,
// which embed a Settings and expose it through Holder. Its With functions
// are one-line instantiations of the generic options here, so the checks
// and the wording of their errors live in one place:
//
//	func WithAddr(addr string) Option { return redisconn.Addr[*settings](addr) }
//
// Open makes the client from the settings (or takes the one given with
// Client) and checks that Redis answers a PING within the dial and read
// timeouts, so a wrong address fails at startup with one clear error.
package redisconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// DefaultAddr is the address used when no WithAddr or WithAddrs is given.
const DefaultAddr = "127.0.0.1:6379"

// Settings are the connection settings of one store, with the errors the
// options found.
type Settings struct {
	pkg    string
	client goredis.UniversalClient
	opts   goredis.UniversalOptions
	errs   []error
}

// Holder is a package's settings type, which embeds a Settings.
type Holder interface{ Conn() *Settings }

// Init sets the package name used in error messages and the defaults of
// the timeouts and the retries (maxRetries as goredis.UniversalOptions:
// 0 is the client's default, -1 none).
func (s *Settings) Init(pkg string, dial, read, write time.Duration, maxRetries int) {
	s.pkg = pkg
	s.opts.DialTimeout, s.opts.ReadTimeout, s.opts.WriteTimeout = dial, read, write
	s.opts.MaxRetries = maxRetries
}

// Errorf records an invalid setting; Err returns every one recorded.
func (s *Settings) Errorf(format string, args ...any) {
	s.errs = append(s.errs, fmt.Errorf(s.pkg+": "+format, args...))
}

// Err returns the errors of the options, joined, or nil.
func (s *Settings) Err() error { return errors.Join(s.errs...) }

// ReadTimeout returns the read timeout the client gets.
func (s *Settings) ReadTimeout() time.Duration { return s.opts.ReadTimeout }

// Sentinel reports whether the settings name a Sentinel master.
func (s *Settings) Sentinel() bool { return s.client == nil && s.opts.MasterName != "" }

// Addr sets the host:port of a single Redis server.
func Addr[H Holder](addr string) func(H) {
	return func(h H) {
		s := h.Conn()
		if addr == "" {
			s.Errorf("empty address")
		}
		s.opts.Addrs = []string{addr}
	}
}

// Addrs sets several seed addresses: a Redis Cluster, or Sentinels with
// MasterName.
func Addrs[H Holder](addrs ...string) func(H) {
	return func(h H) {
		s := h.Conn()
		if len(addrs) == 0 {
			s.Errorf("no addresses")
		}
		s.opts.Addrs = append([]string(nil), addrs...)
	}
}

// MasterName sets the Sentinel master name.
func MasterName[H Holder](name string) func(H) {
	return func(h H) { h.Conn().opts.MasterName = name }
}

// Auth sets an ACL user and password, or a password alone.
func Auth[H Holder](username, password string) func(H) {
	return func(h H) {
		s := h.Conn()
		s.opts.Username, s.opts.Password = username, password
	}
}

// DB sets the database index.
func DB[H Holder](index int) func(H) {
	return func(h H) {
		s := h.Conn()
		if index < 0 {
			s.Errorf("negative database index %d", index)
		}
		s.opts.DB = index
	}
}

// TLS sets the client's TLS configuration.
func TLS[H Holder](cfg *tls.Config) func(H) {
	return func(h H) { h.Conn().opts.TLSConfig = cfg }
}

// Timeouts sets the dial, read and write timeouts; a zero keeps that
// default, a negative one is an error.
func Timeouts[H Holder](dial, read, write time.Duration) func(H) {
	return func(h H) {
		s := h.Conn()
		if dial < 0 || read < 0 || write < 0 {
			s.Errorf("negative timeout in (%v, %v, %v)", dial, read, write)
		}
		for _, t := range []struct {
			v   time.Duration
			dst *time.Duration
		}{{dial, &s.opts.DialTimeout}, {read, &s.opts.ReadTimeout}, {write, &s.opts.WriteTimeout}} {
			if t.v > 0 {
				*t.dst = t.v
			}
		}
	}
}

// PoolSize sets the number of connections per server.
func PoolSize[H Holder](n int) func(H) {
	return func(h H) {
		s := h.Conn()
		if n < 0 {
			s.Errorf("negative pool size %d", n)
		}
		s.opts.PoolSize = n
	}
}

// MaxRetries sets how often a failed command is retried; -1 disables
// retries.
func MaxRetries[H Holder](n int) func(H) {
	return func(h H) {
		s := h.Conn()
		if n < -1 {
			s.Errorf("max retries %d: want -1 (none) or more", n)
		}
		s.opts.MaxRetries = n
	}
}

// Client sets a client to use instead of making one; the connection
// settings are then ignored and the store leaves the client open.
func Client[H Holder](c goredis.UniversalClient) func(H) {
	return func(h H) {
		s := h.Conn()
		if c == nil {
			s.Errorf("nil client")
		}
		s.client = c
	}
}

// Open returns the client, made from the settings or the one given with
// Client, once it answered a PING and check (which may be nil) returned
// nil within the dial and read timeouts. own reports whether the client
// was made here (and is the store's to close). A client made here is
// closed again when Open fails.
func (s *Settings) Open(check func(context.Context, goredis.UniversalClient) error) (c goredis.UniversalClient, own bool, err error) {
	c, where := s.client, "the given client"
	if c == nil {
		o := s.opts
		if len(o.Addrs) == 0 {
			o.Addrs = []string{DefaultAddr}
		}
		where = strings.Join(o.Addrs, ",")
		if o.MasterName != "" {
			o.OnConnect = requireMaster
		}
		c, own = goredis.NewUniversalClient(&o), true
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.DialTimeout+s.opts.ReadTimeout)
	defer cancel()
	err = c.Ping(ctx).Err()
	if err == nil && check != nil {
		err = check(ctx, c)
	}
	if err != nil {
		if own {
			c.Close()
		}
		return nil, false, fmt.Errorf("%s: cannot reach Redis at %s: %w", s.pkg, where, err)
	}
	return c, own, nil
}

// requireMaster is the OnConnect of a Sentinel client made here: it asks
// the new connection's server for its ROLE and refuses a replica (the
// client's connections to the Sentinels themselves, which go-redis gives
// the same hook, answer "sentinel" and pass).
// A Sentinel can still give the old master's address for a moment after a
// failover, and the old node can be back on that address as a replica,
// whose data are empty or stale until its first sync: a session read
// there is missing (the user logged out), a write refused. Refused, the
// connection never serves the store; the command fails or is retried, and
// the next dial asks the Sentinels again. It costs one round trip per new
// connection, none per command.
func requireMaster(ctx context.Context, cn *goredis.Conn) error {
	reply, err := cn.Do(ctx, "ROLE").Slice()
	if err != nil {
		return fmt.Errorf("redis: ROLE of a new connection: %w", err)
	}
	if len(reply) == 0 {
		return errors.New("redis: empty ROLE reply on a new connection")
	}
	switch role, _ := reply[0].(string); role {
	case "master", "sentinel": // the client's own connections to the Sentinels get this hook too
		return nil
	default:
		return fmt.Errorf("redis: the server of a new connection is a %s, not the Sentinel master", role)
	}
}
