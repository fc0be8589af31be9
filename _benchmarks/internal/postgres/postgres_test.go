package postgres

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestStartLoadsTechEmpowerData starts a server and checks what the apps
// rely on: the app's credentials work over TCP on loopback, World holds
// 10,000 rows in 1..10000, Fortune the 12 messages (the <script> one and
// the Japanese one byte for byte), pg_stat_statements counts statements,
// and Stop ends the process and removes the directory.
func TestStartLoadsTechEmpowerData(t *testing.T) {
	s := Must(t)
	ctx := context.Background()
	if s.Version == "" {
		t.Error("no server version recorded")
	}
	c, err := pgx.Connect(ctx, s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n, lo, hi int
	if err := c.QueryRow(ctx, "SELECT count(*), min(randomnumber), max(randomnumber) FROM world").Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if n != 10000 || lo < 1 || hi > 10000 {
		t.Errorf("world: %d rows in %d..%d, want 10000 in 1..10000", n, lo, hi)
	}
	want := map[int]string{
		11: `<script>alert("This should not be displayed in a browser alert box.");</script>`,
		12: "フレームワークのベンチマーク",
		2:  "A computer scientist is someone who fixes things that aren't broken.",
	}
	rows, _ := c.Query(ctx, "SELECT id, message FROM fortune")
	got := map[int]string{}
	var id int
	var msg string
	if _, err := pgx.ForEachRow(rows, []any{&id, &msg}, func() error { got[id] = msg; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 12 {
		t.Errorf("fortune has %d rows, want 12", len(got))
	}
	for id, m := range want {
		if got[id] != m {
			t.Errorf("fortune %d = %q, want %q", id, got[id], m)
		}
	}
	before, err := s.Stats(ctx, "world")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if err := c.QueryRow(ctx, "SELECT id, randomnumber FROM world WHERE id = $1", i).Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Exec(ctx, "UPDATE world SET randomnumber = 1 WHERE id <= 2"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Stats(ctx, "world")
	if d := after.Sub(before); d.Queries != 4 || d.RowsRead != 3 || d.RowsUpdated != 2 {
		t.Errorf("counted %+v, want 4 queries, 3 rows read, 2 updated", d)
	}
	c.Close(ctx)
	pid, dir := s.Pid(), s.dir
	s.Stop()
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("postgres %d still runs after Stop", pid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Stop", dir)
	}
}
