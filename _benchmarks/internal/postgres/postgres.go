// Package postgres starts the throwaway PostgreSQL server of the TechEmpower
// comparisons, loads TechEmpower's schema and data into it, and reads back
// what the verifier needs: the World table and the statement counts of
// pg_stat_statements.
//
// The server is Debian's (package postgresql; the tests install it
// through internal/testtool, the runner reports it missing). Start runs initdb into a fresh temporary
// directory, then postgres on 127.0.0.1:port with its Unix socket in the
// same directory, TechEmpower's settings that do not depend on their
// hardware (synchronous_commit off, wal_level minimal, pg_stat_statements
// preloaded and tracking all statements), and the connection limit the
// caller asks for. PostgreSQL refuses to run as root, so as root both run
// as the postgres user through setpriv, which execs them: the process id
// the suite stops is the server's. Readiness is polled: the server on the
// socket must report our data directory, so a server already there is
// never mistaken for ours. Then the role benchmarkdbuser (password
// benchmarkdbpass) and the database hello_world are created and schema.sql
// runs in it, as TechEmpower's container does.
//
// Stop ends the server (SIGTERM, SIGKILL after a grace period) and removes
// the directory.
package postgres

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/internal/testtool"
)

// The credentials and database name of TechEmpower's setup; every app
// connects with them.
const (
	User     = "benchmarkdbuser"
	Password = "benchmarkdbpass"
	Database = "hello_world"
)

// URLEnv is the environment variable that passes the connection URL to an
// app, and PoolEnv the one that passes its connection pool size.
const (
	URLEnv  = "DATABASE_URL"
	PoolEnv = "DB_POOL"
)

// superuser is the role initdb creates; the suite connects as it over the
// Unix socket (trust) to load the schema and read the statistics.
const superuser = "postgres"

//go:embed schema.sql
var schema string

// Config says how to start the server.
type Config struct {
	// Prefix goes before the command, for example a taskset that pins the
	// server; it must exec what follows.
	Prefix []string
	// Port is the loopback TCP port; 0 picks a free one.
	Port int
	// MaxConnections is PostgreSQL's max_connections (default 200).
	MaxConnections int
	// Log, when set, receives the server's output.
	Log io.Writer
	// Timeout bounds initdb and start-up (default 60s).
	Timeout time.Duration
}

// Server is a started PostgreSQL server holding TechEmpower's data.
type Server struct {
	Port int
	// Version is the server's version string (SHOW server_version, such
	// as "15.18 (Debian 15.18-0+deb12u1)").
	Version string
	dir     string
	p       *benchtest.Process
}

// Missing is the reason given where PostgreSQL is not installed.
const Missing = "postgres not found (Debian: apt-get install -y postgresql)"

// Programs returns the paths of initdb and postgres (in PATH or Debian's
// /usr/lib/postgresql/<version>/bin). It installs nothing: the runner
// reports a missing server, the tests install it (Must).
func Programs() (initdb, server string, err error) {
	if server = testtool.Look("postgres"); server == "" {
		return "", "", errors.New(Missing)
	}
	// initdb sits beside postgres in Debian's versioned directory.
	initdb = filepath.Join(filepath.Dir(server), "initdb")
	if real, err := filepath.EvalSymlinks(server); err == nil {
		initdb = filepath.Join(filepath.Dir(real), "initdb")
	}
	if _, err := os.Stat(initdb); err != nil {
		return "", "", fmt.Errorf("no initdb beside %s (Debian: apt-get install -y postgresql)", server)
	}
	return initdb, server, nil
}

// Start initialises a data directory, starts the server and loads the
// schema and data. On failure nothing is left running or on disk.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxConnections == 0 {
		cfg.MaxConnections = 200
	}
	initdb, server, err := Programs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "vireo-postgres-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	fail := func(err error) (*Server, error) {
		s.Stop()
		return nil, err
	}
	asUser, err := dropRoot(dir)
	if err != nil {
		return fail(err)
	}
	data := filepath.Join(dir, "data")
	init := exec.CommandContext(ctx, asUser[0], append(asUser[1:], initdb, "-D", data, "-U", superuser,
		"-E", "UTF8", "--no-locale", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")...)
	init.Dir = dir
	if out, err := init.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	startOn := func(port int) (benchtest.Spec, error) {
		argv := append(append(append([]string(nil), cfg.Prefix...), asUser...), server, "-D", data)
		argv = append(argv, Settings(port, dir, cfg.MaxConnections)...)
		return benchtest.Spec{
			Name: "postgres on 127.0.0.1:" + strconv.Itoa(port),
			Argv: argv,
			Dir:  dir,
			Log:  cfg.Log,
			Poll: func(*benchtest.Process) error { return s.ours(ctx, data) },
		}, nil
	}
	if cfg.Port > 0 {
		s.Port = cfg.Port
		spec, _ := startOn(cfg.Port)
		s.p, err = benchtest.Start(ctx, spec, cfg.Timeout)
	} else {
		s.p, err = benchtest.StartOnFreePort(ctx, func(port int) (benchtest.Spec, error) {
			s.Port = port
			return startOn(port)
		}, cfg.Timeout)
	}
	if err != nil {
		return fail(err)
	}
	if err := s.load(ctx); err != nil {
		return fail(err)
	}
	return s, nil
}

// Settings returns the postgres arguments: loopback only, the socket in
// dir, and TechEmpower's postgresql.conf where it is not about their
// hardware (no io_workers or cache sizes for 56 cores).
func Settings(port int, dir string, maxConnections int) []string {
	set := []string{
		"listen_addresses=127.0.0.1",
		"port=" + strconv.Itoa(port),
		"unix_socket_directories=" + dir,
		"max_connections=" + strconv.Itoa(maxConnections),
		"ssl=off",
		"shared_buffers=256MB",
		"work_mem=64MB",
		"wal_level=minimal",
		"max_wal_senders=0",
		"synchronous_commit=off",
		"fsync=on",
		"checkpoint_completion_target=0.9",
		"random_page_cost=2",
		"track_activity_query_size=2048",
		"shared_preload_libraries=pg_stat_statements",
		"pg_stat_statements.track=all",
		"pg_stat_statements.max=10000",
		"max_pred_locks_per_transaction=256",
		"log_min_messages=warning",
	}
	args := make([]string, 0, 2*len(set))
	for _, kv := range set {
		args = append(args, "-c", kv)
	}
	return args
}

// dropRoot makes dir the postgres user's when the process runs as root,
// and returns the command prefix that runs a program as that user (empty
// otherwise).
func dropRoot(dir string) ([]string, error) {
	if os.Geteuid() != 0 {
		return []string{}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no postgres user to run PostgreSQL as: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return nil, fmt.Errorf("running as root and setpriv (util-linux) is missing: %v", err)
	}
	return []string{setpriv, "--reuid=" + u.Uid, "--regid=" + u.Gid, "--init-groups", "--"}, nil
}

// admin connects as the superuser over the Unix socket to database db.
func (s *Server) admin(ctx context.Context, db string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable connect_timeout=2", s.dir, s.Port, superuser, db))
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg)
}

