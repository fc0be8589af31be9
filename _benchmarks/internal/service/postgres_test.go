package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vireo-go/vireo/internal/testtool"
)

// TestStartPostgres starts the PostgreSQL service as a comparison does for
// an app: the app's environment reaches TechEmpower's data, the version
// is recorded, the log is written, and Stop ends the server by PID.
func TestStartPostgres(t *testing.T) {
	testtool.Require(t, "postgres", "postgresql")
	s, ok := Lookup(PostgresName)
	if !ok || s.Missing() != "" {
		t.Fatalf("Lookup(postgres) = %v, %v; Missing %q", s, ok, s.Missing())
	}
	log := filepath.Join(t.TempDir(), "postgres.log")
	inst, err := s.Start(context.Background(), Setup{LogPath: log})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	var url string
	for _, kv := range inst.Env() {
		if v, ok := strings.CutPrefix(kv, "DATABASE_URL="); ok {
			url = v
		}
	}
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("env %q: %v", inst.Env(), err)
	}
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM fortune").Scan(&n); err != nil || n != 12 {
		t.Errorf("fortune rows %d, %v", n, err)
	}
	c.Close(context.Background())
	if !strings.HasPrefix(inst.Version(), "1") || inst.Program() != "postgres" {
		t.Errorf("version %q program %q", inst.Version(), inst.Program())
	}
	pid := inst.Pid()
	inst.Stop()
	if _, err := os.Stat(log); err != nil {
		t.Errorf("no server log: %v", err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("postgres %d runs after Stop", pid)
	}
}
