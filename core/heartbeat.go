// Header and idle timeouts on the heartbeat.
//
// net/http enforces ReadHeaderTimeout and IdleTimeout with read deadlines
// it moves on every request: one for the wait for the next request, one
// for its headers once their first bytes arrive, none while the handler
// runs. Each move is a clock read and a change to the runtime's timer of
// the connection: about 1,500 instructions of the suite's 38,000
// instruction simple request. Listen and Serve keep those two timeouts on
// Vireo's heartbeat instead (internal/heartbeat, which the fasthttp engine
// keeps its timeouts on too), for HTTP/1 on a TCP or Unix listener:
//
//   - the listener wraps each connection it accepts in a trackedConn with
//     its deadline, tracked until net/http reports the connection closed
//     or hijacked (a hijacked connection is its handler's, as on net/http);
//   - a new connection waits for its first request's headers: the header
//     timeout; net/http's StateActive (the headers are read, the handler
//     runs): none; StateIdle (the response is written): the idle timeout;
//     the first bytes read after that, the next request's: the header
//     timeout from then, as net/http starts it when those bytes arrive.
//     Bytes of the next request read while the handler still ran (a
//     pipelining client) count against the idle timeout, as on net/http,
//     whose idle wait then waits for the rest of the first four bytes;
//   - the heartbeat ends an expired wait by closing the connection, where
//     net/http's read would have failed at its deadline; not with a
//     deadline in the past, which net/http, clearing the read deadline
//     after the idle wait, could undo;
//   - the zero deadlines net/http still sets several times a request reach
//     the connection only where a deadline is in force (conndeadlines.go).
//
// A server with a ReadTimeout or WriteTimeout (which net/http applies on
// every request anyway), HTTP/2 (ListenTLS, h2c, WithHTTP2), another
// engine and listeners of other types keep net/http's own deadlines.

package core

import (
	"io"
	"net"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/internal/heartbeat"
)

// connTimeouts are a server's header and idle timeouts (0: none) and the
// heartbeat that keeps them.
type connTimeouts struct {
	header, idle time.Duration
	*heartbeat.Timeouts
}

// newConnTimeouts takes over srv's ReadHeaderTimeout and IdleTimeout for
// the connections accepted from ln, and returns nil where net/http's
// deadlines stay (see the file comment). It sets srv's two fields to zero
// and its ConnState to the heartbeat's hook, which calls the one srv had.
func newConnTimeouts(srv *http.Server, ln net.Listener) *connTimeouts {
	switch ln.(type) {
	case *net.TCPListener, *net.UnixListener:
	default:
		return nil
	}
	if srv.ReadTimeout != 0 || srv.WriteTimeout != 0 || srv.Protocols != nil && srv.Protocols.UnencryptedHTTP2() {
		return nil
	}
	header, idle := max(srv.ReadHeaderTimeout, 0), max(srv.IdleTimeout, 0)
	if header == 0 && idle == 0 {
		return nil
	}
	ct := &connTimeouts{header: header, idle: idle, Timeouts: heartbeat.New(closeConn, header, idle)}
	srv.ReadHeaderTimeout, srv.IdleTimeout = 0, 0
	srv.ConnState = ct.connState(srv.ConnState)
	return ct
}

// closeConn ends a connection's expired wait.
func closeConn(c net.Conn, _ heartbeat.Wait) { c.Close() }

// listener wraps ln so that the connections it accepts are tracked.
func (ct *connTimeouts) listener(ln net.Listener) net.Listener {
	return &trackedListener{Listener: ln, ct: ct}
}

// connState is the server's ConnState hook: it moves the deadline of a
// tracked connection as net/http reports its state, and lets closed and
// hijacked ones go; then it calls user.
func (ct *connTimeouts) connState(user func(net.Conn, http.ConnState)) func(net.Conn, http.ConnState) {
	return func(nc net.Conn, st http.ConnState) {
		if c, ok := nc.(*trackedConn); ok {
			switch st {
			case http.StateActive:
				c.Set(heartbeat.None, 0)
			case http.StateIdle:
				c.Set(heartbeat.Idle, ct.idle)
			case http.StateClosed, http.StateHijacked:
				c.Leave()
			}
		}
		if user != nil {
			user(nc, st)
		}
	}
}

// trackedListener is a listener whose connections a heartbeat tracks.
type trackedListener struct {
	net.Listener
	ct *connTimeouts
}

// Accept tracks the connection it returns, waiting for its first
// request's headers.
func (l *trackedListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &trackedConn{connDeadlines: connDeadlines{Conn: nc}, header: l.ct.header}
	l.ct.Track(&c.Deadline, nc, heartbeat.Read, l.ct.header)
	return c, nil
}

// trackedConn is an accepted connection with its deadline (the
// heartbeat's wait), which passes on only the deadline calls that change
// something (conndeadlines.go). It keeps what net/http asks of a
// *net.TCPConn: ReadFrom (sendfile) and CloseWrite; NetConn (of
// connDeadlines) returns the connection it wraps.
type trackedConn struct {
	connDeadlines // the wrapped connection, without its no-op deadline calls
	heartbeat.Deadline
	header time.Duration
}

// Read reads from the connection; the first bytes after the idle wait
// start the header timeout.
func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.Waiting(heartbeat.Idle) {
		c.Set(heartbeat.Read, c.header)
	}
	return n, err
}

// ReadFrom is the wrapped connection's, so that net/http's sendfile path
// stays.
func (c *trackedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// CloseWrite shuts down the writing side, where the wrapped connection
// can.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