// ours reports nil when the server on our socket serves data.
func (s *Server) ours(ctx context.Context, data string) error {
	c, err := s.admin(ctx, "postgres")
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	var got string
	if err := c.QueryRow(ctx, "SHOW data_directory").Scan(&got); err != nil {
		return err
	}
	if got != data {
		return fmt.Errorf("the server on the port serves %s, not %s", got, data)
	}
	return nil
}

// load creates the role and the database and runs the schema in it.
func (s *Server) load(ctx context.Context) error {
	c, err := s.admin(ctx, "postgres")
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	for _, q := range []string{
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", User, Password),
		fmt.Sprintf("CREATE DATABASE %s OWNER %s", Database, User),
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	if err := c.QueryRow(ctx, "SHOW server_version").Scan(&s.Version); err != nil {
		return err
	}
	db, err := s.admin(ctx, Database)
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	// Without arguments Exec uses the simple protocol, which runs a
	// script of several statements.
	if _, err := db.Exec(ctx, schema); err != nil {
		return fmt.Errorf("loading the schema: %w", err)
	}
	_, err = db.Exec(ctx, "ANALYZE")
	return err
}

// URL is the connection URL an app gets in DATABASE_URL: TCP on loopback,
// TechEmpower's user and password.
func (s *Server) URL() string {
	return fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s?sslmode=disable", User, Password, s.Port, Database)
}

// Pid is the server's (postmaster's) process id.
func (s *Server) Pid() int { return s.p.Pid() }

// Output returns the last lines the server printed.
func (s *Server) Output() string { return s.p.Output() }

// Stop ends the server and removes its directory; it is safe to call more
// than once and on a nil Server.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	if s.p != nil {
		s.p.Stop()
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// Stats are the counts pg_stat_statements holds for the statements that
// name one table, counted as TechEmpower's verifier counts them: every
// statement naming the table (as a word, any case), the rows of those that
// select, the rows of those that update.
type Stats struct {
	Queries     int64
	RowsRead    int64
	RowsUpdated int64
}

// Sub returns s - t.
func (s Stats) Sub(t Stats) Stats {
	return Stats{s.Queries - t.Queries, s.RowsRead - t.RowsRead, s.RowsUpdated - t.RowsUpdated}
}

// Stats returns the counts for table so far (subtract two of them to count
// what happened in between).
func (s *Server) Stats(ctx context.Context, table string) (Stats, error) {
	c, err := s.admin(ctx, Database)
	if err != nil {
		return Stats{}, err
	}
	defer c.Close(ctx)
	word := `\m` + strings.ToLower(table) + `\M`
	var st Stats
	err = c.QueryRow(ctx, `SELECT
	  coalesce(sum(calls), 0)::bigint,
	  coalesce(sum(rows) FILTER (WHERE query ~* 'select'), 0)::bigint,
	  coalesce(sum(rows) FILTER (WHERE query ~* 'update'), 0)::bigint
	FROM pg_stat_statements WHERE query ~* $1`, word).Scan(&st.Queries, &st.RowsRead, &st.RowsUpdated)
	return st, err
}

// World returns the World table (id -> randomNumber).
func (s *Server) World(ctx context.Context) (map[int]int, error) {
	c, err := s.admin(ctx, Database)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	rows, err := c.Query(ctx, "SELECT id, randomnumber FROM world")
	if err != nil {
		return nil, err
	}
	w := make(map[int]int, 10000)
	var id, n int
	_, err = pgx.ForEachRow(rows, []any{&id, &n}, func() error { w[id] = n; return nil })
	return w, err
}

// Exec runs a statement as the superuser in hello_world (tests use it to
// reset the data between cases).
func (s *Server) Exec(ctx context.Context, sql string, args ...any) error {
	c, err := s.admin(ctx, Database)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, sql, args...)
	return err
}

// Must starts a server for a test and stops it when the test ends,
// installing Debian's postgresql first when it is missing (testtool: the
// test fails under CI and skips elsewhere when it cannot be had).
func Must(t testing.TB) *Server {
	t.Helper()
	testtool.Require(t, "postgres", "postgresql")
	s, err := Start(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}
