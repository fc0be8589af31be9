package h2

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// startServer serves h over TLS through Vireo's HTTP/2 path (own=true) or
// net/http's.
func startServer(t testing.TB, h http.Handler, own bool, opts ...Option) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	ts.EnableHTTP2 = true
	if own {
		if err := MustNew(opts...).ConfigureServer(ts.Config); err != nil {
			t.Fatal(err)
		}
	}
	ts.StartTLS()
	t.Cleanup(ts.Close)
	return ts
}

func echoHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello")
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		n, _ := io.Copy(w, r.Body)
		w.Header().Set("X-Sum", fmt.Sprint(n))
		if v := r.Trailer.Get("X-Client"); v != "" {
			w.Header().Set(http.TrailerPrefix+"X-Client-Echo", v)
		}
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "chunk %d\n", i)
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("x"), 300_000))
	})
	mux.HandleFunc("/push", func(w http.ResponseWriter, r *http.Request) {
		p, ok := w.(http.Pusher)
		if !ok || p.Push("/hello", nil) != http.ErrNotSupported {
			http.Error(w, "push not refused", 500)
			return
		}
		io.WriteString(w, "no push")
	})
	mux.HandleFunc("/panic", func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })
	return mux
}

func TestServe(t *testing.T) {
	ts := startServer(t, echoHandler(), true)
	client := ts.Client()
	tests := []struct {
		name, method, path, body string
		trailer                  http.Header
		status                   int
		want                     string
		wantTrailer              map[string]string
	}{
		{"get", "GET", "/hello", "", nil, 200, "hello", nil},
		{"not found", "GET", "/nope", "", nil, 404, "404 page not found\n", nil},
		{"head", "HEAD", "/hello", "", nil, 200, "", nil},
		{"echo body and trailers", "POST", "/echo", strings.Repeat("abc", 100_000), http.Header{"X-Client": {"t1"}}, 200,
			strings.Repeat("abc", 100_000), map[string]string{"X-Sum": "300000", "X-Client-Echo": "t1"}},
		{"streamed response", "GET", "/stream", "", nil, 200, "chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\n", nil},
		{"big response past the initial window", "GET", "/big", "", nil, 200, strings.Repeat("x", 300_000), nil},
		{"push refused", "GET", "/push", "", nil, 200, "no push", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.body != "" {
				pr, pw := io.Pipe()
				go func() { // streamed in pieces, not one buffer
					for i := 0; i < len(tt.body); i += 7000 {
						pw.Write([]byte(tt.body[i:min(i+7000, len(tt.body))]))
					}
					pw.Close()
				}()
				body = pr
			}
			req, _ := http.NewRequest(tt.method, ts.URL+tt.path, body)
			if tt.trailer != nil {
				req.Trailer = http.Header{}
				for k := range tt.trailer {
					req.Trailer[k] = nil
				}
				req.Body = io.NopCloser(io.MultiReader(body, trailerSetter{req, tt.trailer}))
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.ProtoMajor != 2 || resp.StatusCode != tt.status || string(got) != tt.want {
				t.Fatalf("got %s %d %.40q (len %d), want HTTP/2 %d %.40q", resp.Proto, resp.StatusCode, got, len(got), tt.status, tt.want)
			}
			for k, v := range tt.wantTrailer {
				if resp.Trailer.Get(k) != v {
					t.Errorf("trailer %s = %q, want %q (all %v)", k, resp.Trailer.Get(k), v, resp.Trailer)
				}
			}
		})
	}
}

// trailerSetter fills the request trailers when the body is read to the end.
type trailerSetter struct {
	req *http.Request
	tr  http.Header
}

func (s trailerSetter) Read([]byte) (int, error) {
	for k, v := range s.tr {
		s.req.Trailer[k] = v
	}
	return 0, io.EOF
}

// rawConn is a client speaking frames, for the attack tests.
type rawConn struct {
	t   testing.TB
	nc  net.Conn
	fr  *http2.Framer
	enc *hpack.Encoder
	buf bytes.Buffer
}

func dialRaw(t testing.TB, ts *httptest.Server) *rawConn {
	t.Helper()
	c := dialTLS(t, ts.Listener.Addr().String())
	io.WriteString(c.nc, preface)
	c.fr.WriteSettings()
	c.fr.WriteSettingsAck() // of the server's SETTINGS, sent at once
	return c
}

// dialTLS opens a TLS connection that negotiated h2 and sends nothing.
func dialTLS(t testing.TB, addr string) *rawConn {
	t.Helper()
	// A small receive buffer, so a client that does not read fills the
	// path to it soon (the flood tests).
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	nc, err := tls.DialWithDialer(d, "tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := nc.ConnectionState().NegotiatedProtocol; p != "h2" {
		t.Fatalf("ALPN %q, want h2", p)
	}
	t.Cleanup(func() { nc.Close() })
	c := &rawConn{t: t, nc: nc}
	c.enc = hpack.NewEncoder(&c.buf)
	c.fr = http2.NewFramer(nc, nc)
	c.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	return c
}

