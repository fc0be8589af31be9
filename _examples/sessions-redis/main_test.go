// Tests of the Redis sessions example over HTTP against the real
// application and a real redis-server, with a cookie jar playing the
// browser: the login flow, two instances sharing one login, the session
// keys in Redis, and an outage of Redis.
package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/vireo-go/vireo/internal/redistest"
	"github.com/vireo-go/vireo/sessions/redis"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

var prefixes atomic.Int64

// newDB connects to srv with a key prefix of its own and short timeouts,
// so an outage turns into 503 quickly.
func newDB(t *testing.T, srv *redistest.Server) *redis.Database {
	t.Helper()
	db, err := redis.New(
		redis.WithAddr(srv.Addr()),
		redis.WithPrefix(KeyPrefix+"test"+strconv.FormatInt(prefixes.Add(1), 10)+":"),
		redis.WithTimeouts(300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond),
		redis.WithMaxRetries(-1),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newInstance serves one instance of the application on db.
func newInstance(t *testing.T, db *redis.Database) *httptest.Server {
	srv := httptest.NewServer(newApp(db, testKey))
	t.Cleanup(srv.Close)
	return srv
}

// browser is an HTTP client with cookies that does not follow redirects,
// so each step sees the response it caused. Cookies ignore the port, so
// one browser talks to several instances on 127.0.0.1 as it would to one
// site behind a load balancer.
type browser struct {
	t      *testing.T
	client *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, client: &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (b *browser) do(base, method, path string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(got)
}

// sessionID returns the ID inside the signed session cookie the browser
// holds for base, or "".
func (b *browser) sessionID(base string) string {
	u, _ := url.Parse(base)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "example_sid" {
			var id string
			if err := securecookie.New(testKey, nil).Decode(c.Name, c.Value, &id); err != nil {
				b.t.Fatalf("cookie does not decode: %v", err)
			}
			return id
		}
	}
	return ""
}

// stored reports whether Redis holds the session id, and its TTL.
func stored(t *testing.T, db *redis.Database, id string) (bool, time.Duration) {
	t.Helper()
	ttl, err := db.Client().PTTL(context.Background(), db.Key(id)).Result()
	if err != nil {
		t.Fatal(err)
	}
	return ttl > 0, ttl
}

// step is one request of a scenario and what its answer must hold.
type step struct {
	name, on, method, path string // on: the instance, "A" or "B"
	form                   url.Values
	wantStatus             int
	want, wantNot          []string
	check                  func(t *testing.T)
}

func run(t *testing.T, b *browser, instances map[string]string, steps []step) {
	t.Helper()
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res, body := b.do(instances[st.on], st.method, st.path, st.form)
			if res.StatusCode != st.wantStatus {
				t.Errorf("status = %d, want %d\n%s", res.StatusCode, st.wantStatus, body)
			}
			for _, w := range st.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in\n%s", w, body)
				}
			}
			for _, w := range st.wantNot {
				if strings.Contains(body, w) {
					t.Errorf("unexpected %q in\n%s", w, body)
				}
			}
			if st.check != nil {
				st.check(t)
			}
		})
	}
}

func TestSessionFlow(t *testing.T) {
	rs := redistest.StartServer(t)
	db := newDB(t, rs)
	a := newInstance(t, db).URL
	b := newBrowser(t)
	var beforeLogin string
	run(t, b, map[string]string{"A": a}, []step{
		{name: "first visit", on: "A", method: "GET", path: "/", wantStatus: 200,
			want: []string{"Visits in this session: 1", "Log in"},
			check: func(t *testing.T) {
				beforeLogin = b.sessionID(a)
				ok, ttl := stored(t, db, beforeLogin)
				if !ok || ttl > 20*time.Minute || ttl < 19*time.Minute {
					t.Errorf("session %q in Redis: %v, TTL %v; want stored with the 20-minute lifetime", beforeLogin, ok, ttl)
				}
			}},
		{name: "counter", on: "A", method: "GET", path: "/", wantStatus: 200, want: []string{"Visits in this session: 2"}},
		{name: "secret needs login", on: "A", method: "GET", path: "/secret", wantStatus: 401},
		{name: "wrong password", on: "A", method: "POST", path: "/login", form: url.Values{"user": {"ann"}, "password": {"nope"}}, wantStatus: 303},
		{name: "error flash", on: "A", method: "GET", path: "/", wantStatus: 200, want: []string{"Wrong user name or password.", "Visits in this session: 3"}},
		{name: "flash shows once", on: "A", method: "GET", path: "/", wantStatus: 200, wantNot: []string{"Wrong user name"}},
		{name: "login regenerates the ID", on: "A", method: "POST", path: "/login", form: url.Values{"user": {"ann"}, "password": {"ann-pass"}}, wantStatus: 303,
			check: func(t *testing.T) {
				after := b.sessionID(a)
				if after == beforeLogin || after == "" {
					t.Fatal("the session ID did not change at login")
				}
				if ok, _ := stored(t, db, beforeLogin); ok {
					t.Error("the pre-login session is still in Redis")
				}
				if ok, _ := stored(t, db, after); !ok {
					t.Error("the logged-in session is not in Redis")
				}
			}},
		{name: "logged in, values kept", on: "A", method: "GET", path: "/", wantStatus: 200,
			want: []string{"Welcome, ann!", "Visits in this session: 5", "Logged in as ann"}},
		{name: "secret", on: "A", method: "GET", path: "/secret", wantStatus: 200, want: []string{"The secret of ann is safe."}},
		{name: "logout", on: "A", method: "POST", path: "/logout", wantStatus: 303},
		{name: "logged out, fresh session", on: "A", method: "GET", path: "/", wantStatus: 200,
			want: []string{"You are logged out.", "Visits in this session: 1", "Log in"}, wantNot: []string{"ann"}},
		{name: "secret gone", on: "A", method: "GET", path: "/secret", wantStatus: 401},
	})
}

