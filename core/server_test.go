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
	app.Get("/slow", func(c *Context) {
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
	var got *http.Server
	addr, done := startServer(t, app, func(s *http.Server) { got = s })
	_ = addr
	app.Shutdown(context.Background())
	<-done
	if got.ReadHeaderTimeout != DefaultReadHeaderTimeout || got.IdleTimeout != DefaultIdleTimeout || got.MaxHeaderBytes != DefaultMaxHeaderBytes {
		t.Fatalf("defaults not applied: %+v", got)
	}
}
