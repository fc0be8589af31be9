// Tests against a Redis Cluster and a Sentinel-managed master/replica
// pair: the conformance suite on each, the WAIT guarantee when the only
// replica is gone, and a master killed under load. The failover tests log
// their figures (requests, 503s, promotion and recovery times) with t.Log;
// run them with -v to see them.

package redis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/redistest"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

// The client logs every failed dial while a node is down; the tests count
// the failures themselves.
type discardLogger struct{}

func (discardLogger) Printf(context.Context, string, ...any) {}

func init() { goredis.SetLogger(discardLogger{}) }

// openDB connects with opts under a prefix of its own (later options win).
func openDB(t testing.TB, opts ...Option) *Database {
	t.Helper()
	opts = append([]Option{
		WithPrefix("test" + strconv.FormatInt(prefixes.Add(1), 10) + ":"),
		WithTimeouts(300*time.Millisecond, 0, 0),
	}, opts...)
	db, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestClusterConformance(t *testing.T) {
	c := redistest.StartCluster(t)
	sessiontest.RunDatabaseTests(t, sessiontest.Harness{
		New: func(t *testing.T) sessions.Database {
			db := openDB(t, WithAddrs(c.Seeds()...))
			if db.wait != 1 {
				t.Fatalf("cluster default wait %d, want 1 replica", db.wait)
			}
			return db
		},
		Lifetime: 800 * time.Millisecond,
	})
}

func TestSentinelConformance(t *testing.T) {
	s := redistest.StartSentinel(t)
	sessiontest.RunDatabaseTests(t, sessiontest.Harness{
		New: func(t *testing.T) sessions.Database {
			db := openDB(t, WithAddrs(s.Addrs()...), WithMasterName(s.Name))
			if db.wait != 1 {
				t.Fatalf("Sentinel default wait %d, want 1 replica", db.wait)
			}
			return db
		},
		Lifetime: 800 * time.Millisecond,
	})
}

// TestWaitWithoutReplica: with WithWaitReplicas(1, ...), a write no
// replica acknowledges is an error (ErrNotReplicated), which the Manager
// turns into 503, except a Touch, which does not wait; with the replica
// back, writes succeed again.
func TestWaitWithoutReplica(t *testing.T) {
	master := redistest.NewServer(t, "master", false)
	master.Start()
	replica := redistest.NewServer(t, "replica", false, "--replicaof", "127.0.0.1", strconv.Itoa(master.Port))
	replica.Start()
	inSync := func() bool {
		return redistest.Field(redistest.Info(replica.Addr(), "replication"), "master_link_status") == "up" &&
			strings.Contains(redistest.Field(redistest.Info(master.Addr(), "replication"), "slave0"), "state=online")
	}
	redistest.WaitFor(t, 10*time.Second, "the replica to sync", inSync)
	db := openDB(t, WithAddr(master.Addr()), WithTimeouts(0, 2*time.Second, 2*time.Second), WithWaitReplicas(1, time.Second))
	ctx := context.Background()
	rec := func() *sessions.Record {
		return sessions.NewRecord(sessions.Snapshot{
			Values:    []sessions.Entry{{Key: "user", Value: "ann"}},
			Lifetime:  time.Minute,
			ExpiresAt: time.Now().Add(time.Minute),
		})
	}
	id := newTestID(t)
	if err := db.Save(ctx, id, rec()); err != nil {
		t.Fatalf("Save with the replica up: %v", err)
	}
	if v, _ := redistest.Do(replica.Addr(), "EXISTS", db.Key(id)); v != int64(1) {
		t.Fatalf("an acknowledged Save is not on the replica (EXISTS = %v)", v)
	}
	replica.Kill()
	if err := db.Touch(ctx, id, time.Now().Add(time.Hour)); err != nil {
		t.Errorf("Touch without a replica: %v, want nil (a touch does not wait)", err)
	}
	for name, op := range map[string]func() error{
		"Save":   func() error { return db.Save(ctx, newTestID(t), rec()) },
		"Rename": func() error { return db.Rename(ctx, id, newTestID(t), rec()) },
		"Delete": func() error { return db.Delete(ctx, id) },
	} {
		if err := op(); !errors.Is(err, ErrNotReplicated) {
			t.Errorf("%s without a replica: %v, want ErrNotReplicated", name, err)
		}
	}
	in := newFailoverInstance(t, db)
	u := newLoadUser(t, "ann", in)
	if code, _ := u.post("/login"); code != http.StatusServiceUnavailable {
		t.Fatalf("login without a replica: %d, want 503", code)
	}
	replica.Start()
	redistest.WaitFor(t, 10*time.Second, "the replica to sync again", inSync)
	if code, body := u.post("/login"); code != http.StatusOK {
		t.Fatalf("login with the replica back: %d %q", code, body)
	}
	if code, body := u.get("/me"); code != http.StatusOK || body != "ann 0" {
		t.Fatalf("after the login: %d %q", code, body)
	}
}

// TestClusterWaitWithoutReplica: on a cluster, the WAIT of a write runs
// on the master of the written key: with that master's replica gone, Save
// fails with ErrNotReplicated while keys of the other masters save; with
// the replica back, the key saves again.
func TestClusterWaitWithoutReplica(t *testing.T) {
	c := redistest.StartCluster(t)
	db := openDB(t, WithAddrs(c.Seeds()...), WithTimeouts(0, 2*time.Second, 2*time.Second), WithWaitReplicas(1, 500*time.Millisecond))
	ctx := context.Background()
	rec := sessions.NewRecord(sessions.Snapshot{Lifetime: time.Minute, ExpiresAt: time.Now().Add(time.Minute)})
	id := newTestID(t)
	master, replica := c.MasterOf(db.Key(id)), c.ReplicaOf(db.Key(id))
	saveAcknowledged(t, db, id, rec, "Save with every replica up")
	if !redistest.ReplicaHas(replica, db.Key(id)) {
		t.Fatalf("an acknowledged Save is not on the replica %s", replica)
	}
	c.Node(replica).Kill()
	if err := db.Save(ctx, id, rec); !errors.Is(err, ErrNotReplicated) {
		t.Fatalf("Save on %s without its replica: %v, want ErrNotReplicated", master, err)
	}
	saved := 0
	for range 20 { // keys of the two other masters still save
		other := newTestID(t)
		if c.MasterOf(db.Key(other)) == master {
			continue
		}
		if err := db.Save(ctx, other, rec); err != nil {
			t.Fatalf("Save on another master: %v", err)
		}
		saved++
	}
	if saved == 0 {
		t.Fatal("twenty IDs all on one master")
	}
	c.Node(replica).Start()
	redistest.WaitFor(t, 30*time.Second, "the replica to be back in sync", c.Healthy)
	saveAcknowledged(t, db, id, rec, "Save with the replica back")
}

// saveAcknowledged saves rec under id with every replica up. On a loaded
// machine a replica can miss the 500 ms of a WAIT, and Save then says
// ErrNotReplicated, the store's documented answer; that is retried for up
// to ten seconds (the clean-clone CI of 4149ba4 saw it on the first Save
// of TestClusterWaitWithoutReplica). Any other error fails the test.
func saveAcknowledged(t *testing.T, db *Database, id string, rec *sessions.Record, what string) {
	t.Helper()
	redistest.WaitFor(t, 10*time.Second, what+" acknowledged", func() bool {
		err := db.Save(context.Background(), id, rec)
		if err != nil && !errors.Is(err, ErrNotReplicated) {
			t.Fatalf("%s: %v", what, err)
		}
		return err == nil
	})
}

func newTestID(t *testing.T) string {
	t.Helper()
	id, err := sessions.NewID()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// newFailoverInstance is an application server on db: POST /login starts
// a logged-in session with a counter, POST /incr increments it (one
// session write a request), GET /me shows user and counter.
func newFailoverInstance(t *testing.T, db *Database) *httptest.Server {
	t.Helper()
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithLogger(quiet))
	app := core.New(core.WithLogger(quiet))
	app.Use(m.Handler())
	app.Post("/login", func(ctx core.Context) {
		s, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("user", ctx.Query("user"))
		s.Set("n", 0)
		ctx.SetResponseHeader("X-Session", s.ID())
		ctx.WriteString("ok")
	})
	app.Post("/incr", func(ctx core.Context) {
		s := sessions.Get(ctx)
		if s.GetString("user", "") == "" {
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		n := s.GetInt("n", 0) + 1
		s.Set("n", n)
		ctx.WriteString(strconv.Itoa(n))
	})
	app.Get("/me", func(ctx core.Context) {
		s := sessions.Get(ctx)
		user := s.GetString("user", "")
		if user == "" {
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.WriteString(user + " " + strconv.Itoa(s.GetInt("n", 0)))
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	return srv
}

// loadUser is one logged-in browser, sending its requests one at a time
// to the instances in turn.
type loadUser struct {
	t    *testing.T
	name string
	ins  []*httptest.Server
	hc   *http.Client
	turn int
	id   string // session ID after login
	key  string // its Redis key

	lastAck   int // the counter of the last 200 on /incr
	failed    int // /incr answered 503 since lastAck
	firstDown time.Time
	readBack  time.Time // first 200 on /me after the kill
	writeBack time.Time // first 200 on /incr after the kill
}

func newLoadUser(t *testing.T, name string, ins ...*httptest.Server) *loadUser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &loadUser{t: t, name: name, ins: ins, hc: &http.Client{Jar: jar, Timeout: 15 * time.Second}}
}

func (u *loadUser) do(method, path string) (int, string, http.Header) {
	in := u.ins[u.turn%len(u.ins)]
	u.turn++
	if path == "/login" {
		path += "?user=" + u.name
	}
	req, err := http.NewRequest(method, in.URL+path, nil)
	if err != nil {
		u.t.Error(err)
		return 0, "", nil
	}
	res, err := u.hc.Do(req)
	if err != nil {
		u.t.Errorf("%s %s: %v", method, path, err)
		return 0, "", nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.TrimSpace(string(body)), res.Header
}

func (u *loadUser) post(path string) (int, string) {
	code, body, h := u.do(http.MethodPost, path)
	if path == "/login" && code == http.StatusOK {
		u.id = h.Get("X-Session")
	}
	return code, body
}

func (u *loadUser) get(path string) (int, string) {
	code, body, _ := u.do(http.MethodGet, path)
	return code, body
}

// failoverRun is what a failover test sets up: instances on one topology,
// a way to kill the master holding a key, and to bring the killed node
// back as a replica once its replica was promoted.
type failoverRun struct {
	instances []*httptest.Server
	dbs       []*Database
	// kill kills the master of key and returns its address.
	kill func(key string) string
	// promoted reports whether a master other than the killed one serves
	// key.
	promoted func(key, killed string) bool
	// rejoin restarts the killed node as a replica of the new master.
	rejoin func(killed string)
	// healthy reports whether every master has a replica in sync again.
	healthy func() bool
}

// runFailover logs users in, keeps them incrementing their counters and
// reading them, kills the master holding the first user's session, and
// checks: every request got 200 or 503; no user lost the session; every
// counter is at least the last value a 200 confirmed (no acknowledged
// write lost) and at most that plus the 503s after it; the affected users
// read and write again without restarting the application.
func runFailover(t *testing.T, run failoverRun) {
	const users = 12
	var us []*loadUser
	for i := range users {
		u := newLoadUser(t, "user"+strconv.Itoa(i), run.instances...)
		// A save the replica does not acknowledge in time is a 503 (the
		// store's guarantee, not a failure); on a loaded machine that can
		// happen before the failover too, so the set-up retries it.
		code, body := u.post("/login")
		for try := 0; code == http.StatusServiceUnavailable && try < 20; try++ {
			time.Sleep(100 * time.Millisecond)
			code, body = u.post("/login")
		}
		if code != http.StatusOK {
			t.Fatalf("login of %s: %d %q", u.name, code, body)
		}
		u.key = run.dbs[0].Key(u.id)
		us = append(us, u)
	}
	var sent, ok, unavailable atomic.Int64
	var killedAt atomic.Pointer[time.Time]
	var stop atomic.Bool
	var wg sync.WaitGroup
	var mu sync.Mutex        // guards the users' failover fields and spans
	var spans [][2]time.Time // each request's start and end
	for _, u := range us {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				read := i%4 >= 2 // writes and reads, each on both instances
				var code int
				var body string
				start := time.Now()
				if read {
					code, body = u.get("/me")
				} else {
					code, body = u.post("/incr")
				}
				sent.Add(1)
				now := time.Now()
				k := killedAt.Load()
				mu.Lock()
				spans = append(spans, [2]time.Time{start, now})
				switch code {
				case http.StatusOK:
					ok.Add(1)
					if !read {
						n, err := strconv.Atoi(body)
						if err != nil || n <= u.lastAck || n > u.lastAck+u.failed+1 {
							t.Errorf("%s: /incr answered %q after the confirmed %d and %d failures", u.name, body, u.lastAck, u.failed)
						}
						u.lastAck, u.failed = n, 0
					} else if !strings.HasPrefix(body, u.name+" ") {
						t.Errorf("%s: /me answered %q", u.name, body)
					}
					if k != nil && !u.firstDown.IsZero() {
						if read && u.readBack.IsZero() {
							u.readBack = now
						}
						if !read && u.writeBack.IsZero() {
							u.writeBack = now
						}
					}
				case http.StatusServiceUnavailable:
					unavailable.Add(1)
					if !read {
						u.failed++
					}
					if k != nil && u.firstDown.IsZero() {
						u.firstDown = now
					}
				default:
					t.Errorf("%s: %d %q, want 200 or 503", u.name, code, body)
					stop.Store(true)
				}
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	defer func() { stop.Store(true); wg.Wait() }()

	time.Sleep(500 * time.Millisecond)
	t0 := time.Now()
	killedAt.Store(&t0)
	killed := run.kill(us[0].key)
	redistest.WaitFor(t, 30*time.Second, "a replica to be promoted", func() bool { return run.promoted(us[0].key, killed) })
	promotedAt := time.Now()
	promotedIn := promotedAt.Sub(t0)
	run.rejoin(killed)
	redistest.WaitFor(t, 30*time.Second, "the killed node to be back as a replica", run.healthy)
	rejoinedIn := time.Since(t0)
	redistest.WaitFor(t, 20*time.Second, "every user to read and write again on both instances", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, u := range us {
			if !u.firstDown.IsZero() && (u.writeBack.IsZero() || u.readBack.IsZero()) {
				return false
			}
		}
		return true
	})
	time.Sleep(300 * time.Millisecond)
	stop.Store(true)
	wg.Wait()

	affected, lost := 0, 0
	var readDown, writeDown time.Duration
	for _, u := range us {
		if !u.firstDown.IsZero() {
			affected++
			readDown = max(readDown, u.readBack.Sub(t0))
			writeDown = max(writeDown, u.writeBack.Sub(t0))
		}
		// A 503 is unavailability, not loss: the client may still be
		// dialling through a Sentinel that has not yet learnt of the
		// failover (and refusing the replica it names). It is asked again
		// for a while; any other answer is the session's state.
		code, body := u.get("/me")
		for deadline := time.Now().Add(5 * time.Second); code == http.StatusServiceUnavailable && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			code, body = u.get("/me")
		}
		var n int
		if _, err := fmt.Sscanf(body, u.name+" %d", &n); code != http.StatusOK || err != nil {
			lost++
			t.Errorf("%s after the failover: %d %q: the session is lost", u.name, code, body)
			continue
		}
		if n < u.lastAck || n > u.lastAck+u.failed {
			t.Errorf("%s: counter %d after the failover, confirmed %d with %d failed writes after it", u.name, n, u.lastAck, u.failed)
		}
	}
	// Requests may ride through the failover on the client's retries
	// (held, not failed); none under way at all would mean the load
	// missed it.
	across := 0
	for _, sp := range spans {
		if sp[0].Before(promotedAt) && sp[1].After(t0) {
			across++
		}
	}
	if across == 0 {
		t.Errorf("no request was under way between the kill and the promotion: the test tested nothing")
	}
	t.Logf("requests %d: 200 %d, 503 %d, other 0; %d under way between the kill and the promotion; users %d, affected (saw a 503) %d, sessions lost %d",
		sent.Load(), ok.Load(), unavailable.Load(), across, users, affected, lost)
	t.Logf("kill -> replica promoted %v; reads back after %v; killed node back as replica after %v; writes back after %v",
		promotedIn.Round(time.Millisecond), readDown.Round(time.Millisecond), rejoinedIn.Round(time.Millisecond), writeDown.Round(time.Millisecond))
}

// TestClusterFailover kills the master holding a session's slot on a
// three-master cluster under load.
func TestClusterFailover(t *testing.T) {
	c := redistest.StartCluster(t)
	var run failoverRun
	for range 2 {
		db := openDB(t, WithPrefix("failover:"), WithAddrs(c.Seeds()...), WithTimeouts(0, time.Second, time.Second))
		run.dbs = append(run.dbs, db)
		run.instances = append(run.instances, newFailoverInstance(t, db))
	}
	run.kill = func(key string) string {
		addr := c.MasterOf(key)
		c.Node(addr).Kill()
		return addr
	}
	run.promoted = func(key, killed string) bool {
		m := c.MasterOf(key)
		return m != "" && m != killed
	}
	run.rejoin = func(killed string) { c.Node(killed).Start() }
	run.healthy = c.Healthy
	runFailover(t, run)
}

// TestSentinelFailover kills the master of a Sentinel-managed pair under
// load.
func TestSentinelFailover(t *testing.T) {
	s := redistest.StartSentinel(t)
	var run failoverRun
	for range 2 {
		db := openDB(t, WithPrefix("failover:"), WithAddrs(s.Addrs()...), WithMasterName(s.Name), WithTimeouts(0, time.Second, time.Second))
		run.dbs = append(run.dbs, db)
		run.instances = append(run.instances, newFailoverInstance(t, db))
	}
	var old *redistest.Server
	run.kill = func(string) string {
		old = s.Master
		old.Kill()
		return old.Addr()
	}
	run.promoted = func(_, killed string) bool {
		m := s.MasterAddr()
		return m != "" && m != killed
	}
	run.rejoin = func(string) {
		// Sentinel would turn the old master into a replica by itself some
		// seconds after it is back; starting it as one is what an operator
		// does, and never lets an empty master answer in between.
		host, port, _ := strings.Cut(s.MasterAddr(), ":")
		old.Args = append(old.Args, "--replicaof", host, port)
		old.Start()
		s.Master, s.Replica = s.Replica, old
	}
	run.healthy = func() bool {
		return redistest.Field(redistest.Info(s.Replica.Addr(), "replication"), "master_link_status") == "up" &&
			redistest.Field(redistest.Info(s.Master.Addr(), "replication"), "role") == "master"
	}
	runFailover(t, run)
}

// TestWaitReplicasOption: invalid WAIT settings are errors of New, before
// any connection.
func TestWaitReplicasOption(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"negative replicas", []Option{WithWaitReplicas(-1, time.Second)}, "WithWaitReplicas(-1"},
		{"no timeout", []Option{WithWaitReplicas(1, 0)}, "positive timeout"},
		{"timeout beyond the read timeout", []Option{WithWaitReplicas(1, time.Second)}, "not shorter than the read timeout"},
		{"read timeout raised", []Option{WithTimeouts(0, 3*time.Second, 0), WithWaitReplicas(1, time.Second), WithAddr("127.0.0.1:1")}, "cannot reach Redis"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(append(tc.opts, WithTimeouts(50*time.Millisecond, 0, 0))...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
