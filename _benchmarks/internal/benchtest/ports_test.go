package benchtest

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPortsNeverTwice is the regression test of the sessions-redis flake
// (a redis-server and an app handed the same port): ports handed out and
// closed at once, as a run does before its servers bind them, are never
// handed out again, also when asked for concurrently.
func TestPortsNeverTwice(t *testing.T) {
	var a Ports
	a.Reserve(5000)
	const workers, each = 4, 100
	var mu sync.Mutex
	seen := map[int]bool{5000: true}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				port, err := a.Free()
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[port] {
					t.Errorf("port %d handed out twice", port)
				}
				seen[port] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != workers*each+1 {
		t.Errorf("%d distinct ports, want %d", len(seen), workers*each+1)
	}
}

// TestPortsFree checks that a handed-out port is free to bind: Free leaves
// no listener of its own open.
func TestPortsFree(t *testing.T) {
	var a Ports
	for range 20 {
		port, err := a.Free()
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatalf("port %d from Free cannot be bound: %v", port, err)
		}
		ln.Close()
	}
}

func TestAddressInUse(t *testing.T) {
	tests := []struct {
		output string
		want   bool
	}{
		{"listen tcp 127.0.0.1:32847: bind: address already in use", true},
		{"Error: listen EADDRINUSE: address already in use 127.0.0.1:5000", true},
		{"Warning: Could not create server TCP listening socket 127.0.0.1:6379: bind: Address already in use", true},
		{"Failed to bind to address http://127.0.0.1:5000: address already in use.", true},
		{"exited before printing the readiness lines (exit status 3)", false},
	}
	for _, tt := range tests {
		if got := AddressInUse(tt.output); got != tt.want {
			t.Errorf("AddressInUse(%q) = %v, want %v", tt.output, got, tt.want)
		}
	}
}

// TestStartOnFreePortRetries takes the first port it is offered before the
// child binds it, as another process may: the start fails with "address in
// use" and is retried on a new port.
func TestStartOnFreePortRetries(t *testing.T) {
	var taken []net.Listener
	defer func() {
		for _, ln := range taken {
			ln.Close()
		}
	}()
	attempts := 0
	p, err := StartOnFreePort(context.Background(), func(port int) (Spec, error) {
		attempts++
		if attempts == 1 {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
			if err != nil {
				return Spec{}, err
			}
			taken = append(taken, ln)
		}
		cmd := child("listen")
		return Spec{Name: "listen", Argv: cmd.Args, Env: cmd.Env, Port: port}, nil
	}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if attempts != 2 {
		t.Errorf("%d attempts, want 2 (the first port was taken)", attempts)
	}
	if !strings.HasSuffix(p.Stdout()[0], ":"+strconv.Itoa(p.Port)) {
		t.Errorf("stdout %q does not name port %d", p.Stdout(), p.Port)
	}
}
