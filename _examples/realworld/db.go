// The database: SQLite (modernc.org/sqlite, pure Go) or PostgreSQL (pgx),
// chosen by DATABASE_URL, behind one *sql.DB.
//
// Queries are written once, with ? placeholders; for PostgreSQL they are
// rewritten to $1, $2, ... the first time they run and the rewrite is kept
// in a map, so the hot path looks a query up rather than rebuilding it.
// SQLite in memory lives as long as its one connection, so the pool is held
// to one connection there; a SQLite file gets WAL and a busy timeout so
// that readers and the writer do not refuse each other.

package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite"
)

// DB is the application's database and its dialect.
type DB struct {
	sql      *sql.DB
	postgres bool
	rebound  sync.Map // query with ? -> query with $n (PostgreSQL)
}

// openDB opens the database url names: "" for SQLite in memory,
// "sqlite:PATH" (or "file:PATH") for a SQLite file, postgres:// or
// postgresql:// for PostgreSQL.
func openDB(url string) (*DB, error) {
	switch {
	case url == "":
		db, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1) // every connection would be another empty database
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
		return &DB{sql: db}, db.Ping()
	case strings.HasPrefix(url, "sqlite:") || strings.HasPrefix(url, "file:"):
		path := strings.TrimPrefix(strings.TrimPrefix(url, "sqlite:"), "file:")
		if path == "" || strings.Contains(path, "?") {
			return nil, fmt.Errorf("DATABASE_URL=%q: sqlite:PATH expected, without options", url)
		}
		db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
		if err != nil {
			return nil, err
		}
		return &DB{sql: db}, db.Ping()
	case strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://"):
		db, err := sql.Open("pgx", url)
		if err != nil {
			return nil, err
		}
		return &DB{sql: db, postgres: true}, db.Ping()
	}
	return nil, fmt.Errorf("DATABASE_URL=%q: want sqlite:PATH or a postgres:// URL", url)
}

// Close closes the pool.
func (d *DB) Close() error { return d.sql.Close() }

// q returns query in the dialect's placeholders.
func (d *DB) q(query string) string {
	if !d.postgres {
		return query
	}
	if r, ok := d.rebound.Load(query); ok {
		return r.(string)
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	r, _ := d.rebound.LoadOrStore(query, b.String())
	return r.(string)
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conn is a querier speaking the dialect: the pool or a transaction.
type conn struct {
	d *DB
	q querier
}

func (c conn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.q.ExecContext(ctx, c.d.q(query), args...)
}

func (c conn) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.q.QueryContext(ctx, c.d.q(query), args...)
}

func (c conn) row(ctx context.Context, query string, args ...any) *sql.Row {
	return c.q.QueryRowContext(ctx, c.d.q(query), args...)
}

// pool returns the conn of the whole pool.
func (d *DB) pool() conn { return conn{d, d.sql} }

// inTx runs fn in a transaction, committed when fn returns nil.
func (d *DB) inTx(ctx context.Context, fn func(conn) error) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(conn{d, tx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// isUnique reports whether err is a unique-constraint violation.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// placeholders returns "?, ?, ..." with n marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
