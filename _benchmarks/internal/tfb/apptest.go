// This file is the test of every TechEmpower app: start a PostgreSQL with
// TechEmpower's data, start the app against it on a free port, run every
// rule of the six types (with a shorter Date wait and a smaller query
// count than a run's, to keep tests short), and require that the app
// printed its two readiness lines (and at most a runtime-info line) and
// nothing else.
package tfb

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
)

// CheckApp runs the verifier against the app that cmd starts (its Args,
// Env and Dir are used; PORT, DATABASE_URL and DB_POOL are added), failing
// t on every failed rule and logging the warnings.
func CheckApp(t *testing.T, app string, cmd *exec.Cmd) {
	t.Helper()
	db := postgres.Must(t)
	env := append(append([]string(nil), cmd.Env...), postgres.URLEnv+"="+db.URL(), postgres.PoolEnv+"=16")
	p, err := benchtest.StartOnFreePort(context.Background(), func(port int) (benchtest.Spec, error) {
		return benchtest.Spec{Name: app, Argv: cmd.Args, Env: env, Dir: cmd.Dir, Port: port}, nil
	}, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	v := &Verifier{Base: p.URL(), DB: db, DateWait: 1100 * time.Millisecond, Concurrency: 16, Repetitions: 2}
	for _, pr := range v.Verify(context.Background()) {
		if pr.Severity == Fail {
			t.Errorf("%s: %s", app, pr)
		} else {
			t.Logf("%s: %s", app, pr)
		}
	}
	p.Stop()
	want := benchtest.ReadinessLines(p.Port)
	got := p.Stdout()
	// One runtime-info line may follow (the ASP.NET Core apps print one).
	if len(got) == 3 && strings.HasPrefix(got[2], benchtest.RuntimeInfoPrefix) {
		got = got[:2]
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("%s: stdout is %q, want only %q", app, got, want)
	}
	if s := p.Stderr(); s != "" {
		t.Errorf("%s: wrote to stderr while serving:\n%s", app, s)
	}
}

// CheckGoApp builds the Go app apps/<app> and checks it with CheckApp.
func CheckGoApp(t *testing.T, app string) {
	t.Helper()
	CheckApp(t, app, exec.Command(benchtest.BuildGo(t, app)))
}
