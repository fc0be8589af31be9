// PostgreSQL for the database comparisons: each app gets a server of its
// own (internal/postgres: initdb in a temporary directory, TechEmpower's
// schema and data, pg_stat_statements), on a free loopback port, pinned
// with the server, given to the app as DATABASE_URL and DB_POOL, stopped
// by PID with its directory removed.
package service

import (
	"context"
	"os"
	"strconv"

	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
)

// PostgresName is the PostgreSQL service's name in endpoints.json.
const PostgresName = "postgres"

// Postgres starts PostgreSQL servers; Pool is the DB_POOL the app is given
// (default 32).
type Postgres struct {
	Pool int
}

// Name is "postgres".
func (Postgres) Name() string { return PostgresName }

// Missing returns postgres.Missing where the server is not installed.
func (Postgres) Missing() string {
	if _, _, err := postgres.Programs(); err != nil {
		return err.Error()
	}
	return ""
}

// Start starts a server with TechEmpower's data; a port taken before the
// server bound it is retried on a new one.
func (p Postgres) Start(ctx context.Context, s Setup) (Instance, error) {
	pool := p.Pool
	if pool <= 0 {
		pool = 32
	}
	cfg := postgres.Config{Prefix: s.Pin, MaxConnections: 2*pool + 50}
	if s.LogPath != "" {
		log, err := os.Create(s.LogPath)
		if err != nil {
			return nil, err
		}
		cfg.Log = log // closed by the process once the server exits
	}
	srv, err := postgres.Start(ctx, cfg)
	if err != nil {
		if c, ok := cfg.Log.(*os.File); ok {
			c.Close()
		}
		return nil, err
	}
	return &PostgresInstance{Server: srv, pool: pool}, nil
}

// PostgresInstance is a started server; Server gives what the verifier
// reads (pg_stat_statements, the World table).
type PostgresInstance struct {
	*postgres.Server
	pool int
}

// Env is DATABASE_URL and DB_POOL.
func (i *PostgresInstance) Env() []string {
	return []string{postgres.URLEnv + "=" + i.URL(), postgres.PoolEnv + "=" + strconv.Itoa(i.pool)}
}

// Addr is the server's loopback host:port.
func (i *PostgresInstance) Addr() string { return "127.0.0.1:" + strconv.Itoa(i.Port) }

// Version is the server's version.
func (i *PostgresInstance) Version() string { return i.Server.Version }

// Program is "postgres".
func (i *PostgresInstance) Program() string { return "postgres" }
