// Tests against a real redis-server (Debian's, started by
// internal/redistest): the headers match the in-memory store's; three
// instances sharing one Redis admit, within 5%, what an exact token bucket
// admits for the same requests (about the configured rate in total), and
// so do three stores on a three-master Redis Cluster; a bucket's key
// expires when the bucket is full again; Redis down fails closed or open
// as configured; bad arguments are errors of New.

package redis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/redistest"
	"github.com/vireo-go/vireo/middleware"
)

var prefixes atomic.Int64

func newStore(t testing.TB, srv *redistest.Server, perSecond float64, burst int, opts ...Option) *Store {
	t.Helper()
	opts = append([]Option{WithAddr(srv.Addr()), WithPrefix("test" + strconv.FormatInt(prefixes.Add(1), 10) + ":")}, opts...)
	s, err := New(perSecond, burst, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// limitedApp serves GET / behind RateLimit with store, keyed by one
// constant so that every request of every instance shares the bucket.
func limitedApp(t testing.TB, store middleware.RateStore, opts ...middleware.RateLimitOption) *core.Application {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil))
	opts = append([]middleware.RateLimitOption{middleware.WithRateStore(store),
		middleware.WithKeyFunc(func(core.Context) string { return "everyone" })}, opts...)
	app.Use(middleware.MustRateLimit(opts...))
	app.Get("/", func(ctx core.Context) { ctx.WriteString("ok") })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

var rateHeaders = []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"}

// TestHeadersMatchMemoryStore: the same requests get the same statuses
// and RateLimit headers from the Redis store as from the in-memory one.
func TestHeadersMatchMemoryStore(t *testing.T) {
	srv := redistest.StartServer(t)
	for _, tc := range []struct {
		perSecond float64
		burst     int
		requests  int
	}{
		{2, 3, 6},
		{0.5, 1, 3},
		{10, 20, 24},
	} {
		t.Run(fmt.Sprintf("%v/s burst %d", tc.perSecond, tc.burst), func(t *testing.T) {
			mem, err := middleware.NewRateMemoryStore(tc.perSecond, tc.burst, 0)
			if err != nil {
				t.Fatal(err)
			}
			apps := map[string]*core.Application{
				"memory": limitedApp(t, mem),
				"redis":  limitedApp(t, newStore(t, srv, tc.perSecond, tc.burst)),
			}
			got := map[string][]string{}
			for i := range tc.requests {
				for _, name := range []string{"memory", "redis"} {
					rec := httptest.NewRecorder()
					apps[name].ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
					line := strconv.Itoa(rec.Code)
					for _, h := range rateHeaders {
						line += " " + h + "=" + rec.Header().Get(h)
					}
					got[name] = append(got[name], line)
				}
				if got["memory"][i] != got["redis"][i] {
					t.Errorf("request %d:\nmemory %s\nredis  %s", i+1, got["memory"][i], got["redis"][i])
				}
			}
			if !strings.HasPrefix(got["redis"][tc.requests-1], "429 ") {
				t.Errorf("the last request was not refused: %s", got["redis"][tc.requests-1])
			}
		})
	}
}

// TestSharedAcrossInstances: three instances, each with its own client,
// share one bucket in Redis; driven above the limit for three seconds,
// together they admit what an exact token bucket admits for the same
// arrivals, within 5% (and about burst + rate*elapsed). The same load on
// three in-memory stores admits about three times as much, which shows
// the test can tell.
func TestSharedAcrossInstances(t *testing.T) {
	srv := redistest.StartServer(t)
	const perSecond, burst = 50.0, 10
	// run drives the stores' instances for d; it returns the number
	// admitted and each instance's request times (the middle of each
	// round trip, when Redis ran the script).
	run := func(stores []middleware.RateStore, d time.Duration) (admitted int, times [][]time.Time) {
		var instances []*httptest.Server
		for _, s := range stores {
			in := httptest.NewServer(limitedApp(t, s))
			defer in.Close()
			instances = append(instances, in)
		}
		times = make([][]time.Time, len(instances))
		var mu sync.Mutex
		var ok atomic.Int64
		var wg sync.WaitGroup
		deadline := time.Now().Add(d)
		for i := range 3 * len(instances) {
			in := i % len(instances)
			wg.Add(1)
			go func() {
				defer wg.Done()
				hc := &http.Client{Timeout: 5 * time.Second}
				for time.Now().Before(deadline) {
					t0 := time.Now()
					res, err := hc.Get(instances[in].URL)
					if err != nil {
						t.Error(err)
						return
					}
					res.Body.Close()
					mid := t0.Add(time.Since(t0) / 2)
					mu.Lock()
					times[in] = append(times[in], mid)
					mu.Unlock()
					switch res.StatusCode {
					case http.StatusOK:
						ok.Add(1)
					case http.StatusTooManyRequests:
					default:
						t.Errorf("status %d", res.StatusCode)
					}
					time.Sleep(2 * time.Millisecond) // well above the limit, below what the machine can serve
				}
			}()
		}
		wg.Wait()
		return int(ok.Load()), times
	}
	var shared []middleware.RateStore
	for range 3 { // one prefix, hence one bucket
		shared = append(shared, newStore(t, srv, perSecond, burst, WithPrefix("shared:")))
	}
	start := time.Now()
	admitted, times := run(shared, 3*time.Second)
	configured := float64(burst) + perSecond*time.Since(start).Seconds()
	all := slices.Concat(times...)
	want := redistest.Admitted(all, perSecond, burst)
	over := float64(admitted)/float64(want) - 1
	t.Logf("Redis store, 3 instances: sent %d, admitted %d, an exact bucket admits %d of these (burst + rate*elapsed = %.0f): overshoot %+.2f%%",
		len(all), admitted, want, configured, 100*over)
	if len(all) < 2*want {
		t.Errorf("sent only %d requests for a limit of %d: the limit was hardly tested", len(all), want)
	}
	if over > 0.05 || over < -0.05 {
		t.Errorf("admitted %d, want %d within 5%%", admitted, want)
	}

	var local []middleware.RateStore
	for range 3 {
		mem, _ := middleware.NewRateMemoryStore(perSecond, burst, 0)
		local = append(local, mem)
	}
	admitted, times = run(local, 2*time.Second)
	perInstance := 0
	for _, ts := range times {
		perInstance += redistest.Admitted(ts, perSecond, burst)
	}
	sharedWant := redistest.Admitted(slices.Concat(times...), perSecond, burst)
	t.Logf("memory stores, 3 instances: admitted %d, a shared bucket would admit %d: %.2fx", admitted, sharedWant, float64(admitted)/float64(sharedWant))
	if float64(perInstance) < 1.5*float64(sharedWant) {
		t.Logf("the load (%d requests) was too low to show per-instance buckets admitting more", len(slices.Concat(times...)))
	} else if float64(admitted) < 1.5*float64(sharedWant) {
		t.Errorf("three memory stores admitted %d, a shared bucket %d: the load does not tell shared from local limits", admitted, sharedWant)
	}
}

// TestSharedOnCluster: the same on a Redis Cluster of three masters (and
// their replicas), with one client on each master, sending through three
// stores: each client is admitted what an exact bucket of its own admits,
// within 5%.
func TestSharedOnCluster(t *testing.T) {
	seeds := redistest.StartCluster(t).Seeds()
	const perSecond, burst = 50.0, 10
	var stores []*Store
	deadline := time.Now().Add(20 * time.Second)
	for len(stores) < 3 {
		s, err := New(perSecond, burst, WithAddrs(seeds...), WithPrefix("cluster:"))
		if err == nil {
			_, err = s.Take("probe", time.Time{}) // every slot served
		}
		if err == nil {
			t.Cleanup(func() { s.Close() })
			stores = append(stores, s)
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not come up: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// One client on each master: redis-cli --cluster create gives them
	// slots 0-5460, 5461-10922 and 10923-16383.
	var clients []string
	masters := map[int]bool{}
	for n := 1; len(clients) < 3 && n < 255; n++ {
		c := "192.0.2." + strconv.Itoa(n)
		slot, err := stores[0].Client().ClusterKeySlot(context.Background(), stores[0].Key(c)).Result()
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		if slot > 10922 {
			m = 2
		} else if slot > 5460 {
			m = 1
		}
		if !masters[m] {
			masters[m] = true
			clients = append(clients, c)
		}
	}
	admitted := make([]atomic.Int64, len(clients))
	times := make([][]time.Time, len(clients))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(2 * time.Second)
	for i := range 3 * len(clients) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, s := i%len(clients), stores[i/len(clients)]
			for time.Now().Before(end) {
				t0 := time.Now()
				res, err := s.Take(clients[c], time.Time{})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				times[c] = append(times[c], t0.Add(time.Since(t0)/2))
				mu.Unlock()
				if res.Allowed {
					admitted[c].Add(1)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	for c := range clients {
		got, want := admitted[c].Load(), redistest.Admitted(times[c], perSecond, burst)
		over := float64(got)/float64(want) - 1
		t.Logf("client %s (a master of its own) over 3 stores: sent %d, admitted %d, an exact bucket admits %d: %+.2f%%", clients[c], len(times[c]), got, want, 100*over)
		if over > 0.05 || over < -0.05 {
			t.Errorf("client %s: admitted %d, want %d within 5%%", clients[c], got, want)
		}
	}
}

// TestKeyExpires: a bucket's key lives until the bucket is full again.
func TestKeyExpires(t *testing.T) {
	srv := redistest.StartServer(t)
	s := newStore(t, srv, 10, 5) // a token every 100ms
	for range 3 {
		if _, err := s.Take("k", time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	ttl := s.Client().PTTL(ctx, s.Key("k")).Val()
	if ttl <= 200*time.Millisecond || ttl > 300*time.Millisecond {
		t.Fatalf("PTTL after 3 of 5 tokens at 10/s: %v, want about 300ms", ttl)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	if n := s.Client().Exists(ctx, s.Key("k")).Val(); n != 0 {
		t.Fatal("the key of a full bucket is still in Redis")
	}
	res, err := s.Take("k", time.Time{})
	if err != nil || !res.Allowed || res.Remaining != 4 {
		t.Fatalf("after the bucket refilled: %+v, %v; want allowed with 4 left", res, err)
	}
}

// TestRedisDown: with Redis gone, RateLimit answers 503 by default and
// lets the request through with WithFailOpen; both recover when Redis is
// back (the script is loaded again by itself).
func TestRedisDown(t *testing.T) {
	srv := redistest.StartServer(t)
	store := newStore(t, srv, 100, 100, WithTimeouts(100*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond))
	closed := limitedApp(t, store)
	open := limitedApp(t, store, middleware.WithFailOpen())
	status := func(app *core.Application) (int, string) {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		return rec.Code, rec.Header().Get("RateLimit-Remaining")
	}
	if code, rem := status(closed); code != 200 || rem == "" {
		t.Fatalf("Redis up: %d, remaining %q", code, rem)
	}
	srv.Kill()
	if code, _ := status(closed); code != http.StatusServiceUnavailable {
		t.Errorf("Redis down, default: %d, want 503 (fail closed)", code)
	}
	if code, rem := status(open); code != http.StatusOK || rem != "" {
		t.Errorf("Redis down, WithFailOpen: %d with remaining %q, want 200 without RateLimit headers", code, rem)
	}
	srv.Start() // empty: no keys, no script
	waitUp := time.Now().Add(5 * time.Second)
	for {
		code, rem := status(closed)
		if code == 200 && rem != "" {
			break
		}
		if time.Now().After(waitUp) {
			t.Fatalf("Redis back: still %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perSecond float64
		burst     int
		opts      []Option
		want      string
	}{
		{"zero rate", 0, 1, nil, "must be positive"},
		{"zero burst", 1, 0, nil, "must be positive"},
		{"rate too high", 2e6, 1, nil, "microsecond"},
		{"empty address", 1, 1, []Option{WithAddr("")}, "empty address"},
		{"nil option", 1, 1, []Option{nil}, "nil Option"},
		{"bad timeout", 1, 1, []Option{WithTimeouts(-1, 0, 0)}, "negative timeout"},
		{"unreachable", 1, 1, []Option{WithAddr("127.0.0.1:1"), WithTimeouts(50*time.Millisecond, 50*time.Millisecond, 50*time.Millisecond)}, "cannot reach Redis at 127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.perSecond, tc.burst, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
