package core

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingConn records the deadline calls that reach it: "read 0",
// "write later", "both 0" and so on.
type recordingConn struct {
	net.Conn
	mu    sync.Mutex
	calls []string
}

func (c *recordingConn) record(call string) {
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
}

func (c *recordingConn) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

func deadlineWord(t time.Time) string {
	if t.IsZero() {
		return "0"
	}
	return "later"
}

func (c *recordingConn) Close() error {
	c.record("close")
	return c.Conn.Close()
}

func (c *recordingConn) SetReadDeadline(t time.Time) error {
	c.record("read " + deadlineWord(t))
	return c.Conn.SetReadDeadline(t)
}

func (c *recordingConn) SetWriteDeadline(t time.Time) error {
	c.record("write " + deadlineWord(t))
	return c.Conn.SetWriteDeadline(t)
}

func (c *recordingConn) SetDeadline(t time.Time) error {
	c.record("both " + deadlineWord(t))
	return c.Conn.SetDeadline(t)
}

// TestConnDeadlinesPassOnlyChanges runs sequences of deadline calls on a
// connDeadlines and checks which of them reach the wrapped connection:
// a zero deadline only where one may be in force, everything else as it
// came.
func TestConnDeadlinesPassOnlyChanges(t *testing.T) {
	later := time.Now().Add(time.Hour)
	tests := []struct {
		name  string
		calls []string // read|write|both, 0|later
		want  []string // the calls that reach the wrapped connection
	}{
		{"zeros on a new connection", []string{"read 0", "write 0", "both 0"}, nil},
		{"a read deadline, cleared once", []string{"read later", "read 0", "read 0"}, []string{"read later", "read 0"}},
		{"net/http's request", []string{"read 0", "read 0", "read later", "read 0", "write 0", "read 0", "read 0"}, []string{"read later", "read 0"}},
		{"directions apart", []string{"write later", "read 0", "write 0", "write 0"}, []string{"write later", "write 0"}},
		{"both cleared by one", []string{"write later", "both 0", "read 0", "write 0"}, []string{"write later", "both 0"}},
		{"both set, cleared apart", []string{"both later", "read 0", "read 0", "write 0", "both 0"}, []string{"both later", "read 0", "write 0"}},
		{"non-zero calls always pass", []string{"read later", "read later", "write later", "both later"}, []string{"read later", "read later", "write later", "both later"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			defer b.Close()
			rec := &recordingConn{Conn: a}
			c := &connDeadlines{Conn: rec}
			for _, call := range tt.calls {
				dir, when, _ := strings.Cut(call, " ")
				d := time.Time{}
				if when == "later" {
					d = later
				}
				var err error
				switch dir {
				case "read":
					err = c.SetReadDeadline(d)
				case "write":
					err = c.SetWriteDeadline(d)
				case "both":
					err = c.SetDeadline(d)
				}
				if err != nil {
					t.Fatalf("%s: %v", call, err)
				}
			}
			if got := rec.recorded(); !slices.Equal(got, tt.want) {
				t.Errorf("the wrapped connection saw %q, want %q", got, tt.want)
			}
		})
	}
}

// TestConnDeadlinesAfterClose checks that after Close a zero deadline
// reaches the wrapped connection and reports it closed, as the wrapped
// connection itself would.
func TestConnDeadlinesAfterClose(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	c := &connDeadlines{Conn: a}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for name, set := range map[string]func(time.Time) error{
		"SetReadDeadline": c.SetReadDeadline, "SetWriteDeadline": c.SetWriteDeadline, "SetDeadline": c.SetDeadline,
	} {
		if err := set(time.Time{}); !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("%s(zero) after Close = %v, want the wrapped connection's %v", name, err, io.ErrClosedPipe)
		}
	}
}

