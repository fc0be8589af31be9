// Package heartbeat keeps the timeouts of a server's connections on one
// coarse clock, as Kestrel does with its heartbeat, instead of moving each
// connection's deadlines on every request.
//
// A server that enforces its timeouts with the connections' deadlines
// moves them several times a request (the wait for the next request, the
// request's headers, the response), each a clock read and a change to the
// runtime's timer of the connection: about 1,500 instructions of a 40,000
// instruction request on net/http, 1,800 on fasthttp (callgrind, the
// suite's simple app). Here instead:
//
//   - Each connection has a Deadline: the moment on the server's coarse
//     clock by which it must be done with what it waits for, and which
//     wait that is (the low two bits of one word), or none. The server
//     tracks a connection when it accepts it and lets it go when it is
//     closed (or hijacked).
//   - The server moves the deadline when the connection moves on (a
//     request's first byte, the handler's start, the response written),
//     each one atomic store and no clock read. A deadline is set one tick
//     later than exact, since the clock may be a tick behind, so a wait
//     ends between its timeout and its timeout plus two ticks while the
//     heartbeat keeps time.
//   - One goroutine per server, the heartbeat, advances the clock every
//     tick by the time since its previous beat, one tick at most, and ends
//     the waits whose deadline has passed, with the server's end func (a
//     read deadline in the past for fasthttp, which then answers 408; a
//     close for net/http, which moves the deadlines itself and could clear
//     one). A heartbeat that ran late (a busy machine) lagged by more than
//     the tick that deadlines allow for; jumping its clock to real time
//     would end the waits set from the lagging clock before their timeout,
//     so the clock falls behind instead, and waits end late, never early.
//     It takes a wait with a compare-and-swap of the word it saw, so a
//     connection that moved on before is left alone until its new
//     deadline, and one that moves on in the same instant has its wait
//     ended, as it would with a deadline of its own.
//   - The tick is a quarter of the shortest timeout, between 10 ms and one
//     second (one second with Vireo's defaults). The heartbeat runs while
//     a Serve runs or a connection it tracks is open, so connections still
//     finishing after a shutdown keep their timeouts.
package heartbeat

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Tick bounds: the heartbeat ticks at a quarter of the shortest timeout,
// within these.
const (
	MinTick = 10 * time.Millisecond
	MaxTick = time.Second
)

// Wait is what a connection waits for; it tells the server's end func how
// to end the wait.
type Wait int64

// The waits.
const (
	None  Wait = iota // no deadline
	Read              // a request: its headers (and, on fasthttp, its body)
	Idle              // the next request
	Write             // a response

	waitBits = 2
	waitMask = 1<<waitBits - 1
	expired  = -1 // the heartbeat has taken the deadline
)

// Timeouts is the heartbeat of one server and the connections it tracks.
type Timeouts struct {
	tick  time.Duration
	start time.Time
	now   atomic.Int64 // the coarse clock: nanoseconds, at most real time since start
	last  int64        // real time since start of the previous beat (the heartbeat's own)
	end   func(net.Conn, Wait)

	mu      sync.Mutex
	conns   map[*Deadline]net.Conn
	serving int  // Serve calls running
	beating bool // the heartbeat goroutine runs
}

// New returns the heartbeat of a server with the given timeouts (those not
// positive are none); end ends a connection's wait when its deadline has
// passed. It starts no goroutine until Serve.
func New(end func(net.Conn, Wait), timeouts ...time.Duration) *Timeouts {
	t := &Timeouts{tick: MaxTick, start: time.Now(), end: end, conns: make(map[*Deadline]net.Conn)}
	for _, d := range timeouts {
		if d > 0 {
			t.tick = min(t.tick, d/4)
		}
	}
	t.tick = max(t.tick, MinTick)
	return t
}

// Tick returns the interval of the heartbeat.
func (t *Timeouts) Tick() time.Duration { return t.tick }

// Serve counts a Serve of the server and starts the heartbeat if it is not
// running; done, called when that Serve returns, lets it stop once the
// tracked connections are closed.
func (t *Timeouts) Serve() (done func()) {
	t.mu.Lock()
	t.serving++
	if !t.beating {
		t.beating = true
		go t.beat()
	}
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.serving--
		t.mu.Unlock()
	}
}

// Track starts tracking a connection accepted now with the deadline dl,
// waiting for w for d; c is the connection the end func is given.
func (t *Timeouts) Track(dl *Deadline, c net.Conn, w Wait, d time.Duration) {
	dl.t = t
	dl.Set(w, d)
	t.mu.Lock()
	t.conns[dl] = c
	t.mu.Unlock()
}

// beat is the heartbeat: it advances the clock and ends the waits past
// their deadline, until no Serve runs and no connection is left.
func (t *Timeouts) beat() {
	tk := time.NewTicker(t.tick)
	defer tk.Stop()
	t.last = int64(time.Since(t.start))
	var late []lateWait
	for range tk.C {
		var more bool
		if late, more = t.pulse(int64(time.Since(t.start)), late[:0]); !more {
			return
		}
		for i, l := range late {
			t.end(l.c, l.wait)
			late[i] = lateWait{}
		}
	}
}

// pulse is one beat at real (time since start): the clock advances by the
// time since the previous beat, one tick at most (see the package
// comment), and step ends the waits past their deadline.
func (t *Timeouts) pulse(real int64, late []lateWait) (_ []lateWait, more bool) {
	now := t.now.Load() + min(real-t.last, int64(t.tick))
	t.last = real
	return t.step(now, late)
}

// lateWait is a wait the heartbeat ends.
type lateWait struct {
	c    net.Conn
	wait Wait
}

// step sets the clock to now and appends to late the waits whose deadline
// has passed, taking them; more is false, and the heartbeat stops, when no
// Serve runs and no connection is left.
func (t *Timeouts) step(now int64, late []lateWait) (_ []lateWait, more bool) {
	t.now.Store(now)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.serving == 0 && len(t.conns) == 0 {
		t.beating = false
		return late, false
	}
	for dl, c := range t.conns {
		w := dl.at.Load()
		if w > 0 && w>>waitBits <= now && dl.at.CompareAndSwap(w, expired) {
			late = append(late, lateWait{c, Wait(w & waitMask)})
		}
	}
	return late, true
}

// Beating reports whether the heartbeat goroutine runs.
func (t *Timeouts) Beating() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.beating
}

// Deadline is a connection's deadline on the coarse clock of the
// Timeouts that track it. Its zero value, untracked, must not be Set.
type Deadline struct {
	at atomic.Int64
	t  *Timeouts
}

// Set makes the connection wait for w, for d from now, or for nothing when
// d is 0 or w is None.
func (dl *Deadline) Set(w Wait, d time.Duration) {
	if d <= 0 || w == None {
		dl.at.Store(int64(None))
		return
	}
	at := dl.t.now.Load() + int64(d) + int64(dl.t.tick)
	dl.at.Store(at<<waitBits | int64(w))
}

// Waiting reports whether the connection waits for w and the heartbeat
// has not ended that wait.
func (dl *Deadline) Waiting(w Wait) bool {
	at := dl.at.Load()
	return at > 0 && Wait(at&waitMask) == w
}

// Leave stops tracking the connection; a second Leave finds it gone.
func (dl *Deadline) Leave() {
	dl.t.mu.Lock()
	delete(dl.t.conns, dl)
	dl.t.mu.Unlock()
}
