// Tests of graceful shutdown over real listeners: a slow request started
// before the shutdown completes, new connections are refused, the
// OnShutdown hook runs and Listen returns nil; triggered by app.Shutdown and
// by SIGINT.
package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vireo-go/vireo"
)

const slow = 500 * time.Millisecond

// listen builds the application and starts it with Listen, which handles
// SIGINT and SIGTERM, on a free loopback port; it returns the application,
// its base URL (read from the startup lines) and a channel receiving
// Listen's result.
func listen(t *testing.T, work time.Duration, onShutdown func()) (*vireo.Application, string, <-chan error) {
	t.Helper()
	pr, pw := io.Pipe()
	app := newApp(work, onShutdown, vireo.WithStartupOutput(pw))
	done := make(chan error, 1)
	go func() { done <- app.Listen("127.0.0.1:0") }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr) // the rest of the startup lines
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "Now listening on: ")
	if !ok {
		t.Fatalf("startup line %q", line)
	}
	return app, base, done
}

// startSlow starts GET /slow and returns once the handler is running (its
// first line arrived), with the reader for the rest of the body.
func startSlow(t *testing.T, base string) (*http.Response, *bufio.Reader) {
	t.Helper()
	res, err := http.Get(base + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(res.Body)
	if line, err := r.ReadString('\n'); err != nil || line != "working...\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	return res, r
}

func TestShutdownLetsInFlightRequestsFinish(t *testing.T) {
	tests := []struct {
		name    string
		trigger func(app *vireo.Application) error
	}{
		{"app.Shutdown", func(app *vireo.Application) error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return app.Shutdown(ctx)
		}},
		{"SIGINT", func(*vireo.Application) error {
			// Listen has registered for SIGINT before accepting the
			// request that is now in flight, so the signal goes to it
			// and does not kill the test.
			return syscall.Kill(syscall.Getpid(), syscall.SIGINT)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hookRan atomic.Bool
			app, base, served := listen(t, slow, func() { hookRan.Store(true) })

			res, body := startSlow(t, base)
			defer res.Body.Close()
			start := time.Now()
			triggered := make(chan error, 1)
			go func() { triggered <- tt.trigger(app) }()

			// The in-flight request completes normally.
			rest, err := io.ReadAll(body)
			if err != nil {
				t.Fatalf("reading the slow response: %v", err)
			}
			if string(rest) != "done after 500ms\n" {
				t.Errorf("rest of body = %q", rest)
			}
			if err := <-triggered; err != nil {
				t.Errorf("trigger: %v", err)
			}
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Listen returned %v, want nil", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Listen did not return after the shutdown")
			}
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("shutdown took %v", elapsed)
			}
			if !hookRan.Load() {
				t.Error("OnShutdown hook did not run")
			}
			// The server no longer accepts connections.
			if _, err := http.Get(base + "/"); err == nil {
				t.Error("a request after shutdown succeeded")
			}
		})
	}
}

// TestShutdownTimeout shows what a deadline shorter than the slow request
// does: Shutdown gives up with the context's error instead of waiting.
func TestShutdownTimeout(t *testing.T) {
	app, base, served := listen(t, time.Minute, func() {})
	res, _ := startSlow(t, base)
	defer res.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := app.Shutdown(ctx); err != context.DeadlineExceeded {
		t.Errorf("Shutdown = %v, want context.DeadlineExceeded", err)
	}
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("Listen did not return")
	}
}
