// A throwaway PostgreSQL server for the tests.
//
// startPostgres runs Debian's initdb (package postgresql, installed through
// internal/testtool) into the test's temporary directory, then postgres on
// 127.0.0.1 at a free port with its socket in the same directory, fsync
// off, and trust authentication (loopback only, a server that lives for
// one test). PostgreSQL refuses to run as root, so as root both run as the
// postgres user through setpriv, which execs them: the PID the cleanup
// signals is the server's. Readiness is a successful Ping. The cleanup
// sends SIGTERM (SIGKILL after 10 s) and waits.

package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/vireo-go/vireo/internal/testtool"
)

// startPostgres starts a server for t and returns the URL of its
// database "postgres" as the superuser.
func startPostgres(t *testing.T) string {
	t.Helper()
	initdb := testtool.Require(t, "initdb", "postgresql")
	server := filepath.Join(filepath.Dir(initdb), "postgres")
	dir := t.TempDir()
	var asUser []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root and no postgres user to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		// The test's directory and its parent are root's, 0700: let the
		// postgres user through to its own data directory.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		asUser = []string{"setpriv", "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups", "--"}
	}
	data := filepath.Join(dir, "data")
	cmd := func(argv ...string) *exec.Cmd {
		argv = append(append([]string(nil), asUser...), argv...)
		c := exec.Command(argv[0], argv[1:]...)
		c.Dir = dir
		return c
	}
	if out, err := cmd(initdb, "-D", data, "-U", "postgres", "-E", "UTF8", "--no-locale", "--auth=trust", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		log, err := os.Create(filepath.Join(dir, "postgres.log"))
		if err != nil {
			t.Fatal(err)
		}
		srv := cmd(server, "-D", data, "-c", "listen_addresses=127.0.0.1", "-c", "port="+strconv.Itoa(port),
			"-c", "unix_socket_directories="+dir, "-c", "fsync=off", "-c", "synchronous_commit=off",
			"-c", "full_page_writes=off", "-c", "max_connections=50")
		srv.Stdout, srv.Stderr = log, log
		if err := srv.Start(); err != nil {
			t.Fatalf("postgres: %v", err)
		}
		exited := make(chan struct{}) // closed when the server has exited
		go func() { _ = srv.Wait(); close(exited) }()
		url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
		if err := waitReady(url, exited); err != nil {
			stop(srv, exited)
			out, _ := os.ReadFile(log.Name())
			if attempt < 2 {
				t.Logf("postgres on port %d: %v (trying another port)\n%s", port, err, out)
				continue
			}
			t.Fatalf("postgres did not start: %v\n%s", err, out)
		}
		t.Cleanup(func() { stop(srv, exited) })
		return url
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitReady pings url until the server answers, exits or 30 s pass.
func waitReady(url string, exited <-chan struct{}) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			return errors.New("the server exited")
		default:
		}
		if err = db.Ping(); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the server by its PID: SIGTERM, SIGKILL after 10 s.
func stop(srv *exec.Cmd, exited <-chan struct{}) {
	_ = srv.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = srv.Process.Kill()
		<-exited
	}
}
