// Tests of the probes: status codes and JSON reports for passing, failing,
// slow and panicking checks; registration errors.

package health_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/health"
)

func pass(context.Context) error { return nil }

func TestProbes(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	tests := []struct {
		name       string
		opts       []health.Option
		path       string
		wantStatus int
		want       map[string]string // check name -> status
		wantErr    map[string]string // check name -> part of its error
	}{
		{"no checks, live", nil, health.LivePath, 200, map[string]string{}, nil},
		{"no checks, ready", nil, health.ReadyPath, 200, map[string]string{}, nil},
		{"passing", []health.Option{health.WithReadyCheck("db", pass, 0), health.WithReadyCheck("redis", pass, 0)},
			health.ReadyPath, 200, map[string]string{"db": "pass", "redis": "pass"}, nil},
		{"one failing", []health.Option{
			health.WithReadyCheck("db", pass, 0),
			health.WithReadyCheck("redis", func(context.Context) error { return errors.New("connection refused") }, 0),
		}, health.ReadyPath, 503, map[string]string{"db": "pass", "redis": "fail"}, map[string]string{"redis": "connection refused"}},
		{"ready failure leaves live alone", []health.Option{
			health.WithReadyCheck("redis", func(context.Context) error { return errors.New("down") }, 0),
		}, health.LivePath, 200, map[string]string{}, nil},
		{"live failing", []health.Option{
			health.WithLiveCheck("deadlock", func(context.Context) error { return errors.New("worker stuck") }, 0),
		}, health.LivePath, 503, map[string]string{"deadlock": "fail"}, map[string]string{"deadlock": "worker stuck"}},
		{"timeout honoured", []health.Option{
			health.WithReadyCheck("slow", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, 20*time.Millisecond),
		}, health.ReadyPath, 503, map[string]string{"slow": "fail"}, map[string]string{"slow": "deadline exceeded"}},
		{"timeout ignored by the check", []health.Option{
			health.WithTimeout(20 * time.Millisecond),
			health.WithReadyCheck("stuck", func(context.Context) error { <-block; return nil }, 0),
		}, health.ReadyPath, 503, map[string]string{"stuck": "fail"}, map[string]string{"stuck": "no answer within 20ms"}},
		{"panicking", []health.Option{
			health.WithReadyCheck("buggy", func(context.Context) error { panic("nil map") }, 0),
		}, health.ReadyPath, 503, map[string]string{"buggy": "fail"}, map[string]string{"buggy": "panic: nil map"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := health.New(tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			app := core.New()
			h.Register(app)
			rec := httptest.NewRecorder()
			start := time.Now()
			app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if time.Since(start) > 2*time.Second {
				t.Errorf("the probe took %v", time.Since(start))
			}
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.wantStatus, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			var rep health.Report
			if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil {
				t.Fatalf("%v: %s", err, rec.Body)
			}
			wantOverall := health.StatusPass
			if tt.wantStatus != 200 {
				wantOverall = health.StatusFail
			}
			if rep.Status != wantOverall || len(rep.Checks) != len(tt.want) {
				t.Fatalf("report %+v, want status %s and checks %v", rep, wantOverall, tt.want)
			}
			for name, st := range tt.want {
				got := rep.Checks[name]
				if got.Status != st || got.Duration == "" || !strings.Contains(got.Error, tt.wantErr[name]) || (st == "pass") != (got.Error == "") {
					t.Errorf("check %s: %+v, want status %s, error containing %q", name, got, st, tt.wantErr[name])
				}
			}
		})
	}
}

func TestHeadProbe(t *testing.T) {
	app := core.New()
	health.MustNew(health.WithReadyCheck("x", func(context.Context) error { return errors.New("no") }, 0)).Register(app)
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, health.ReadyPath, nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("HEAD %s: %d, want 503", health.ReadyPath, rec.Code)
	}
}

func TestNewRejectsBadChecks(t *testing.T) {
	tests := []struct {
		name string
		opts []health.Option
		want string
	}{
		{"nil option", []health.Option{nil}, "nil Option"},
		{"no name", []health.Option{health.WithReadyCheck("", pass, 0)}, "needs a name"},
		{"nil func", []health.Option{health.WithLiveCheck("x", nil, 0)}, `check "x": nil function`},
		{"negative timeout", []health.Option{health.WithReadyCheck("x", pass, -time.Second)}, "negative timeout"},
		{"zero WithTimeout", []health.Option{health.WithTimeout(0)}, "not positive"},
		{"duplicate", []health.Option{health.WithReadyCheck("db", pass, 0), health.WithReadyCheck("db", pass, 0)}, `two checks named "db"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := health.New(tt.opts...)
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New: %v, %v; want an error containing %q", h, err, tt.want)
			}
		})
	}
}
