// Connection timeouts on the heartbeat.
//
// fasthttp enforces its ReadTimeout, WriteTimeout and IdleTimeout with the
// connection's deadlines, moved for every request: a keep-alive request
// sets the read deadline twice (the idle wait, then the read) and the
// write deadline once, each a clock read and a change to the runtime's
// timer of the connection, about 1,800 of the engine's instructions per
// request on the suite's simple app. The engine therefore gives fasthttp
// no timeouts and keeps them on Vireo's heartbeat (internal/heartbeat, the
// one core keeps net/http's header and idle timeouts on), as Kestrel does:
//
//   - Every connection the listener accepts is wrapped with its deadline
//     (conn.go) and tracked by the server's heartbeat until it is closed.
//   - A request moves the deadline four times, each one atomic store and
//     no clock read: the first byte of a request arrives (fasthttp's
//     StateActive): the read timeout, which bounds the headers and the
//     body, as fasthttp's ReadTimeout did; the handler starts: none (a
//     handler runs as long as it needs, as on net/http without a
//     WriteTimeout); the handler returns: the write timeout, for the
//     response fasthttp then writes; the response is written (StateIdle):
//     the idle timeout. A new connection starts with the read timeout.
//   - The heartbeat ends a wait whose deadline has passed by setting the
//     connection's read deadline (or write deadline, for a response) in
//     the past: the blocked call fails with a timeout, and fasthttp
//     handles it as it handled its own deadlines: 408 Request Timeout and
//     close for a request that did not arrive whole in time, close for an
//     idle connection and for a response the client does not read.
//     fasthttp never moves the deadlines itself, so none clears it.
package fast

import (
	"net"
	"time"

	"github.com/vireo-go/vireo/internal/heartbeat"
)

// timeouts are the timeouts of one server (0: none) and the heartbeat
// that keeps them.
type timeouts struct {
	read, write, idle time.Duration
	*heartbeat.Timeouts
}

func newTimeouts(read, write, idle time.Duration) *timeouts {
	read, write, idle = max(read, 0), max(write, 0), max(idle, 0)
	return &timeouts{read, write, idle, heartbeat.New(endWait, read, write, idle)}
}

// endWait ends a connection's wait with a deadline in the past, which
// fails the blocked read or write with a timeout.
func endWait(c net.Conn, w heartbeat.Wait) {
	past := time.Unix(1, 0)
	if w == heartbeat.Write {
		_ = c.SetWriteDeadline(past)
	} else {
		_ = c.SetReadDeadline(past)
	}
}

// serve wraps ln for a Serve and starts the heartbeat if it is not
// running; done, called when that Serve returns, lets it stop once the
// connections are closed.
func (t *timeouts) serve(ln net.Listener) (wrapped net.Listener, done func()) {
	return listener{Listener: ln, t: t}, t.Serve()
}
