package core

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of issue 22 item 5 run the real server on loopback with the
// rates scaled down (grace periods of a few hundred milliseconds), so that
// what takes minutes at Kestrel's 240 bytes/s after 5 s takes seconds.

// smallBuffers makes the server's socket send buffers small, so that a
// client that reads slowly or not at all blocks the server's writes after
// kilobytes instead of the megabytes loopback buffers take. The server
// sees its connections wrapped (the heartbeat's trackedConn), so the hook
// unwraps them down to the *net.TCPConn; a connection it cannot unwrap
// fails the test, since its buffers would then stay megabytes large and the
// tests using them would pass or fail for the wrong reason.
func smallBuffers(t *testing.T) func(*http.Server) {
	return func(s *http.Server) {
		s.ConnState = func(c net.Conn, st http.ConnState) {
			if st != http.StateNew {
				return
			}
			for {
				if tc, ok := c.(*net.TCPConn); ok {
					if err := tc.SetWriteBuffer(16 << 10); err != nil {
						t.Errorf("SetWriteBuffer: %v", err)
					}
					return
				}
				w, ok := c.(interface{ NetConn() net.Conn })
				if !ok {
					t.Errorf("smallBuffers: %T is not a *net.TCPConn and wraps none", c)
					return
				}
				c = w.NetConn()
			}
		}
	}
}

// dialSmall connects to addr with a small receive buffer.
func dialSmall(t *testing.T, addr string) *net.TCPConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	tc := c.(*net.TCPConn)
	tc.SetReadBuffer(16 << 10)
	t.Cleanup(func() { tc.Close() })
	return tc
}

// TestTricklingUploadsCut: 100 connections trickling a body at a few bytes
// a second are answered 408 within the grace period plus one interval of
// their trickle, instead of holding their sockets for the old ReadTimeout
// of a minute; a route whose MinRequestBodyRate is lower keeps reading.
func TestTricklingUploadsCut(t *testing.T) {
	const clients, interval = 100, 100 * time.Millisecond
	grace := 500 * time.Millisecond
	app := quietApp(WithStartupOutput(nil), WithMinRequestBodyRate(DataRate{BytesPerSecond: 1000, Grace: grace}))
	read := func(c Context) {
		if _, err := c.ReadBody(); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("read")
	}
	app.Post("/upload", read)
	app.Post("/slow-devices", MinRequestBodyRate(DataRate{BytesPerSecond: 1, Grace: 10 * time.Second}), read)
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()

	trickle := func(path string, results chan<- string, stop <-chan struct{}) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			results <- err.Error()
			return
		}
		defer c.Close()
		go func() { <-stop; c.Close() }()
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n", path)
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(interval):
					if _, err := c.Write([]byte("a")); err != nil {
						return
					}
				}
			}
		}()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			results <- "no answer: " + err.Error()
			return
		}
		results <- strings.TrimSpace(line)
	}
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	results := make(chan string, clients+1)
	for range clients {
		go trickle("/upload", results, stop)
	}
	slow := make(chan string, 1)
	go trickle("/slow-devices", slow, stop)
	for range clients {
		if got := <-results; !strings.HasPrefix(got, "HTTP/1.1 408") {
			t.Fatalf("a trickling upload got %q, want a 408", got)
		}
	}
	// Grace plus one interval, and as much again for 100 dials and the race
	// detector on a shared machine.
	if took := time.Since(start); took > 2*(grace+interval)+time.Second {
		t.Errorf("100 trickling uploads cut after %v, want about %v", took, grace+interval)
	}
	select {
	case got := <-slow:
		t.Errorf("the route with a lower minimum rate answered %q while the client was sending", got)
	default:
	}
}

