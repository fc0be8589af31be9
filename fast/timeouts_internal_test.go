package fast

import (
	"net"
	"testing"
	"time"
)

func TestTick(t *testing.T) {
	cases := []struct {
		read, write, idle, want time.Duration
	}{
		{70 * time.Second, 60 * time.Second, 120 * time.Second, time.Second}, // the application's defaults
		{200 * time.Millisecond, time.Minute, 0, 50 * time.Millisecond},
		{time.Minute, 20 * time.Millisecond, time.Minute, 10 * time.Millisecond}, // not under minTick
		{0, 0, 0, time.Second},
		{-time.Second, 0, 8 * time.Second, time.Second}, // negative: none
	}
	for _, c := range cases {
		if got := newTimeouts(c.read, c.write, c.idle).tick; got != c.want {
			t.Errorf("newTimeouts(%v, %v, %v).tick = %v, want %v", c.read, c.write, c.idle, got, c.want)
		}
	}
}

// TestDeadlineWord: set packs the moment and the wait into one word, a
// tick later than exact, and none for a zero duration.
func TestDeadlineWord(t *testing.T) {
	tm := newTimeouts(time.Second, time.Second, time.Second)
	tm.now.Store(int64(5 * time.Second))
	dl := &deadline{t: tm}
	dl.set(waitWrite, 2*time.Second)
	w := dl.at.Load()
	if got, want := w>>waitBits, int64(7*time.Second+tm.tick); got != want || w&(1<<waitBits-1) != waitWrite {
		t.Errorf("word %d: moment %d wait %d, want %d and %d", w, got, w&(1<<waitBits-1), want, waitWrite)
	}
	dl.set(waitRead, 0)
	if w := dl.at.Load(); w != waitNone {
		t.Errorf("zero duration: word %d, want none", w)
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
	beating := func() bool {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		return tm.beating
	}
	time.Sleep(5 * tm.tick)
	if !beating() {
		t.Fatal("heartbeat stopped with a connection open")
	}
	c.Close()
	for range 100 {
		if !beating() {
			return
		}
		time.Sleep(tm.tick)
	}
	t.Error("heartbeat still running after Serve returned and its connection closed")
}