func (c *rawConn) headerBlock(path string, extra ...string) []byte {
	return c.requestBlock("GET", path, extra...)
}

// requestBlock is the HPACK block of a request with extra header fields
// (name, value pairs).
func (c *rawConn) requestBlock(method, path string, extra ...string) []byte {
	c.buf.Reset()
	for _, f := range [][2]string{{":method", method}, {":scheme", "https"}, {":authority", "x"}, {":path", path}} {
		c.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	for i := 0; i+1 < len(extra); i += 2 {
		c.enc.WriteField(hpack.HeaderField{Name: extra[i], Value: extra[i+1]})
	}
	return append([]byte(nil), c.buf.Bytes()...)
}

// until reads frames until match returns true or the connection ends;
// it returns whether match did.
func (c *rawConn) until(match func(http2.Frame) bool) bool {
	c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			return false
		}
		if match(f) {
			return true
		}
	}
}

func goAway(code http2.ErrCode) func(http2.Frame) bool {
	return func(f http2.Frame) bool {
		g, ok := f.(*http2.GoAwayFrame)
		return ok && g.ErrCode == code
	}
}

func TestRapidReset(t *testing.T) {
	var running, peak atomic.Int32
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release // a handler that ignores the reset, the worst case
		running.Add(-1)
	})
	ts := startServer(t, h, true, WithMaxConcurrentStreams(10))
	c := dialRaw(t, ts)
	go func() {
		for id := uint32(1); id < 2000; id += 2 {
			if c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.headerBlock("/"), EndHeaders: true, EndStream: true}) != nil {
				return
			}
			if c.fr.WriteRSTStream(id, http2.ErrCodeCancel) != nil {
				return
			}
		}
	}()
	if !c.until(goAway(http2.ErrCodeEnhanceYourCalm)) {
		t.Fatal("no GOAWAY ENHANCE_YOUR_CALM after 1000 HEADERS+RST_STREAM")
	}
	if p := peak.Load(); p > 10 {
		t.Errorf("%d handlers ran at once, want at most MAX_CONCURRENT_STREAMS 10", p)
	}
	close(release)
}

func TestContinuationFlood(t *testing.T) {
	var ran atomic.Bool
	ts := startServer(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ran.Store(true) }), true,
		WithMaxHeaderListSize(16<<10))
	c := dialRaw(t, ts)
	go func() {
		c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: c.headerBlock("/"), EndStream: true})
		junk := bytes.Repeat([]byte{0}, 1000) // indexed field 0: invalid, never a full header list
		for range 100_000 {                   // 100 MB unless the server stops it
			if c.fr.WriteContinuation(1, false, junk) != nil {
				return
			}
		}
	}()
	if !c.until(func(f http2.Frame) bool { _, ok := f.(*http2.GoAwayFrame); return ok }) {
		t.Fatal("no GOAWAY in a CONTINUATION flood")
	}
	if ran.Load() {
		t.Error("the handler ran")
	}
}

func TestHPACKBomb(t *testing.T) {
	var ran atomic.Bool
	ts := startServer(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ran.Store(true) }), true,
		WithMaxHeaderListSize(64<<10))
	c := dialRaw(t, ts)
	// One 4 KB field in the dynamic table, then referenced by index (one
	// byte each) about 12000 times: 48 MB decoded from one 16 KB HEADERS
	// frame. (Spread over CONTINUATION frames, the Framer ends the
	// connection at once: see TestContinuationFlood.)
	c.buf.Reset()
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "https"}, {":authority", "x"}, {":path", "/"}} {
		c.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	c.enc.WriteField(hpack.HeaderField{Name: "x-bomb", Value: strings.Repeat("b", 4000)})
	block := append([]byte(nil), c.buf.Bytes()...)
	for len(block) < 16000 {
		block = append(block, 0x80|62) // the newest dynamic table entry
	}
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block, EndStream: true, EndHeaders: true})
	var status string
	ok := c.until(func(f http2.Frame) bool {
		if m, ok := f.(*http2.MetaHeadersFrame); ok && m.StreamID == 1 {
			status = m.PseudoValue("status")
			return true
		}
		_, bad := f.(*http2.GoAwayFrame)
		return bad
	})
	if !ok || status != "431" || ran.Load() {
		t.Fatalf("HPACK bomb: answered %v status %q handler ran %v, want 431 without the handler", ok, status, ran.Load())
	}
	// The connection (and its HPACK state) stays usable.
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: c.headerBlock("/"), EndStream: true, EndHeaders: true})
	if !c.until(func(f http2.Frame) bool {
		m, ok := f.(*http2.MetaHeadersFrame)
		return ok && m.StreamID == 3 && m.PseudoValue("status") == "200"
	}) || !ran.Load() {
		t.Fatal("no 200 on the next stream after the HPACK bomb")
	}
}

