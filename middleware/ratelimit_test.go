package middleware

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

func TestRateLimit(t *testing.T) {
	tests := []struct {
		name      string
		opts      []RateLimitOption
		requests  int
		remote    []string // cycled
		forwarded string
		want429   int
	}{
		{name: "burst then refused", opts: []RateLimitOption{WithRate(1, 3)}, requests: 5, remote: []string{"192.0.2.1:1"}, want429: 2},
		{name: "per client", opts: []RateLimitOption{WithRate(1, 2)}, requests: 6, remote: []string{"192.0.2.1:1", "192.0.2.2:1", "192.0.2.3:1"}, want429: 0},
		{name: "trusted proxy: the client behind it", opts: []RateLimitOption{WithRate(1, 1)}, requests: 2, remote: []string{"10.0.0.1:1"}, forwarded: "alternate", want429: 0},
		{name: "untrusted forwarded header ignored", opts: []RateLimitOption{WithRate(1, 1)}, requests: 2, remote: []string{"192.0.2.1:1"}, forwarded: "alternate", want429: 1},
		{name: "key func", opts: []RateLimitOption{WithRate(1, 1), WithKeyFunc(func(core.Context) string { return "all" })},
			requests: 3, remote: []string{"192.0.2.1:1", "192.0.2.2:1"}, want429: 2},
		{name: "empty key not limited", opts: []RateLimitOption{WithRate(1, 1), WithKeyFunc(func(core.Context) string { return "" })},
			requests: 3, remote: []string{"192.0.2.1:1"}, want429: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := core.New(core.WithStartupOutput(nil), core.WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8"))
			app.UseBeforeRouting(MustRateLimit(tt.opts...))
			app.Get("/", func(ctx core.Context) { ctx.WriteString("ok") })
			got429 := 0
			for i := 0; i < tt.requests; i++ {
				req := httptest.NewRequest("GET", "/", nil)
				req.RemoteAddr = tt.remote[i%len(tt.remote)]
				switch tt.forwarded {
				case "alternate":
					req.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i))
				}
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				missing := rec.Header().Get("RateLimit-Limit") == "" || rec.Header().Get("RateLimit-Remaining") == "" || rec.Header().Get("RateLimit-Reset") == ""
				if missing != (tt.name == "empty key not limited") {
					t.Errorf("request %d: RateLimit headers missing %v: %v", i, missing, rec.Header())
				}
				switch rec.Code {
				case 429:
					got429++
					ra, err := strconv.Atoi(rec.Header().Get("Retry-After"))
					if err != nil || ra < 1 {
						t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
					}
					if rec.Header().Get("RateLimit-Remaining") != "0" {
						t.Errorf("Remaining %q on a 429", rec.Header().Get("RateLimit-Remaining"))
					}
				case 200:
				default:
					t.Errorf("status %d", rec.Code)
				}
			}
			if got429 != tt.want429 {
				t.Errorf("%d refused, want %d", got429, tt.want429)
			}
		})
	}
}

func TestMemoryStoreRefillAndBound(t *testing.T) {
	s, err := NewRateMemoryStore(10, 2, 64)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	for i, want := range []bool{true, true, false} {
		res, _ := s.Take("k", now)
		if res.Allowed != want {
			t.Fatalf("take %d: allowed %v", i, res.Allowed)
		}
		if !res.Allowed && (res.RetryAfter <= 0 || res.RetryAfter > 100*time.Millisecond) {
			t.Errorf("RetryAfter %v", res.RetryAfter)
		}
	}
	if res, _ := s.Take("k", now.Add(100*time.Millisecond)); !res.Allowed {
		t.Error("no token after 100ms at 10/s")
	}
	// A flood of distinct keys stays within the bound.
	for i := 0; i < 10000; i++ {
		s.Take(strconv.Itoa(i), now)
	}
	if n := s.Len(); n > 64 {
		t.Errorf("%d keys held, bound 64", n)
	}
	for _, bad := range [][3]float64{{0, 1, 0}, {1, 0, 0}, {1, 1, 8}} {
		if _, err := NewRateMemoryStore(bad[0], int(bad[1]), int(bad[2])); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

type failingStore struct{}

func (failingStore) Take(string, time.Time) (RateResult, error) {
	return RateResult{}, errors.New("redis down")
}

func TestRateLimitStoreError(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   []RateLimitOption
		status int
	}{
		{"fails closed by default", nil, 503},
		{"WithFailOpen lets it through", []RateLimitOption{WithFailOpen()}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := core.New(core.WithStartupOutput(nil))
			app.UseBeforeRouting(MustRateLimit(append(tc.opts, WithRateStore(failingStore{}))...))
			app.Get("/", func(ctx core.Context) { ctx.WriteString("ok") })
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d", rec.Code, tc.status)
			}
			if h := rec.Header().Get("RateLimit-Remaining"); h != "" {
				t.Errorf("RateLimit-Remaining %q on a request the store could not count", h)
			}
		})
	}
	for i, opts := range [][]RateLimitOption{nil, {WithRateStore(nil)}, {WithKeyFunc(nil)}, {WithRate(-1, 1)}} {
		if _, err := RateLimit(opts...); err == nil {
			t.Errorf("config %d accepted", i)
		}
	}
}

func BenchmarkRateLimit(b *testing.B) {
	runBench(b, benchApp(b, MustRateLimit(WithRate(1e9, 1000))), httptest.NewRequest("GET", "/data", nil))
}

// TestRateLimitLargeBurst checks that a large burst is a valid
// configuration: RateLimit does not build a header value per possible
// count (a burst of 1<<50 made it panic in make, one of 1e8 cost GBs).
func TestRateLimitLargeBurst(t *testing.T) {
	for _, burst := range []int{1 << 50, 100_000_000} {
		h, err := RateLimit(WithRate(1, burst))
		if err != nil {
			t.Fatalf("burst %d: %v", burst, err)
		}
		app := core.New(core.WithStartupOutput(nil))
		app.UseBeforeRouting(h)
		app.Get("/", func(ctx core.Context) {})
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Code != 200 || rec.Header().Get("RateLimit-Limit") != strconv.Itoa(burst) ||
			rec.Header().Get("RateLimit-Remaining") != strconv.Itoa(burst-1) {
			t.Errorf("burst %d: %d, headers %v", burst, rec.Code, rec.Header())
		}
	}
}
