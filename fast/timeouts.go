// Connection timeouts on a heartbeat.
//
// fasthttp enforces its ReadTimeout, WriteTimeout and IdleTimeout with the
// connection's deadlines, moved for every request: a keep-alive request
// sets the read deadline twice (the idle wait, then the read) and the
// write deadline once, each a clock read and a change to the runtime's
// timer of the connection, about 1,800 of the engine's instructions per
// request on the suite's simple app. The engine therefore gives fasthttp
// no timeouts and keeps them itself, as Kestrel does with its heartbeat:
//
//   - Every connection the listener accepts is wrapped with its deadline
//     (conn.go): the moment on the server's coarse clock by which it must
//     be done with what it waits for, or 0 for none. The wrapper registers
//     itself in the server's set when accepted and leaves it when closed.
//   - A request moves the deadline four times, each one atomic store and
//     no clock read: the first byte of a request arrives (fasthttp's
//     StateActive): the read timeout, which bounds the headers and the
//     body, as fasthttp's ReadTimeout did; the handler starts: none (a
//     handler runs as long as it needs, as on net/http without a
//     WriteTimeout); the handler returns: the write timeout, for the
//     response fasthttp then writes; the response is written (StateIdle):
//     the idle timeout. A new connection starts with the read timeout.
//   - One goroutine per Serve, the heartbeat, advances the clock every tick
//     and ends the waits whose deadline has passed by setting the
//     connection's read deadline (or write deadline, for a response) in
//     the past: the blocked call fails with a timeout, and fasthttp
//     handles it as it handled its own deadlines: 408 Request Timeout and
//     close for a request that did not arrive whole in time, close for an
//     idle connection and for a response the client does not read. The
//     deadline word also says which wait it is (the low two bits). A
//     deadline is
//     set one tick later than exact, since the clock may be a tick behind,
//     so a connection is closed between its timeout and its timeout plus
//     two ticks. The tick is a quarter of the shortest timeout, between
//     10 ms and one second (one second with the application's defaults).
//   - The heartbeat takes a wait with a compare-and-swap of the deadline
//     it saw, so a connection that moved on before (its next request
//     arrived) is left alone until its new deadline; one that moves on in
//     the instant between gets the timeout, as with a deadline of its own. It stops when
//     Serve has returned and its last connection is closed, so the
//     connections still finishing after Shutdown keep their timeouts.
package fast

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Tick bounds: the heartbeat ticks at a quarter of the shortest timeout,
// within these.
const (
	minTick = 10 * time.Millisecond
	maxTick = time.Second
)

// A deadline word holds the moment (nanoseconds on the coarse clock) in
// its upper bits and what the connection waits for in the lower two,
// which says how the heartbeat ends the wait.
const (
	waitNone  = iota // no deadline
	waitRead         // a request: the read fails, fasthttp answers 408 and closes
	waitIdle         // the next request: the read fails, fasthttp closes
	waitWrite        // a response: the write fails, fasthttp closes

	waitBits = 2
	expired  = -1 // the heartbeat has taken the deadline
)

// timeouts are the timeouts of one server and the connections they apply
// to. Durations of 0 mean none.
type timeouts struct {
	read, write, idle time.Duration
	tick              time.Duration
	start             time.Time
	now               atomic.Int64 // the coarse clock: nanoseconds since start

	mu      sync.Mutex
	conns   map[*deadline]net.Conn // the raw connection of each
	serving int                    // Serve calls running
	beating bool                   // the heartbeat goroutine runs
}

func newTimeouts(read, write, idle time.Duration) *timeouts {
	t := &timeouts{read: max(read, 0), write: max(write, 0), idle: max(idle, 0), start: time.Now()}
	t.tick = maxTick
	for _, d := range []time.Duration{t.read, t.write, t.idle} {
		if d > 0 {
			t.tick = min(t.tick, d/4)
		}
	}
	t.tick = max(t.tick, minTick)
	t.conns = make(map[*deadline]net.Conn)
	return t
}

// deadline is a connection's deadline on the coarse clock of its
// timeouts.
type deadline struct {
	at atomic.Int64
	t  *timeouts
}

// leave takes the connection out of its timeouts' set when it is closed;
// a second Close finds it gone.
func (dl *deadline) leave() { dl.t.remove(dl) }

// set makes the deadline of a wait d from now, or none for d == 0.
func (dl *deadline) set(wait int64, d time.Duration) {
	if d == 0 {
		dl.at.Store(waitNone)
		return
	}
	at := dl.t.now.Load() + int64(d) + int64(dl.t.tick)
	dl.at.Store(at<<waitBits | wait)
}

func (t *timeouts) add(dl *deadline, c net.Conn) {
	t.mu.Lock()
	t.conns[dl] = c
	t.mu.Unlock()
}

func (t *timeouts) remove(dl *deadline) {
	t.mu.Lock()
	delete(t.conns, dl)
	t.mu.Unlock()
}

// serve wraps ln for a Serve and starts the heartbeat if it is not
// running; done, called when that Serve returns, lets it stop once the
// connections are closed.
func (t *timeouts) serve(ln net.Listener) (wrapped net.Listener, done func()) {
	t.mu.Lock()
	t.serving++
	if !t.beating {
		t.beating = true
		go t.beat()
	}
	t.mu.Unlock()
	return listener{Listener: ln, t: t}, func() {
		t.mu.Lock()
		t.serving--
		t.mu.Unlock()
	}
}

// beat is the heartbeat: it advances the clock and closes the connections
// past their deadline, until no Serve runs and no connection is left.
func (t *timeouts) beat() {
	tk := time.NewTicker(t.tick)
	defer tk.Stop()
	type wait struct {
		c    net.Conn
		wait int64
	}
	var late []wait
	for range tk.C {
		now := int64(time.Since(t.start))
		t.now.Store(now)
		late = late[:0]
		t.mu.Lock()
		if t.serving == 0 && len(t.conns) == 0 {
			t.beating = false
			t.mu.Unlock()
			return
		}
		for dl, c := range t.conns {
			w := dl.at.Load()
			if w > 0 && w>>waitBits <= now && dl.at.CompareAndSwap(w, expired) {
				late = append(late, wait{c, w & (1<<waitBits - 1)})
			}
		}
		t.mu.Unlock()
		// A deadline in the past ends the blocked call with a timeout, and
		// fasthttp handles it as it handles its own deadlines.
		past := time.Unix(1, 0)
		for _, l := range late {
			if l.wait == waitWrite {
				_ = l.c.SetWriteDeadline(past)
			} else {
				_ = l.c.SetReadDeadline(past)
			}
		}
	}
}
