package core

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/heartbeat"
)

func listenTCP(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// TestNewConnTimeouts checks where the heartbeat takes over the header and
// idle timeouts, and that it leaves the server alone elsewhere.
func TestNewConnTimeouts(t *testing.T) {
	h2c := new(http.Protocols)
	h2c.SetHTTP1(true)
	h2c.SetUnencryptedHTTP2(true)
	h1 := new(http.Protocols)
	h1.SetHTTP1(true)
	unix, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close()
	tcp := listenTCP(t)
	tlsLn := tls.NewListener(tcp, &tls.Config{})

	defaults := func(s *http.Server) {
		s.ReadHeaderTimeout, s.IdleTimeout = DefaultReadHeaderTimeout, DefaultIdleTimeout
	}
	tests := []struct {
		name         string
		ln           net.Listener
		configure    func(*http.Server)
		want         bool
		header, idle time.Duration
		tick         time.Duration
	}{
		{"defaults on TCP", tcp, defaults, true, DefaultReadHeaderTimeout, DefaultIdleTimeout, time.Second},
		{"defaults on Unix", unix, defaults, true, DefaultReadHeaderTimeout, DefaultIdleTimeout, time.Second},
		{"HTTP/1 only", tcp, func(s *http.Server) { defaults(s); s.Protocols = h1 }, true, DefaultReadHeaderTimeout, DefaultIdleTimeout, time.Second},
		{"short header timeout", tcp, func(s *http.Server) { s.ReadHeaderTimeout = 200 * time.Millisecond }, true, 200 * time.Millisecond, 0, 50 * time.Millisecond},
		{"shortest timeout sets the tick", tcp, func(s *http.Server) { s.ReadHeaderTimeout, s.IdleTimeout = 3*time.Second, 500*time.Millisecond }, true, 3 * time.Second, 500 * time.Millisecond, 125 * time.Millisecond},
		{"tick has a floor", tcp, func(s *http.Server) { s.IdleTimeout = time.Millisecond }, true, 0, time.Millisecond, heartbeat.MinTick},
		{"no timeouts", tcp, func(s *http.Server) {}, false, 0, 0, 0},
		{"ReadTimeout", tcp, func(s *http.Server) { defaults(s); s.ReadTimeout = time.Minute }, false, 0, 0, 0},
		{"WriteTimeout", tcp, func(s *http.Server) { defaults(s); s.WriteTimeout = time.Minute }, false, 0, 0, 0},
		{"h2c", tcp, func(s *http.Server) { defaults(s); s.Protocols = h2c }, false, 0, 0, 0},
		{"TLS listener", tlsLn, defaults, false, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var userCalls int
			srv := &http.Server{ConnState: func(net.Conn, http.ConnState) { userCalls++ }}
			tt.configure(srv)
			before := [2]time.Duration{srv.ReadHeaderTimeout, srv.IdleTimeout}
			ct := newConnTimeouts(srv, tt.ln)
			if (ct != nil) != tt.want {
				t.Fatalf("heartbeat %v, want %v", ct != nil, tt.want)
			}
			if ct == nil {
				if got := [2]time.Duration{srv.ReadHeaderTimeout, srv.IdleTimeout}; got != before {
					t.Fatalf("server's timeouts changed to %v without a heartbeat", got)
				}
				return
			}
			if ct.header != tt.header || ct.idle != tt.idle || ct.Tick() != tt.tick {
				t.Fatalf("header %v idle %v tick %v, want %v %v %v", ct.header, ct.idle, ct.Tick(), tt.header, tt.idle, tt.tick)
			}
			if srv.ReadHeaderTimeout != 0 || srv.IdleTimeout != 0 {
				t.Fatalf("net/http still has the timeouts: %v %v", srv.ReadHeaderTimeout, srv.IdleTimeout)
			}
			srv.ConnState(nil, http.StateNew)
			if userCalls != 1 {
				t.Fatalf("the server's own ConnState hook ran %d times, want 1", userCalls)
			}
		})
	}
}

