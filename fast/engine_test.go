package fast_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/internal/conformance"
)

// serve starts app on a loopback port and returns its base URL.
var serve = conformance.Start

func newApp(opts ...core.Option) *core.Application {
	return core.New(append([]core.Option{core.WithEngine(fast.Engine()), core.WithStartupOutput(nil)}, opts...)...)
}

func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestServe(t *testing.T) {
	app := newApp()
	app.Get("/users/{id}", func(ctx core.Context) {
		ctx.SetResponseHeader("X-Id", ctx.Param("id"))
		ctx.WriteString("user " + ctx.Param("id") + " q=" + ctx.Query("q") + " h=" + ctx.RequestHeader("X-Test"))
	})
	app.Post("/echo", func(ctx core.Context) {
		var v map[string]any
		if err := ctx.ReadJSON(&v); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.JSON(v)
	})
	app.Get("/html", func(ctx core.Context) { ctx.WriteString("<html><body>hi</body></html>") })
	app.Get("/std", core.WrapHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Path", r.URL.Path)
		fmt.Fprintf(w, "%s %s %s", r.Method, r.Header.Get("X-Test"), r.URL.Query().Get("q"))
	})))
	base := serve(t, app)
	c := &http.Client{}

	req, _ := http.NewRequest("GET", base+"/users/42?q=a%20b", nil)
	req.Header.Set("X-Test", "yes")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "user 42 q=a b h=yes" || resp.Header.Get("X-Id") != "42" {
		t.Errorf("GET /users/42: %d %q %v", resp.StatusCode, b, resp.Header)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("sniffed Content-Type %q", ct)
	}

	resp, body := get(t, c, base+"/html")
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" || body == "" {
		t.Errorf("/html: %q %q", ct, body)
	}

	resp, err = c.Post(base+"/echo", "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != `{"a":1}` {
		t.Errorf("POST /echo: %d %q", resp.StatusCode, b)
	}

	resp, _ = get(t, c, base+"/nope")
	if resp.StatusCode != 404 {
		t.Errorf("GET /nope: %d", resp.StatusCode)
	}
	resp, err = c.Post(base+"/users/1", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST /users/1: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}

	req, _ = http.NewRequest("GET", base+"/std?q=z", nil)
	req.Header.Set("X-Test", "std")
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "GET std z" || resp.Header.Get("X-Path") != "/std" {
		t.Errorf("WrapHandler: %q %v", b, resp.Header)
	}

	resp, err = c.Head(base + "/users/7")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(b) != 0 || resp.Header.Get("X-Id") != "7" {
		t.Errorf("HEAD: %d %q", resp.StatusCode, b)
	}
}