// flood sends frames without reading a reply until the server ends the
// connection with ENHANCE_YOUR_CALM.
func flood(t *testing.T, send func(*rawConn) error) {
	ts := httptest.NewUnstartedServer(echoHandler())
	ts.EnableHTTP2 = true
	// A small send buffer on the server's side too, so that what the
	// kernel holds (megabytes on loopback, half a million acks) does not
	// make the test long under -race on a loaded machine.
	ts.Listener = smallSendBuffer{ts.Listener}
	if err := MustNew().ConfigureServer(ts.Config); err != nil {
		t.Fatal(err)
	}
	ts.StartTLS()
	t.Cleanup(ts.Close)
	c := dialRaw(t, ts)
	done := make(chan error, 1)
	bw := bufio.NewWriterSize(c.nc, 64<<10)
	c.fr = http2.NewFramer(bw, c.nc) // batched: a frame per syscall would make the test slow
	var sent atomic.Int64
	go func() {
		for i := range 2_000_000 {
			sent.Store(int64(i))
			err := send(c)
			if err == nil && i%1000 == 999 {
				err = bw.Flush()
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the server took 2,000,000 frames from a client that reads nothing")
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the flood was not stopped in 20 s (%d frames sent)", sent.Load())
	}
}

// smallSendBuffer gives accepted connections a 4 KiB send buffer.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

func TestPingFlood(t *testing.T) {
	flood(t, func(c *rawConn) error { return c.fr.WritePing(false, [8]byte{1}) })
}

func TestSettingsFlood(t *testing.T) {
	flood(t, func(c *rawConn) error {
		return c.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 65535})
	})
}

func TestPushPromiseFromClientRefused(t *testing.T) {
	ts := startServer(t, echoHandler(), true)
	c := dialRaw(t, ts)
	var push bool
	c.until(func(f http2.Frame) bool {
		if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
			v, ok := s.Value(http2.SettingEnablePush)
			push = ok && v == 0
			return true
		}
		return false
	})
	if !push {
		t.Error("server SETTINGS lack ENABLE_PUSH 0")
	}
	c.fr.WritePushPromise(http2.PushPromiseParam{StreamID: 1, PromiseID: 2, BlockFragment: c.headerBlock("/"), EndHeaders: true})
	if !c.until(goAway(http2.ErrCodeProtocol)) {
		t.Error("PUSH_PROMISE from a client: no GOAWAY PROTOCOL_ERROR")
	}
}

func TestFlowControlWaitsForWindowUpdate(t *testing.T) {
	ts := startServer(t, echoHandler(), true)
	c := dialRaw(t, ts)
	c.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1000})
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: c.headerBlock("/big"), EndHeaders: true, EndStream: true})
	got := 0
	c.until(func(f http2.Frame) bool {
		if d, ok := f.(*http2.DataFrame); ok {
			got += len(d.Data())
		}
		return got >= 1000
	})
	c.nc.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if f, err := c.fr.ReadFrame(); err == nil {
		if d, ok := f.(*http2.DataFrame); ok && len(d.Data()) > 0 {
			t.Fatalf("DATA past the 1000-byte stream window: %d bytes", len(d.Data()))
		}
	}
	c.fr.WriteWindowUpdate(1, 299_000)
	c.fr.WriteWindowUpdate(0, 300_000)
	if !c.until(func(f http2.Frame) bool {
		if d, ok := f.(*http2.DataFrame); ok {
			got += len(d.Data())
			return d.StreamEnded()
		}
		return false
	}) || got != 300_000 {
		t.Fatalf("got %d bytes after WINDOW_UPDATE, want 300000", got)
	}
}

func TestHandlerPanicResetsStreamOnly(t *testing.T) {
	ts := startServer(t, echoHandler(), true)
	if _, err := ts.Client().Get(ts.URL + "/panic"); err == nil {
		t.Fatal("a panicking handler's stream was not reset")
	}
	resp, err := ts.Client().Get(ts.URL + "/hello")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after a panic: %v %v", resp, err)
	}
	resp.Body.Close()
}

// FuzzServeConn feeds a preface and arbitrary frames to a connection; the
// server must neither panic nor hang.
func FuzzServeConn(f *testing.F) {
	var seed bytes.Buffer
	fr := http2.NewFramer(&seed, nil)
	fr.WriteSettings()
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	enc.WriteField(hpack.HeaderField{Name: ":method", Value: "POST"})
	enc.WriteField(hpack.HeaderField{Name: ":path", Value: "/echo"})
	enc.WriteField(hpack.HeaderField{Name: ":scheme", Value: "https"})
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true})
	fr.WriteData(1, true, []byte("body"))
	fr.WritePing(false, [8]byte{})
	fr.WriteWindowUpdate(0, 100)
	f.Add(seed.Bytes())
	f.Add([]byte{0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 5, 1, 4, 0, 0, 0, 1})
	srv := MustNew()
	h := echoHandler()
	f.Fuzz(func(t *testing.T, data []byte) {
		client, server := net.Pipe()
		done := make(chan struct{})
		go func() { srv.ServeConn(server, h); close(done) }()
		go io.Copy(io.Discard, client)
		client.SetWriteDeadline(time.Now().Add(2 * time.Second))
		client.Write([]byte(preface))
		client.Write(data)
		client.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("ServeConn did not return after the client closed")
		}
	})
}