// TestTwoInstances logs in on A, is logged in on B, logs out on B and is
// logged out on A: the instances share nothing but Redis and the signing
// key.
func TestTwoInstances(t *testing.T) {
	rs := redistest.StartServer(t)
	// Two clients with one key prefix: one application, two processes.
	dbA := newDB(t, rs)
	dbB := sameDB(t, rs, dbA)
	inst := map[string]string{"A": newInstance(t, dbA).URL, "B": newInstance(t, dbB).URL}
	b := newBrowser(t)
	var loggedIn string
	run(t, b, inst, []step{
		{name: "visit A", on: "A", method: "GET", path: "/", wantStatus: 200, want: []string{"Visits in this session: 1"}},
		{name: "visit B, same session", on: "B", method: "GET", path: "/", wantStatus: 200, want: []string{"Visits in this session: 2"}},
		{name: "login on A", on: "A", method: "POST", path: "/login", form: url.Values{"user": {"bob"}, "password": {"bob-pass"}}, wantStatus: 303,
			check: func(t *testing.T) { loggedIn = b.sessionID(inst["A"]) }},
		{name: "logged in on B, flash from A", on: "B", method: "GET", path: "/", wantStatus: 200,
			want: []string{"Welcome, bob!", "Logged in as bob", "Visits in this session: 3"}},
		{name: "secret on B", on: "B", method: "GET", path: "/secret", wantStatus: 200, want: []string{"The secret of bob is safe."}},
		{name: "logout on B", on: "B", method: "POST", path: "/logout", wantStatus: 303,
			check: func(t *testing.T) {
				if ok, _ := stored(t, dbA, loggedIn); ok {
					t.Error("the logged-in session is still in Redis after logout")
				}
			}},
		{name: "logged out on A", on: "A", method: "GET", path: "/secret", wantStatus: 401},
		{name: "A shows B's flash", on: "A", method: "GET", path: "/", wantStatus: 200,
			want: []string{"You are logged out.", "Log in"}, wantNot: []string{"bob"}},
	})

	// The pre-logout cookie, replayed on A, is dead everywhere.
	req, _ := http.NewRequest("GET", inst["A"]+"/secret", nil)
	value, err := securecookie.New(testKey, nil).Encode("example_sid", loggedIn)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "example_sid", Value: value})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("replayed logged-out cookie: status %d, want 401", res.StatusCode)
	}
}

// sameDB opens a second client on the Redis and key prefix of db, as a
// second process of the same application would.
func sameDB(t *testing.T, rs *redistest.Server, db *redis.Database) *redis.Database {
	t.Helper()
	prefix := strings.TrimSuffix(db.Key("x"), "x")
	other, err := redis.New(redis.WithAddr(rs.Addr()), redis.WithPrefix(prefix),
		redis.WithTimeouts(300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond), redis.WithMaxRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// TestRedisOutage stops Redis while the application serves: pages that
// need the session answer 503, and once a Redis is back on the address the
// same instance serves again without a restart.
func TestRedisOutage(t *testing.T) {
	rs := redistest.StartServer(t)
	db := newDB(t, rs)
	a := newInstance(t, db).URL
	b := newBrowser(t)
	if res, _ := b.do(a, "GET", "/", nil); res.StatusCode != 200 {
		t.Fatalf("status %d before the outage", res.StatusCode)
	}
	rs.Kill()
	for _, path := range []string{"/", "/secret"} {
		if res, body := b.do(a, "GET", path, nil); res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("GET %s with Redis down: status %d, want 503\n%s", path, res.StatusCode, body)
		}
	}
	rs.Start() // an empty Redis (no persistence) on the same port
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, body := b.do(a, "GET", "/", nil)
		if res.StatusCode == 200 {
			if !strings.Contains(body, "Visits in this session: 1") {
				t.Errorf("after the restart, an empty Redis: want a new session\n%s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d after Redis came back", res.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