// TestSteadyUploadCompletes: an upload at a steady rate well above the
// minimum completes however long it takes (here many grace periods; the
// old single ReadTimeout cut a 100 MB upload over a 1 MB/s link).
func TestSteadyUploadCompletes(t *testing.T) {
	const size, rate = 512 << 10, 256 << 10 // two seconds
	app := quietApp(WithStartupOutput(nil), WithBodyLimit(1<<20),
		WithMinRequestBodyRate(DataRate{BytesPerSecond: 16 << 10, Grace: 200 * time.Millisecond}))
	app.Post("/upload", func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(fmt.Sprint(len(b)))
	})
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()

	pr, pw := io.Pipe()
	go func() {
		chunk := make([]byte, rate/16)
		for sent := 0; sent < size; sent += len(chunk) {
			time.Sleep(time.Second / 16)
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", "http://"+addr+"/upload", pr)
	req.ContentLength = size
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(b) != fmt.Sprint(size) {
		t.Fatalf("steady upload: %d %q after %v", res.StatusCode, b, time.Since(start))
	}
}

// TestSteadyDownloadCompletes: a client reading a large response at a
// steady rate well above the minimum gets all of it, however long it
// takes (the old single write deadline cut it when it expired).
func TestSteadyDownloadCompletes(t *testing.T) {
	const size, rate = 256 << 10, 256 << 10 // a second, and more for the small window
	app := quietApp(WithStartupOutput(nil), WithMinResponseRate(DataRate{BytesPerSecond: 16 << 10, Grace: 200 * time.Millisecond}))
	handlerErr := make(chan error, 1)
	app.Get("/file", func(c Context) {
		chunk := strings.Repeat("x", 32<<10)
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := c.WriteString(chunk); err != nil {
				handlerErr <- err
				return
			}
		}
		handlerErr <- nil
	})
	addr, done := startServer(t, app, smallBuffers(t))
	defer func() { app.Shutdown(context.Background()); <-done }()

	c := dialSmall(t, addr)
	fmt.Fprintf(c, "GET /file HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	var got int
	buf := make([]byte, rate/16)
	for {
		time.Sleep(time.Second / 16)
		n, err := io.ReadFull(c, buf)
		got += n
		if err != nil {
			break
		}
	}
	if err := <-handlerErr; err != nil || got < size {
		t.Fatalf("steady download: %d of %d bytes, handler: %v", got, size, err)
	}
}

// TestStalledReaderCut: a client that stops reading a stream (server-sent
// events, flushed one by one) or a large response is cut once the buffers
// are full and the grace period has passed, and the handler ends, instead
// of being held for as long as the client stays connected.
func TestStalledReaderCut(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithMinResponseRate(DataRate{BytesPerSecond: 64 << 10, Grace: 200 * time.Millisecond}))
	var mu sync.Mutex
	ended := map[string]chan error{"/events": make(chan error, 1), "/big": make(chan error, 1)}
	end := func(path string, err error) {
		mu.Lock()
		defer mu.Unlock()
		ended[path] <- err
	}
	app.Get("/events", func(c Context) {
		c.SetContentType("text/event-stream")
		event := "data: " + strings.Repeat("e", 1<<10) + "\n\n"
		for {
			if _, err := c.WriteString(event); err != nil {
				end("/events", err)
				return
			}
			if err := http.NewResponseController(c.ResponseWriter()).Flush(); err != nil {
				end("/events", err)
				return
			}
			select {
			case <-c.Request().Context().Done():
				end("/events", c.Request().Context().Err())
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	app.Get("/big", func(c Context) {
		chunk := strings.Repeat("x", 64<<10)
		for {
			if _, err := c.WriteString(chunk); err != nil {
				end("/big", err)
				return
			}
		}
	})
	addr, done := startServer(t, app, smallBuffers(t))
	defer func() { app.Shutdown(context.Background()); <-done }()
	for path, ch := range ended {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			c := dialSmall(t, addr)
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path) // and never read
			select {
			case err := <-ch:
				if err == nil {
					t.Fatal("the handler ended without an error")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the handler is still held by a client that stopped reading")
			}
		})
	}
}

// deadlineRecorder is a ResponseRecorder that counts the read deadlines
// http.ResponseController sets through it.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	readDeadlines int
}

func (w *deadlineRecorder) SetReadDeadline(time.Time) error {
	w.readDeadlines++
	return nil
}

// TestUnreadBodyGraceOnlyOnHTTP1: a body the handler did not read gets
// the grace deadline for net/http's reading of the rest on HTTP/1 only;
// HTTP/2 reads no rest (it resets the stream), and there the deadline cost
// a message to the connection's goroutine and a timer per request, every
// HTTP/2 GET included (its Body is never http.NoBody).
func TestUnreadBodyGraceOnlyOnHTTP1(t *testing.T) {
	app := New(WithStartupOutput(nil))
	app.Post("/", func(ctx Context) { ctx.Text("ok") })
	for _, tc := range []struct {
		major, minor int
		want         int
	}{
		{1, 1, 1},
		{1, 0, 1},
		{2, 0, 0},
	} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("unread"))
		r.ProtoMajor, r.ProtoMinor = tc.major, tc.minor
		w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		app.ServeHTTP(w, r)
		if w.Code != http.StatusOK || w.readDeadlines != tc.want {
			t.Errorf("HTTP/%d.%d: status %d, %d read deadlines, want 200 and %d", tc.major, tc.minor, w.Code, w.readDeadlines, tc.want)
		}
	}
}