// TestTrackedConnDeadlines checks the waits that Read and the ConnState
// hook give a connection, and that closed and hijacked connections are
// let go. (internal/heartbeat tests how the waits end.)
func TestTrackedConnDeadlines(t *testing.T) {
	var userStates []http.ConnState
	srv := &http.Server{
		ReadHeaderTimeout: time.Second,
		IdleTimeout:       time.Minute,
		ConnState:         func(_ net.Conn, st http.ConnState) { userStates = append(userStates, st) },
	}
	ct := newConnTimeouts(srv, listenTCP(t))
	hook := srv.ConnState
	a, far := net.Pipe()
	defer a.Close()
	defer far.Close()
	c := &trackedConn{connDeadlines: connDeadlines{Conn: a}, header: ct.header}
	ct.Track(&c.Deadline, a, heartbeat.Read, ct.header)
	buf := make([]byte, 8)
	read := func(s string) {
		t.Helper()
		go far.Write([]byte(s))
		if _, err := c.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	waits := func(want heartbeat.Wait, when string) {
		t.Helper()
		for _, w := range []heartbeat.Wait{heartbeat.Read, heartbeat.Idle, heartbeat.Write} {
			if c.Waiting(w) != (w == want) {
				t.Fatalf("%s: Waiting(%d) = %v, want a wait for %d", when, w, c.Waiting(w), want)
			}
		}
	}
	hook(c, http.StateNew)
	waits(heartbeat.Read, "new connection")
	read("GET")
	waits(heartbeat.Read, "the first request's bytes")
	hook(c, http.StateActive)
	waits(heartbeat.None, "handler running")
	read("body")
	waits(heartbeat.None, "a body read")
	hook(c, http.StateIdle)
	waits(heartbeat.Idle, "response written")
	read("G")
	waits(heartbeat.Read, "the next request's first byte")
	hook(c, http.StateClosed)
	if want := []http.ConnState{http.StateNew, http.StateActive, http.StateIdle, http.StateClosed}; !slices.Equal(userStates, want) {
		t.Fatalf("the server's own hook saw %v, want %v", userStates, want)
	}
	var _ io.ReaderFrom = (*trackedConn)(nil) // net/http's sendfile path
	var _ interface{ CloseWrite() error } = (*trackedConn)(nil)
	if c.NetConn() != c.Conn {
		t.Fatal("NetConn is not the wrapped connection")
	}
}

// heartbeatServer serves app with the given timeouts and returns its
// address; the heartbeat is on (plain TCP, no ReadTimeout).
func heartbeatServer(t *testing.T, app *Application, header, idle time.Duration) string {
	t.Helper()
	addr, done := startServer(t, app, func(s *http.Server) { s.ReadHeaderTimeout, s.IdleTimeout = header, idle })
	t.Cleanup(func() { app.Shutdown(context.Background()); <-done })
	return addr
}

// heartbeatConn serves an app answering GET / with the given timeouts
// (see heartbeatServer) and returns a connection to it.
func heartbeatConn(t *testing.T, header, idle time.Duration) (net.Conn, *bufio.Reader) {
	t.Helper()
	app := quietApp(WithStartupOutput(nil))
	app.Get("/", ok("hi"))
	conn, err := net.Dial("tcp", heartbeatServer(t, app, header, idle))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, bufio.NewReader(conn)
}

// roundTrip writes a GET of path on conn and reads the response.
func roundTrip(t *testing.T, conn net.Conn, br *bufio.Reader, path string) *http.Response {
	t.Helper()
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// waitClosed reads conn until it is closed and returns how long that
// took, failing if it is still open after limit.
func waitClosed(t *testing.T, conn net.Conn, br *bufio.Reader, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	conn.SetReadDeadline(start.Add(limit))
	_, err := br.ReadByte()
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("connection still open after %v", limit)
	}
	if err == nil {
		t.Fatal("server sent bytes instead of closing")
	}
	return time.Since(start)
}

// TestHeartbeatIdleTimeout checks that an idle keep-alive connection is
// kept within the idle timeout and closed after it.
func TestHeartbeatIdleTimeout(t *testing.T) {
	conn, br := heartbeatConn(t, 5*time.Second, 400*time.Millisecond)
	roundTrip(t, conn, br, "/")
	time.Sleep(100 * time.Millisecond)
	// The idle wait starts on the server once it has written the response,
	// some time before the client has read it; the request's sending is
	// the last instant the client knows to be before it, so the timeout is
	// counted from there (counted from the response read, a close right on
	// time looked early by the response's trip).
	sent := time.Now()
	if res := roundTrip(t, conn, br, "/"); res.StatusCode != 200 {
		t.Fatalf("second request on the connection: %d", res.StatusCode)
	}
	waitClosed(t, conn, br, 3*time.Second)
	if d := time.Since(sent); d < 400*time.Millisecond {
		t.Fatalf("idle connection closed after %v, before the idle timeout", d)
	}
}

// TestHeartbeatIdleIsNotHeaderTime checks that waiting for the next
// request counts against the idle timeout, not the header timeout, and
// that the next request's headers get the header timeout from their first
// byte: a client trickling them is cut.
func TestHeartbeatIdleIsNotHeaderTime(t *testing.T) {
	conn, br := heartbeatConn(t, 200*time.Millisecond, 10*time.Second)
	roundTrip(t, conn, br, "/")
	time.Sleep(600 * time.Millisecond) // three header timeouts, idle
	if res := roundTrip(t, conn, br, "/"); res.StatusCode != 200 {
		t.Fatalf("request after an idle wait: %d", res.StatusCode)
	}
	req := "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 60) + "\r\n\r\n"
	start := time.Now()
	for i := 0; i < len(req); i++ {
		if _, err := conn.Write([]byte{req[i]}); err != nil {
			break // closed: what the test wants
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitClosed(t, conn, br, 3*time.Second)
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Fatalf("closed %v after the first byte, before the header timeout", d)
	}
}

// TestHeartbeatSparesActiveAndHijacked checks that a handler running
// longer than both timeouts is not cut, nor is a hijacked connection.
func TestHeartbeatSparesActiveAndHijacked(t *testing.T) {
	app := quietApp(WithStartupOutput(nil))
	app.Get("/slow", func(c Context) {
		time.Sleep(500 * time.Millisecond)
		c.WriteString("slow")
	})
	app.Get("/hijack", func(c Context) {
		conn, brw, err := http.NewResponseController(c.ResponseWriter()).Hijack()
		if err != nil {
			c.StopWithStatus(500)
			return
		}
		go func() {
			defer conn.Close()
			time.Sleep(500 * time.Millisecond)
			brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
			brw.Flush()
		}()
	})
	addr := heartbeatServer(t, app, 100*time.Millisecond, 100*time.Millisecond)
	for _, path := range []string{"/slow", "/hijack"} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		res := roundTrip(t, conn, br, path)
		conn.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
}

// TestHeartbeatFile checks that a file goes out whole through a tracked
// connection (net/http's ReadFrom path), with the server's ConnState hook
// still called.
func TestHeartbeatFile(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	app := quietApp(WithStartupOutput(nil))
	app.Get("/f", func(c Context) { c.ServeFile(filepath.Join(dir, "f")) })
	var mu sync.Mutex
	states := map[http.ConnState]int{}
	addr, done := startServer(t, app, func(s *http.Server) {
		s.ConnState = func(_ net.Conn, st http.ConnState) { mu.Lock(); states[st]++; mu.Unlock() }
	})
	res, err := http.Get("http://" + addr + "/f")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || !bytes.Equal(body, data) {
		t.Fatalf("file: %d bytes, %v", len(body), err)
	}
	http.DefaultClient.CloseIdleConnections()
	app.Shutdown(context.Background())
	<-done
	mu.Lock()
	defer mu.Unlock()
	if states[http.StateNew] != 1 || states[http.StateActive] != 1 {
		t.Fatalf("the server's ConnState hook saw %v", states)
	}
}
