// This file holds the test-side helpers the app tests call: build a Go app,
// start any app on a free port, and check it against the contract. They take
// a testing.TB so each app's test is a few lines and all apps are held to the
// same checks.
package benchtest

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// MustContract loads the contract of the module the test runs in, failing t when
// it cannot.
func MustContract(t testing.TB) (root string, c *Contract) {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	c, err = LoadContract(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, c
}

// BuildGo builds the Go app apps/<app> into a temporary directory, as the
// runner does (go build -o bin/<app> ./apps/<app>), and returns the binary.
func BuildGo(t testing.TB, app string) string {
	t.Helper()
	root, _ := MustContract(t)
	bin := filepath.Join(t.TempDir(), app)
	cmd := exec.Command("go", "build", "-o", bin, "./apps/"+app)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", app, err, out)
	}
	return bin
}

// CheckApp starts cmd on a free port and checks app against the contract:
// the first two stdout lines are exactly the readiness lines (so no banner or
// log line precedes them), and the comparison's request gets the expected
// status, Content-Type and body. For a sessions endpoint it also sends the
// session cookie back and expects the same answer. An app of a TLS
// comparison is given a certificate (TLS_CERT_FILE, TLS_KEY_FILE), must
// print the https:// readiness line and answer over each protocol of its
// comparison's loads, negotiated by ALPN. Then it stops the app and
// requires that it printed nothing else (but one RuntimeInfoPrefix line right
// after the readiness lines), on stdout or stderr: logging must
// be off, since a line per request would be measured along with the app.
// Each of the tolerated strings (a known one-time startup warning) is removed
// from stderr before that check. It returns the settings of the app's
// runtime-info line, or nil when it printed none.
func CheckApp(t testing.TB, app string, cmd *exec.Cmd, timeout time.Duration, tolerated ...string) (runtimeInfo map[string]string) {
	t.Helper()
	_, c := MustContract(t)
	_, ep, err := c.Endpoint(app)
	if err != nil {
		t.Fatal(err)
	}
	env := cmd.Env
	clients := []*http.Client{{Timeout: 10 * time.Second}}
	if ep.TLS {
		// A TLS app gets a certificate of its own and must answer over
		// every protocol its comparison loads it with, negotiated by ALPN.
		cert, err := MakeCert(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if env == nil {
			env = os.Environ()
		}
		env = append(append([]string(nil), env...), cert.Env()...)
		clients = nil
		for _, l := range ep.Loads {
			clients = append(clients, cert.Client(l.Protocol))
		}
	}
	p, err := StartOnFreePort(context.Background(), func(port int) (Spec, error) {
		return Spec{Name: app, Argv: cmd.Args, Env: env, Dir: cmd.Dir, Port: port, TLS: ep.TLS}, nil
	}, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	want := ReadinessLines(p.Port)
	if ep.TLS {
		want = ReadinessLinesTLS(p.Port)
	}
	if got := p.Stdout(); len(got) < 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("%s: first stdout lines are %q, want exactly %q", app, got, want)
	}
	for _, client := range clients {
		cookies, err := VerifyWithCookies(client, p.URL(), ep, nil)
		if err != nil {
			t.Fatalf("%s: %v", app, err)
		}
		if ep.SetCookie {
			if _, err := VerifyWithCookies(client, p.URL(), ep, cookies); err != nil {
				t.Fatalf("%s, sending the session cookie back: %v", app, err)
			}
		}
	}
	p.Stop()
	got := p.Stdout()
	if len(got) > 2 {
		got = got[2:]
		if info, ok := ParseRuntimeInfo(got[0]); ok {
			runtimeInfo, got = info, got[1:]
		}
		if len(got) > 0 {
			t.Errorf("%s printed more than the readiness lines (and one %q line) to stdout: %q", app, RuntimeInfoPrefix, got)
		}
	}
	stderr := p.Stderr()
	for _, s := range tolerated {
		stderr = strings.ReplaceAll(stderr, s, "")
	}
	if got := strings.TrimSpace(stderr); got != "" {
		t.Errorf("%s printed to stderr: %q", app, got)
	}
	return runtimeInfo
}

// StartOnFreePort starts the process that spec returns for a port from
// FreePort. Another process may take the port between FreePort and the
// bind (tests of many packages run at once), so a start that fails with
// "address in use" is retried, twice, on a new port.
func StartOnFreePort(ctx context.Context, spec func(port int) (Spec, error), timeout time.Duration) (*Process, error) {
	for attempt := 1; ; attempt++ {
		port, err := FreePort()
		if err != nil {
			return nil, err
		}
		sp, err := spec(port)
		if err != nil {
			return nil, err
		}
		p, err := Start(ctx, sp, timeout)
		if err == nil || attempt == 3 || !AddressInUse(err.Error()) {
			return p, err
		}
	}
}

// CheckGoApp builds the Go app apps/<app> and checks it with CheckApp. An
// app of a Redis comparison gets a redis-server of its own (MustRedis, which
// skips the test when redis-server is missing) at REDIS_ADDR.
func CheckGoApp(t testing.TB, app string) {
	t.Helper()
	var env []string
	_, c := MustContract(t)
	if _, ep, err := c.Endpoint(app); err == nil && ep.Uses("redis") {
		env = append(os.Environ(), RedisAddrEnv+"="+MustRedis(t).Addr())
	}
	cmd := exec.Command(BuildGo(t, app))
	cmd.Env = env
	CheckApp(t, app, cmd, 30*time.Second)
}

// TestLog passes a run's progress lines to T.Log and, when set, to OnLine.
type TestLog struct {
	T      testing.TB
	OnLine func(string)
	mu     sync.Mutex
}

// Write logs one progress line.
func (l *TestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := strings.TrimRight(string(p), "\n")
	l.T.Log(line)
	if l.OnLine != nil {
		l.OnLine(line)
	}
	return len(p), nil
}

// SimpleGoApps returns the Go apps of the simple comparison that exist, and
// the baseline of a test run over them: vireo once it exists, else
// nethttp. It skips an end-to-end test with -short, or when there is none.
func SimpleGoApps(t testing.TB) (root string, apps []string, baseline string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end run skipped with -short")
	}
	root, contract := MustContract(t)
	exists := func(a string) bool {
		st, err := os.Stat(filepath.Join(root, "apps", a))
		return err == nil && st.IsDir()
	}
	for _, a := range contract.Comparisons["simple"].Apps {
		if contract.Stack(a) == "go" && exists(a) {
			apps = append(apps, a)
		}
	}
	if len(apps) == 0 {
		t.Skip("no Go app of the simple comparison exists yet")
	}
	baseline = apps[0]
	for _, b := range []string{"nethttp", "vireo"} {
		if exists(b) {
			baseline = b
		}
	}
	return root, apps, baseline
}
