// Tests against a real redis-server: the sessions conformance suite, two
// application instances sharing sessions, TTLs, an outage in the middle of
// serving, Redis down at start, and the codecs.

package redis

import (
	"context"
	"encoding/gob"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/redistest"
	"github.com/vireo-go/vireo/sessions"
	"github.com/vireo-go/vireo/sessions/sessiontest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var prefixes atomic.Int64

// newDB connects to srv under a prefix of its own, so tests sharing a
// server never see each other's keys. Later options win over these
// defaults.
func newDB(t testing.TB, srv *redistest.Server, opts ...Option) *Database {
	t.Helper()
	return openDB(t, append([]Option{WithAddr(srv.Addr())}, opts...)...)
}

func TestConformance(t *testing.T) {
	srv := startRedis(t)
	for _, codec := range []Codec{JSONCodec{}, GobCodec{}} {
		t.Run(strings.TrimPrefix(strings.TrimPrefix(typeName(codec), "redis."), "main."), func(t *testing.T) {
			sessiontest.RunDatabaseTests(t, sessiontest.Harness{
				New:      func(t *testing.T) sessions.Database { return newDB(t, srv, WithCodec(codec)) },
				Lifetime: 800 * time.Millisecond,
			})
		})
	}
}

func typeName(v any) string {
	switch v.(type) {
	case JSONCodec:
		return "JSONCodec"
	case GobCodec:
		return "GobCodec"
	}
	return "codec"
}

// instance is one application server using the shared Redis.
type instance struct {
	m   *sessions.Manager
	db  *Database
	srv *httptest.Server
}

func newInstance(t *testing.T, redis *redistest.Server, prefix string) *instance {
	t.Helper()
	in := &instance{db: newDB(t, redis, WithPrefix(prefix), WithTimeouts(0, 300*time.Millisecond, 300*time.Millisecond))}
	in.m = sessions.MustNew(sessions.WithDatabase(in.db), sessions.WithLogger(quiet))
	app := core.New(core.WithLogger(quiet))
	app.Use(in.m.Handler())
	app.Get("/login", func(ctx core.Context) {
		s, err := in.m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("user", ctx.Query("user"))
		ctx.SetResponseHeader("X-Session", s.ID())
	})
	app.Post("/login", func(ctx core.Context) {
		s, err := in.m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Set("user", ctx.Query("user"))
		ctx.Redirect("/me", http.StatusSeeOther)
	})
	app.Get("/me", func(ctx core.Context) {
		ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous"))
	})
	app.Get("/logout", func(ctx core.Context) {
		if err := in.m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	in.srv = httptest.NewServer(app)
	t.Cleanup(in.srv.Close)
	return in
}

type browser struct {
	t  *testing.T
	hc *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, hc: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

func (b *browser) get(url string) (int, string, http.Header) {
	b.t.Helper()
	res, err := b.hc.Get(url)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header
}

// TestTwoInstancesShareSessions: log in on A, read on B, log out on B,
// gone on A. Cookies are per host, not per port, so one browser's jar
// sends the cookie to both.
func TestTwoInstancesShareSessions(t *testing.T) {
	redis := startRedis(t)
	a := newInstance(t, redis, "shared:")
	b := newInstance(t, redis, "shared:")
	br := newBrowser(t)
	if _, body, _ := br.get(a.srv.URL + "/me"); body != "anonymous" {
		t.Fatalf("before login: %q", body)
	}
	_, _, h := br.get(a.srv.URL + "/login?user=ann")
	id := h.Get("X-Session")
	if _, body, _ := br.get(b.srv.URL + "/me"); body != "ann" {
		t.Fatalf("B after login on A: %q", body)
	}
	if n, _ := a.db.Client().Exists(context.Background(), a.db.Key(id)).Result(); n != 1 {
		t.Fatal("session key missing in Redis")
	}
	if code, _, _ := br.get(b.srv.URL + "/logout"); code != 200 {
		t.Fatalf("logout on B: %d", code)
	}
	if _, body, _ := br.get(a.srv.URL + "/me"); body != "anonymous" {
		t.Fatalf("A after logout on B: %q", body)
	}
	if n, _ := a.db.Client().Exists(context.Background(), a.db.Key(id)).Result(); n != 0 {
		t.Fatal("session key still in Redis after logout")
	}
}

// TestTTL: the key's TTL is the session lifetime, and sliding expiration
// refreshes it.
func TestTTL(t *testing.T) {
	redis := startRedis(t)
	db := newDB(t, redis)
	m := sessions.MustNew(sessions.WithDatabase(db), sessions.WithLifetime(4*time.Second), sessions.WithLogger(quiet))
	app := core.New(core.WithLogger(quiet))
	app.Use(m.Handler())
	app.Get("/set", func(ctx core.Context) {
		s := sessions.Get(ctx)
		s.Set("n", 1)
		ctx.SetResponseHeader("X-Session", s.ID())
	})
	app.Get("/get", func(ctx core.Context) { ctx.WriteString(strconv.Itoa(sessions.Get(ctx).GetInt("n", 0))) })
	srv := httptest.NewServer(app)
	defer srv.Close()
	br := newBrowser(t)
	_, _, h := br.get(srv.URL + "/set")
	key := db.Key(h.Get("X-Session"))
	ctx := context.Background()
	ttl := db.Client().PTTL(ctx, key).Val()
	if ttl <= 3*time.Second || ttl > 4*time.Second {
		t.Fatalf("TTL after creation %v, want about 4s", ttl)
	}
	time.Sleep(600 * time.Millisecond) // more than 1/16 of the lifetime
	if _, body, _ := br.get(srv.URL + "/get"); body != "1" {
		t.Fatalf("get: %q", body)
	}
	if ttl2 := db.Client().PTTL(ctx, key).Val(); ttl2 <= ttl-100*time.Millisecond {
		t.Fatalf("TTL %v after a use 600ms later, want it refreshed from %v", ttl2, ttl)
	}
}

// TestOutage: Redis killed while serving gives 503, never an empty
// session over the user's data, and the session is back once Redis is.
func TestOutage(t *testing.T) {
	redis := startRedis(t)
	in := newInstance(t, redis, "outage:")
	br := newBrowser(t)
	br.get(in.srv.URL + "/login?user=ann")
	if _, body, _ := br.get(in.srv.URL + "/me"); body != "ann" {
		t.Fatalf("before the outage: %q", body)
	}
	redis.Kill()
	code, body, h := br.get(in.srv.URL + "/me")
	if code != http.StatusServiceUnavailable || strings.Contains(body, "ann") || strings.Contains(body, "anonymous") {
		t.Fatalf("during the outage: %d %q, want 503", code, body)
	}
	if h.Get("Set-Cookie") != "" {
		t.Fatalf("the outage replaced the cookie: %q", h.Get("Set-Cookie"))
	}
	if code, _, _ := br.get(in.srv.URL + "/login?user=eve"); code != http.StatusServiceUnavailable {
		t.Fatalf("login during the outage: %d, want 503", code)
	}
	redis.Start() // same port and data directory: the append-only file has the session
	code, body, _ = br.get(in.srv.URL + "/me")
	if code != 200 || body != "ann" {
		t.Fatalf("after Redis came back: %d %q, want 200 ann", code, body)
	}
}

// TestLoginWithoutCookieDuringOutage (issue 12 item 9): a login whose new
// session cannot be saved answers 503 without a cookie, instead of a
// redirect with a cookie nobody can find after Redis is back.
func TestLoginWithoutCookieDuringOutage(t *testing.T) {
	redis := startRedis(t)
	in := newInstance(t, redis, "login-outage:")
	redis.Kill()
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req, err := http.NewRequest(method, in.srv.URL+"/login?user=ann", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || len(res.Cookies()) != 0 {
			t.Fatalf("%s /login with Redis down: %d with cookies %v, want 503 and none", method, res.StatusCode, res.Cookies())
		}
	}
	redis.Start()
	br := newBrowser(t)
	if code, _, _ := br.get(in.srv.URL + "/login?user=ann"); code != http.StatusOK {
		t.Fatalf("login after Redis came back: %d", code)
	}
	if _, body, _ := br.get(in.srv.URL + "/me"); body != "ann" {
		t.Fatalf("after the login: %q", body)
	}
}

func TestDownAtStart(t *testing.T) {
	redis := startRedis(t)
	addr := redis.Addr()
	redis.Kill()
	_, err := New(WithAddr(addr), WithTimeouts(200*time.Millisecond, 0, 0))
	if err == nil || !strings.Contains(err.Error(), addr) {
		t.Fatalf("New with Redis down: %v, want an error naming %s", err, addr)
	}
}

type point struct{ X, Y int }

func init() { gob.Register(point{}) }

func TestCodecs(t *testing.T) {
	in := sessions.Snapshot{
		Values: []sessions.Entry{
			{Key: "s", Value: "str"}, {Key: "i", Value: 42}, {Key: "big", Value: int64(1) << 60},
			{Key: "f", Value: 2.5}, {Key: "b", Value: true}, {Key: "list", Value: []any{"a", 1}},
		},
		Flashes:  []sessions.Entry{{Key: "msg", Value: "hi"}},
		Lifetime: time.Hour,
	}
	t.Run("json", func(t *testing.T) {
		data, err := JSONCodec{}.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := JSONCodec{}.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		want := []any{"str", int64(42), int64(1) << 60, 2.5, true, []any{"a", int64(1)}}
		for i, e := range out.Values {
			if e.Key != in.Values[i].Key || !equalAny(e.Value, want[i]) {
				t.Errorf("value %d: %s=%#v, want %s=%#v", i, e.Key, e.Value, in.Values[i].Key, want[i])
			}
		}
		if len(out.Flashes) != 1 || out.Flashes[0].Value != "hi" || out.Lifetime != time.Hour {
			t.Errorf("flashes/lifetime: %+v", out)
		}
		if _, err := (JSONCodec{}).Unmarshal([]byte("{not json")); err == nil {
			t.Error("corrupt JSON accepted")
		}
	})
	t.Run("gob", func(t *testing.T) {
		in := in
		in.Values = append(in.Values[:5:5], sessions.Entry{Key: "p", Value: point{1, 2}})
		data, err := GobCodec{}.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := GobCodec{}.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range out.Values {
			if e != in.Values[i] {
				t.Errorf("value %d: %#v, want %#v (gob keeps types)", i, e, in.Values[i])
			}
		}
	})
}

func equalAny(a, b any) bool {
	la, ok1 := a.([]any)
	lb, ok2 := b.([]any)
	if ok1 && ok2 {
		if len(la) != len(lb) {
			return false
		}
		for i := range la {
			if la[i] != lb[i] {
				return false
			}
		}
		return true
	}
	return a == b
}

// TestCorruptValueIsAnError: a value the codec cannot read is reported,
// not silently treated as a new session.
func TestCorruptValueIsAnError(t *testing.T) {
	redis := startRedis(t)
	db := newDB(t, redis)
	id, _ := sessions.NewID()
	ctx := context.Background()
	db.Client().Set(ctx, db.Key(id), "garbage", time.Minute)
	if _, err := db.Load(ctx, id); err == nil {
		t.Fatal("Load of a corrupt value returned no error")
	}
}