// TestBodyDeadlineClearedForNextRequest: a request whose body was read
// under a data-rate read deadline, answered after that deadline has
// passed, leaves its connection usable: the zero deadline net/http sets
// after the body reaches the connection, so neither net/http's background
// read nor the next request's read fails at the body's deadline. (A
// connDeadlines that dropped every zero deadline fails here.)
func TestBodyDeadlineClearedForNextRequest(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithMinRequestBodyRate(DataRate{BytesPerSecond: 1 << 20, Grace: 100 * time.Millisecond}))
	app.Post("/upload", func(c Context) {
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			c.StopWithError(err)
			return
		}
		time.Sleep(300 * time.Millisecond) // past the body's read deadline
		c.WriteString(fmt.Sprint(len(body)))
	})
	app.Get("/", ok("hi"))
	conn, err := net.Dial("tcp", heartbeatServer(t, app, time.Second, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for i := range 3 {
		if _, err := io.WriteString(conn, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("upload %d: %v", i, err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || string(got) != "5" || res.Close {
			t.Fatalf("upload %d: %d %q, close %v", i, res.StatusCode, got, res.Close)
		}
		time.Sleep(200 * time.Millisecond) // idle past the body's deadline too
		if res := roundTrip(t, conn, br, "/"); res.StatusCode != http.StatusOK {
			t.Fatalf("request after upload %d: %d", i, res.StatusCode)
		}
	}
}

// TestTrackedConnKeepAliveAndPipelining serves keep-alive and pipelined
// requests through tracked connections whose wrapped connections record
// the deadline calls: every request is answered, and until the
// connection is closed no zero deadline reaches it while it has none in
// force.
func TestTrackedConnKeepAliveAndPipelining(t *testing.T) {
	app := quietApp(WithStartupOutput(nil))
	app.Get("/", ok("hi"))
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: app, ReadHeaderTimeout: time.Second, IdleTimeout: time.Minute}
	tcp := listenTCP(t)
	ct := newConnTimeouts(srv, tcp)
	if ct == nil {
		t.Fatal("no heartbeat on a TCP listener")
	}
	conns := make(chan *recordingConn, 4)
	ln := ct.listener(acceptFunc{tcp, func(c net.Conn) net.Conn {
		rc := &recordingConn{Conn: c}
		conns <- rc
		return rc
	}})
	stop := ct.Serve()
	defer stop()
	go srv.Serve(ln)
	defer srv.Close()

	conn, err := net.Dial("tcp", tcp.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for i := range 20 {
		if res := roundTrip(t, conn, br, "/"); res.StatusCode != http.StatusOK {
			t.Fatalf("keep-alive request %d: %d", i, res.StatusCode)
		}
	}
	// Ten requests in one write: net/http's background read finds the
	// next request's bytes instead of waiting.
	if _, err := io.WriteString(conn, strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 10)); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("pipelined request %d: %v", i, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("pipelined request %d: %d", i, res.StatusCode)
		}
	}
	conn.Close()
	srv.Close()
	calls := (<-conns).recorded()
	if i := slices.Index(calls, "close"); i >= 0 {
		calls = calls[:i] // after Close every call goes through
	}
	if !slices.Contains(calls, "read later") {
		// net/http ends each request's background read with a read
		// deadline in the past, which must reach the connection.
		t.Fatalf("no read deadline reached the connection: %q", calls)
	}
	read, write := false, false
	for i, call := range calls {
		switch call {
		case "read 0":
			if !read {
				t.Errorf("call %d: a zero read deadline reached a connection without one (%q)", i, calls)
			}
			read = false
		case "write 0":
			if !write {
				t.Errorf("call %d: a zero write deadline reached a connection without one", i)
			}
			write = false
		case "read later":
			read = true
		case "write later":
			write = true
		}
	}
}

// acceptFunc is a listener whose accepted connections wrap passes
// through.
type acceptFunc struct {
	net.Listener
	wrap func(net.Conn) net.Conn
}

func (l acceptFunc) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.wrap(c), nil
}

// TestConnDeadlinesAfterNetConn: once NetConn has handed the wrapped
// connection out, a deadline set on it directly is cleared by a zero
// deadline through the wrapper, which then goes through.
func TestConnDeadlinesAfterNetConn(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	rec := &recordingConn{Conn: a}
	c := &connDeadlines{Conn: rec}
	raw := c.NetConn()
	if raw != net.Conn(rec) {
		t.Fatal("NetConn is not the wrapped connection")
	}
	raw.SetReadDeadline(time.Now().Add(-time.Second)) // behind the wrapper's back
	if err := c.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := c.SetWriteDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got, want := rec.recorded(), []string{"read later", "read 0", "write 0"}; !slices.Equal(got, want) {
		t.Fatalf("the wrapped connection saw %q, want %q", got, want)
	}
	go b.Write([]byte("x"))
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Fatalf("Read after the deadline was cleared: %v", err)
	}
}
