package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer serves app on a free loopback port and returns its address
// and a channel with Serve's result.
func startServer(t *testing.T, app *Application, configure ...func(*http.Server)) (string, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Serve(ln, configure...) }()
	// Wait until Serve has registered its server, so Shutdown reaches it.
	for i := 0; ; i++ {
		app.serverMu.Lock()
		running := app.server != nil
		app.serverMu.Unlock()
		if running || i > 500 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	return ln.Addr().String(), done
}

func TestGracefulShutdown(t *testing.T) {
	out := &syncBuffer{}
	app := quietApp(WithStartupOutput(out))
	started := make(chan struct{}, 10)
	app.Get("/slow", func(c Context) {
		started <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		c.WriteString("finished")
	})
	hooked := make(chan struct{})
	app.OnShutdown(func() { close(hooked) })
	addr, done := startServer(t, app)

	const inFlight = 5
	var wg sync.WaitGroup
	errs := make(chan error, inFlight)
	for i := 0; i < inFlight; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Get("http://" + addr + "/slow")
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if string(b) != "finished" {
				errs <- io.ErrUnexpectedEOF
			}
		}()
	}
	for i := 0; i < inFlight; i++ {
		<-started
	}
	if err := app.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("in-flight request failed: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v", err)
	}
	<-hooked
	want := "Now listening on: http://" + addr + "\nApplication started. Press CTRL+C to shut down.\n"
	if out.String() != want {
		t.Fatalf("startup output %q, want %q", out.String(), want)
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Fatal("still accepting after shutdown")
	}
}

func TestSlowHeaderClientDropped(t *testing.T) {
	app := quietApp(WithStartupOutput(nil))
	app.Get("/", ok("hi"))
	addr, done := startServer(t, app, func(s *http.Server) { s.ReadHeaderTimeout = 200 * time.Millisecond })
	defer func() { app.Shutdown(context.Background()); <-done }()

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// One byte at a time, slower than the timeout allows in total.
	req := "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 50) + "\r\n\r\n"
	var werr error
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; i < len(req) && time.Now().Before(deadline); i++ {
		if _, werr = conn.Write([]byte{req[i]}); werr != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	b, err := io.ReadAll(conn)
	if strings.Contains(string(b), "200 OK") {
		t.Fatalf("slow client was served: %q", b)
	}
	if werr == nil && err != nil && !strings.Contains(err.Error(), "reset") {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("connection still open after ReadHeaderTimeout")
		}
	}
}

func TestListenRefusesErrors(t *testing.T) {
	app := quietApp()
	app.Get("bad", ok("x"))
	if err := app.Listen("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("Listen with registration errors: %v", err)
	}
}

func TestServerDefaults(t *testing.T) {
	app := quietApp(WithStartupOutput(nil))
	var got http.Server // the fields the configure funcs see (the heartbeat takes over two of them after)
	addr, done := startServer(t, app, func(s *http.Server) {
		got.ReadHeaderTimeout, got.IdleTimeout, got.MaxHeaderBytes = s.ReadHeaderTimeout, s.IdleTimeout, s.MaxHeaderBytes
		got.ReadTimeout, got.WriteTimeout = s.ReadTimeout, s.WriteTimeout
	})
	_ = addr
	app.Shutdown(context.Background())
	<-done
	if got.ReadHeaderTimeout != DefaultReadHeaderTimeout || got.IdleTimeout != DefaultIdleTimeout || got.MaxHeaderBytes != DefaultMaxHeaderBytes {
		t.Fatalf("defaults not applied: header %v, idle %v, max header bytes %d", got.ReadHeaderTimeout, got.IdleTimeout, got.MaxHeaderBytes)
	}
	// Issue 12 item 4, issue 22 item 5: a body and a response are bounded,
	// by rate, not by one deadline for the whole request.
	if got.ReadTimeout != 0 || got.WriteTimeout != 0 || app.readRate != defaultDataRate || app.writeRate != defaultDataRate ||
		defaultDataRate.BytesPerSecond != 240 || defaultDataRate.Grace != 5*time.Second {
		t.Fatalf("body and response bounds: ReadTimeout %v, WriteTimeout %v, rates %+v %+v", got.ReadTimeout, got.WriteTimeout, app.readRate, app.writeRate)
	}
}

// TestBodyDeadline checks that a request announcing more body than it
// sends is answered 408 when it falls behind the minimum rate, instead of
// holding the connection forever, and that a handler can set its own
// deadlines instead.
func TestBodyDeadline(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithMinRequestBodyRate(DataRate{BytesPerSecond: 1000, Grace: 300 * time.Millisecond}))
	app.Post("/upload", func(c Context) {
		if _, err := c.ReadBody(); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("read")
	})
	app.Post("/long", func(c Context) {
		rc := http.NewResponseController(c.ResponseWriter())
		if err := rc.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
			c.StopWithError(err)
			return
		}
		if err := rc.SetWriteDeadline(time.Time{}); err != nil {
			c.StopWithError(err)
			return
		}
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("read " + strconv.Itoa(len(b)))
	})
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()

	send := func(path string, pause time.Duration) (string, time.Duration) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 1000000\r\n\r\n%s", path, strings.Repeat("a", 50))
		if pause > 0 {
			time.Sleep(pause)
			conn.Write([]byte(strings.Repeat("b", 1000000-50)))
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(conn)
		return string(b), time.Since(start)
	}
	if res, took := send("/upload", 0); !strings.HasPrefix(res, "HTTP/1.1 408") || took > 3*time.Second {
		t.Errorf("short body: answered %q after %v, want a 408 after the grace period", firstLine(res), took)
	}
	if res, _ := send("/long", 600*time.Millisecond); !strings.HasPrefix(res, "HTTP/1.1 200") || !strings.Contains(res, "read 1000000") {
		t.Errorf("extended deadline: %q, want the whole body read", firstLine(res))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\r\n")
	return line
}

// TestWriteDeadline checks that a client that stops reading a large
// response cannot hold the handler (issue 12 item 4), and that the
// deadline armed for a large response does not outlive it on a keep-alive
// connection.
func TestWriteDeadline(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithMinResponseRate(DataRate{BytesPerSecond: 64 << 10, Grace: time.Second}))
	writeErr := make(chan error, 1)
	chunk := strings.Repeat("x", 64<<10)
	app.Get("/big", func(c Context) {
		for i := 0; i < 1024; i++ { // 64 MiB, far more than the buffers hold
			if _, err := c.WriteString(chunk); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	})
	app.Get("/medium", func(c Context) { c.WriteString(strings.Repeat("m", 100<<10)) })
	app.Get("/small", ok("small"))
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-writeErr:
		if err == nil {
			t.Fatal("64 MiB written to a client that reads nothing")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler is still blocked on a client that stopped reading")
	}

	// Keep-alive: a large response, a pause longer than the timeout, then
	// a small one on the same connection.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	get := func(path string) string {
		res, err := client.Get("http://" + addr + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return string(b)
	}
	if b := get("/medium"); len(b) != 100<<10 {
		t.Fatalf("medium: %d bytes", len(b))
	}
	time.Sleep(1300 * time.Millisecond)
	if b := get("/small"); b != "small" {
		t.Fatalf("small after a pause on the same connection: %q", b)
	}
}