// TestKeptValuesStayValid keeps every kind of value a handler is handed
// (parameters, path, query, host, headers, cookies, the body, the lazy
// *http.Request) past its request and checks, after fasthttp reused its
// buffers for many other requests on the same connection, that none of
// them changed: the Fiber bug class. Run it with -race.
func TestKeptValuesStayValid(t *testing.T) {
	type kept struct {
		want, param, path, query, host, header, cookie, reqHeader, reqPath string
		body                                                               []byte
		values                                                             []string
	}
	var mu sync.Mutex
	var all []kept
	app := newApp()
	app.Post("/k/{id}", func(ctx core.Context) {
		body, err := ctx.ReadBody()
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ck, _ := ctx.RequestCookie("c")
		k := kept{
			want: ctx.Param("id"), param: ctx.Param("id"), path: ctx.Path(), query: ctx.Query("q"), host: ctx.Host(),
			header: ctx.RequestHeader("X-V"), cookie: ck, body: body,
			values: ctx.RequestHeaderValues("X-V"),
		}
		r := ctx.Request()
		k.reqHeader, k.reqPath = r.Header.Get("X-V"), r.URL.Path
		mu.Lock()
		all = append(all, k)
		mu.Unlock()
		ctx.WriteString("ok")
	})
	base := serve(t, app)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	const n = 300
	for i := range n {
		v := fmt.Sprintf("%04d-%s", i, strings.Repeat(string(rune('a'+i%26)), i%40))
		req, _ := http.NewRequest("POST", base+"/k/"+v+"?q="+v, strings.NewReader("body-"+v))
		req.Header.Set("X-V", v)
		req.Header.Set("Cookie", "c="+v)
		req.Host = "h" + v[:4] + ".test"
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(all) != n {
		t.Fatalf("%d requests kept, want %d", len(all), n)
	}
	for i, k := range all {
		v := fmt.Sprintf("%04d-%s", i, strings.Repeat(string(rune('a'+i%26)), i%40))
		if len(k.values) != 1 {
			t.Fatalf("request %d: header values %q", i, k.values)
		}
		got := []string{k.param, strings.TrimPrefix(k.path, "/k/"), k.query, k.header, k.cookie, string(k.body), k.reqHeader, strings.TrimPrefix(k.reqPath, "/k/"), k.values[0], k.host}
		for j, g := range got {
			want := v
			switch j {
			case 5:
				want = "body-" + v
			case 9:
				want = "h" + v[:4] + ".test"
			}
			if g != want {
				t.Errorf("request %d, value %d: kept %q, now %q", i, j, want, g)
			}
		}
	}
}

// TestRequestHeaderValues reads a header sent on several lines, line by
// line, in order and whatever the case of the name asked for, on the fast
// engine, as core's test of the same name does on net/http.
func TestRequestHeaderValues(t *testing.T) {
	app := newApp()
	app.Get("/h", func(ctx core.Context) {
		vs := ctx.RequestHeaderValues(ctx.Query("name"))
		if vs == nil {
			ctx.WriteString("nil")
			return
		}
		ctx.WriteString(strings.Join(vs, "|"))
	})
	base := serve(t, app)
	c := &http.Client{}
	tests := []struct{ name, want string }{
		{"X-Multi", "a, b|c"},
		{"x-multi", "a, b|c"},
		{"Cookie", "k=1|l=2; m=3"},
		{"X-None", "nil"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", base+"/h?name="+tt.name, nil)
		req.Header.Add("X-Multi", "a, b")
		req.Header.Add("X-Multi", "c")
		req.Header.Add("Cookie", "k=1")
		req.Header.Add("Cookie", "l=2; m=3")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != tt.want {
			t.Errorf("RequestHeaderValues(%q) = %q, want %q", tt.name, b, tt.want)
		}
	}
}

// TestStaleHandle checks that a Context kept past its request on the fast
// engine reads nothing and cannot write, while its pooled state serves
// other requests.
func TestStaleHandle(t *testing.T) {
	keep := make(chan core.Context, 1)
	app := newApp()
	app.Get("/keep/{v}", func(ctx core.Context) {
		select {
		case keep <- ctx:
		default:
		}
		ctx.WriteString(ctx.Param("v"))
	})
	base := serve(t, app)
	c := &http.Client{}
	get(t, c, base+"/keep/first")
	stale := <-keep
	for i := range 20 {
		_, body := get(t, c, base+fmt.Sprintf("/keep/n%d", i))
		if body != fmt.Sprintf("n%d", i) {
			t.Fatalf("body %q", body)
		}
		if p := stale.Param("v"); p != "" {
			t.Fatalf("stale Param = %q", p)
		}
		if _, err := stale.WriteString("x"); !errors.Is(err, core.ErrContextReleased) {
			t.Fatalf("stale write: %v", err)
		}
		if stale.Request() != nil {
			t.Fatal("stale Request not nil")
		}
	}
}

func TestListenRefusesHTTP2(t *testing.T) {
	app := newApp()
	app.Get("/", func(ctx core.Context) {})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = app.Serve(ln, func(s *http.Server) {
		s.Protocols = new(http.Protocols)
		s.Protocols.SetHTTP1(true)
		s.Protocols.SetUnencryptedHTTP2(true)
	})
	if err == nil || !strings.Contains(err.Error(), "HTTP/1.1 only") {
		t.Fatalf("Serve with h2c: %v", err)
	}
}

// TestShutdownGraceful checks that a request in progress finishes when
// the application shuts down.
func TestShutdownGraceful(t *testing.T) {
	started := make(chan struct{})
	app := newApp()
	app.Get("/slow", func(ctx core.Context) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		ctx.WriteString("done")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- app.Serve(ln) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	if err := app.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b := <-got; b != "done" {
		t.Errorf("in-flight request got %q", b)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestFraming sends requests whose framing is ambiguous or malformed to
// both engines and checks that the fast engine answers as net/http does,
// with the same status and the same reading of the request (the handler
// echoes the body and a header it was given). What net/http (Go 1.26)
// answers: 400 for Content-Lengths that disagree and for an invalid chunk
// size, 431 for headers over the limit, 501 for a Transfer-Encoding other
// than chunked; it serves CL+TE as chunked (Content-Length ignored),
// joins obs-fold lines and takes a bare LF as a line end.
func TestFraming(t *testing.T) {
	const big = 70 << 10 // over the fast engine's 64 KiB buffer cap
	cases := []struct{ name, req, want string }{
		{"control", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok", "200"},
		{"chunked", "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", "200"},
		{"CL+TE", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", "200"},
		{"TE+CL", "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n2\r\nok\r\n0\r\n\r\n", "200"},
		{"duplicate CL", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", "400"},
		{"invalid chunk size", "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n", "400"},
		{"obs-fold", "GET /p HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", "200"},
		{"bare LF", "GET /p HTTP/1.1\r\nHost: a\nX-A: b\r\n\r\n", "200"},
		{"TE gzip", "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501"},
		{"oversized headers", "GET /p HTTP/1.1\r\nHost: a\r\nX-Big: " + strings.Repeat("a", big) + "\r\n\r\n", "431"},
	}
	handler := func(ctx core.Context) {
		b, err := ctx.ReadBody()
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.SetContentType("text/plain")
		ctx.WriteString(string(b) + "|" + ctx.RequestHeader("X-A"))
	}
	std := core.New(core.WithStartupOutput(nil))
	std.Handle("GET", "/p", handler)
	std.Handle("POST", "/p", handler)
	fst := newApp()
	fst.Handle("GET", "/p", handler)
	fst.Handle("POST", "/p", handler)
	small := func(s *http.Server) { s.MaxHeaderBytes = 64 << 10 }
	stdAddr := strings.TrimPrefix(serve(t, std, small), "http://")
	fastAddr := strings.TrimPrefix(serve(t, fst), "http://")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, sb := rawRequest(t, stdAddr, tc.req)
			fc, fb := rawRequest(t, fastAddr, tc.req)
			if sc != tc.want {
				t.Errorf("net/http answered %s, want %s", sc, tc.want)
			}
			if fc != sc || (sc == "200" && fb != sb) {
				t.Errorf("fast answered %s %q, net/http %s %q", fc, fb, sc, sb)
			}
		})
	}
}

// rawRequest sends a raw request and returns the status code and the
// body of the answer.
func rawRequest(t *testing.T, addr, req string) (code, body string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return "no answer: " + err.Error(), ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strconv.Itoa(resp.StatusCode), string(b)
}

func TestListenRefusesH2C(t *testing.T) {
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil), core.WithH2C())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Serve(ln); err == nil || !strings.Contains(err.Error(), "HTTP/1.1 only") {
		t.Fatalf("Serve with WithH2C: %v", err)
	}
}

// TestBodyLimits checks the body limit on the fast engine: fasthttp
// refuses a body over it with 413 before the handler, MaxBodySize raises
// fasthttp's bound for a route whose BodyLimit is larger, and a request
// that announces too large a body with Expect: 100-continue gets the 413
// without the 100, so the client never sends it.
func TestBodyLimits(t *testing.T) {
	echo := func(c core.Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Write(b)
	}
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(nil), core.WithBodyLimit(10))
	app.Post("/p", echo)
	base := serve(t, app)
	for _, tc := range []struct {
		body string
		code int
	}{{"0123456789", 200}, {"0123456789x", 413}} {
		resp, err := http.Post(base+"/p", "text/plain", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%d bytes: %d, want %d", len(tc.body), resp.StatusCode, tc.code)
		}
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("Expect: 100-continue over the limit: %d, want 413 and no 100", resp.StatusCode)
	}

	big := core.New(core.WithEngine(fast.Engine(fast.MaxBodySize(100))), core.WithStartupOutput(nil), core.WithBodyLimit(10))
	big.Post("/upload", core.BodyLimit(50), echo)
	big.Post("/p", echo)
	bigBase := serve(t, big)
	for _, tc := range []struct {
		path string
		n    int
		code int
	}{{"/upload", 50, 200}, {"/upload", 51, 413}, {"/p", 11, 413}, {"/upload", 101, 413}} {
		resp, err := http.Post(bigBase+tc.path, "text/plain", strings.NewReader(strings.Repeat("x", tc.n)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s, %d bytes: %d, want %d", tc.path, tc.n, resp.StatusCode, tc.code)
		}
	}
}

// TestPipelined sends three requests in one write and checks that the
// answers come back in order.
func TestPipelined(t *testing.T) {
	app := newApp()
	app.Get("/n/{n}", func(c core.Context) { c.WriteString(c.Param("n")) })
	conn, err := net.Dial("tcp", strings.TrimPrefix(serve(t, app), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "GET /n/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /n/2 HTTP/1.1\r\nHost: a\r\n\r\nGET /n/3 HTTP/1.1\r\nHost: a\r\n\r\n")
	br := bufio.NewReader(conn)
	for i := 1; i <= 3; i++ {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != strconv.Itoa(i) {
			t.Errorf("answer %d: %q", i, b)
		}
	}
}

// TestEarlyHints sends 103 Early Hints on both engines, twice, and then
// the final response: each 103 carries the Link headers set before it,
// and the final response its header map as net/http sends it (every Link
// once). On the fast engine the second 103 and the final response got
// the Links of the first 103 again, until earlyHints stopped leaving them
// in fasthttp's response header.
func TestEarlyHints(t *testing.T) {
	handler := func(ctx core.Context) {
		ctx.ResponseHeader().Add("Link", "</app.css>; rel=preload; as=style")
		ctx.SetStatus(http.StatusEarlyHints)
		ctx.ResponseHeader().Add("Link", "</app.js>; rel=preload; as=script")
		ctx.SetStatus(http.StatusEarlyHints)
		ctx.Text("page")
	}
	type answer struct {
		hints [][]string // the Link values of each 103
		links []string   // of the final response
		code  int
		body  string
	}
	get := func(t *testing.T, base string) answer {
		var a answer
		trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			if code == http.StatusEarlyHints {
				a.hints = append(a.hints, h.Values("Link"))
			}
			return nil
		}}
		req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", base+"/", nil)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		a.links, a.code, a.body = resp.Header.Values("Link"), resp.StatusCode, string(b)
		return a
	}
	std := core.New(core.WithStartupOutput(nil))
	std.Get("/", handler)
	fst := newApp()
	fst.Get("/", handler)
	want := answer{
		hints: [][]string{
			{"</app.css>; rel=preload; as=style"},
			{"</app.css>; rel=preload; as=style", "</app.js>; rel=preload; as=script"},
		},
		links: []string{"</app.css>; rel=preload; as=style", "</app.js>; rel=preload; as=script"},
		code:  http.StatusOK, body: "page",
	}
	for name, app := range map[string]*core.Application{"net/http": std, "fast": fst} {
		if got := get(t, serve(t, app)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
}
