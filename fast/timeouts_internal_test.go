package fast

import (
	"net"
	"testing"
	"time"
)

// TestTick: the heartbeat ticks at a quarter of the shortest of the three
// timeouts (internal/heartbeat has the bounds).
func TestTick(t *testing.T) {
	cases := []struct {
		read, write, idle, want time.Duration
	}{
		{70 * time.Second, 60 * time.Second, 120 * time.Second, time.Second}, // the application's defaults
		{200 * time.Millisecond, time.Minute, 0, 50 * time.Millisecond},
		{time.Minute, 120 * time.Millisecond, time.Minute, 30 * time.Millisecond},
		{time.Minute, time.Minute, 80 * time.Millisecond, 20 * time.Millisecond},
		{-time.Second, 0, 8 * time.Second, time.Second}, // negative: none
	}
	for _, c := range cases {
		tm := newTimeouts(c.read, c.write, c.idle)
		if got := tm.Tick(); got != c.want {
			t.Errorf("newTimeouts(%v, %v, %v).Tick() = %v, want %v", c.read, c.write, c.idle, got, c.want)
		}
		if tm.read < 0 || tm.write < 0 || tm.idle < 0 {
			t.Errorf("newTimeouts(%v, %v, %v) kept a negative timeout", c.read, c.write, c.idle)
		}
	}
}

// TestHeartbeatStops: the heartbeat runs while a Serve runs or a
// connection it accepted is open, and stops after both have ended.
func TestHeartbeatStops(t *testing.T) {
	tm := newTimeouts(40*time.Millisecond, 0, 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wl, done := tm.serve(ln)
	go func() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err == nil {
			defer c.Close()
			time.Sleep(time.Second)
		}
	}()
	c, err := wl.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if linkOf(c) == nil {
		t.Fatalf("accepted %T, not a connection with a deadline", c)
	}
	ln.Close()
	done()
	beating := tm.Beating
	time.Sleep(5 * tm.Tick())
	if !beating() {
		t.Fatal("heartbeat stopped with a connection open")
	}
	c.Close()
	for range 100 {
		if !beating() {
			return
		}
		time.Sleep(tm.Tick())
	}
	t.Error("heartbeat still running after Serve returned and its connection closed")
}
