// Accepted connections and what the engine keeps for each.
//
// The listener of a Serve wraps every connection it accepts (conn, or
// tlsConn for a *tls.Conn, so that fasthttp still recognises TLS) with the
// engine's state of that connection, link: the deadline the heartbeat
// watches (timeouts.go, internal/heartbeat) and the exchange that serves the connection's
// requests. fasthttp serves a connection's requests one after another on
// one goroutine and keeps its RequestCtx for the whole connection; the
// engine does the same with its exchange, which it takes from the
// server's pool at the connection's first request and puts back when
// fasthttp reports the connection closed (StateClosed, on that same
// goroutine, after the last request). So a keep-alive request costs no
// pool round trip, and an idle connection holds one exchange as it holds
// one RequestCtx.
//
// fasthttp reports the connection's states to connState, which moves the
// deadline: the read timeout when a request's first byte arrives
// (StateActive), the idle timeout once its response is written
// (StateIdle).
package fast

import (
	"crypto/tls"
	"net"

	"github.com/valyala/fasthttp"

	"github.com/vireo-go/vireo/internal/heartbeat"
)

// link is the engine's state of one accepted connection.
type link struct {
	heartbeat.Deadline
	x *exchange // the exchange serving the connection's requests, from its first
}

// conn is an accepted connection with its link.
type conn struct {
	net.Conn
	link
}

func (c *conn) Close() error {
	c.Leave()
	return c.Conn.Close()
}

// tlsConn is conn for a *tls.Conn: it keeps tls.Conn's methods, by which
// fasthttp recognises TLS.
type tlsConn struct {
	*tls.Conn
	link
}

func (c *tlsConn) Close() error {
	c.Leave()
	return c.Conn.Close()
}

// linkOf returns the link of a connection the listener accepted, or nil
// for another.
func linkOf(c net.Conn) *link {
	if c, ok := c.(*conn); ok { // two assertions rather than a type switch: inlined
		return &c.link
	}
	if c, ok := c.(*tlsConn); ok {
		return &c.link
	}
	return nil
}

// listener wraps the accepted connections of a Serve.
type listener struct {
	net.Listener
	t *timeouts
}

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	// The heartbeat ends a wait on the raw connection: tls.Conn's
	// deadlines are its connection's.
	var w net.Conn
	var ln *link
	raw := c
	if tc, ok := c.(*tls.Conn); ok {
		x := &tlsConn{Conn: tc}
		w, ln, raw = x, &x.link, tc.NetConn()
	} else {
		x := &conn{Conn: c}
		w, ln = x, &x.link
	}
	l.t.Track(&ln.Deadline, raw, heartbeat.Read, l.t.read)
	return w, nil
}

// connState returns fasthttp's ConnState hook: it follows the state
// changes of a connection, moving the deadline of what it waits for next
// and giving the exchange back when the connection is closed. (A func
// literal, not the method value s.method, which would add a call.)
func (s *server) connState() func(net.Conn, fasthttp.ConnState) {
	return func(c net.Conn, st fasthttp.ConnState) {
		ln := linkOf(c)
		if ln == nil {
			return
		}
		switch st {
		case fasthttp.StateActive:
			ln.Set(heartbeat.Read, s.timeouts.read)
		case fasthttp.StateIdle:
			ln.Set(heartbeat.Idle, s.timeouts.idle)
		case fasthttp.StateClosed:
			if x := ln.x; x != nil {
				ln.x = nil
				s.pool.Put(x)
			}
		}
	}
}
