// Deadline calls that change nothing.
//
// net/http moves a connection's deadlines several times a request even
// where the server has no timeouts of its own. On a keep-alive HTTP/1
// request served with Vireo's defaults (header and idle timeouts on the
// heartbeat, no ReadTimeout or WriteTimeout) it calls SetReadDeadline six
// times and SetWriteDeadline once, and five of the seven set a zero
// deadline on a connection that has none: at the start of the background
// read, twice while reading the request, after the response (the write
// deadline) and before the idle wait. Only abortPendingRead's two change
// anything: a deadline in the past that ends the background read, and the
// zero deadline after it. Each call costs about 300 instructions (the
// descriptor's reference count, the runtime poller's lock and timer), so
// the five came to some 1,500 instructions of a 50,000-instruction
// plaintext request.
//
// connDeadlines therefore remembers, for each direction, whether a
// deadline may be in force on the wrapped connection, and passes a zero
// deadline on only where one may be. Every other call goes through as it
// came, so the wrapped connection's deadlines are always what the last
// call asked for. A hijacked connection's reader and writer, or a
// handler's goroutine with http.ResponseController, may set deadlines
// while net/http does, so the calls that go through are ordered by a
// mutex, and each marks its direction as maybe set before it calls the
// wrapped connection and clears the mark only after a zero deadline
// went through without error. A zero call that finds no mark returns at
// once, without the mutex: while the mark is clear the wrapped connection
// has no deadline, and a call setting one has not begun. After Close every
// call goes through, so that it reports the closed connection as the
// wrapped one does, and so it does once NetConn has handed the wrapped
// connection out, whose deadlines its holder may then set without passing
// here.

package core

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// connDeadlines is the deadline half of a trackedConn: the wrapped
// connection and whether a read or write deadline may be set on it.
type connDeadlines struct {
	net.Conn
	mu          sync.Mutex  // orders the calls that go through
	read, write atomic.Bool // a deadline may be in force
	all         bool        // under mu: every call goes through (after Close or NetConn)
}

// SetReadDeadline sets the read deadline of the wrapped connection, unless
// t is zero and it has none.
func (c *connDeadlines) SetReadDeadline(t time.Time) error {
	if t.IsZero() && !c.read.Load() {
		return nil
	}
	return c.pass(t, c.Conn.SetReadDeadline, &c.read, nil)
}

// SetWriteDeadline sets the write deadline of the wrapped connection,
// unless t is zero and it has none.
func (c *connDeadlines) SetWriteDeadline(t time.Time) error {
	if t.IsZero() && !c.write.Load() {
		return nil
	}
	return c.pass(t, c.Conn.SetWriteDeadline, &c.write, nil)
}

// SetDeadline sets both deadlines of the wrapped connection, unless t is
// zero and it has neither.
func (c *connDeadlines) SetDeadline(t time.Time) error {
	if t.IsZero() && !c.read.Load() && !c.write.Load() {
		return nil
	}
	return c.pass(t, c.Conn.SetDeadline, &c.read, &c.write)
}

// pass makes a deadline call that goes through: under the mutex it marks
// the directions (b may be nil) as maybe set, calls set, and clears the
// marks when a zero deadline went through without error.
func (c *connDeadlines) pass(t time.Time, set func(time.Time) error, a, b *atomic.Bool) error {
	c.mu.Lock()
	a.Store(true)
	if b != nil {
		b.Store(true)
	}
	err := set(t)
	if t.IsZero() && err == nil && !c.all {
		a.Store(false)
		if b != nil {
			b.Store(false)
		}
	}
	c.mu.Unlock()
	return err
}

// Close closes the wrapped connection; every deadline call after it goes
// through to report that.
func (c *connDeadlines) Close() error {
	c.passAll()
	return c.Conn.Close()
}

// NetConn returns the wrapped connection, as tls.Conn's does, for code
// that needs the *net.TCPConn (of a hijacked connection, say). Its holder
// may set deadlines on it directly, so every call goes through from then
// on.
func (c *connDeadlines) NetConn() net.Conn {
	c.passAll()
	return c.Conn
}

// passAll makes every deadline call go through from now on.
func (c *connDeadlines) passAll() {
	c.mu.Lock()
	c.all = true
	c.read.Store(true)
	c.write.Store(true)
	c.mu.Unlock()
}
