package h2

import (
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/conformance"
)

// core's isolation scenarios (core/isolation_test.go) over this path:
// many concurrent streams of one connection, each handler in a goroutine
// of its own, pooled request states handed from stream to stream. The
// engines' whole conformance suite runs over it too (TestConformance).

// TestConformance runs the suite net/http and the fast engine pass
// (internal/conformance) over this path: Serve with WithH2C and
// WithHTTP2(MustNew()), a client that speaks only HTTP/2 without TLS
// (prior knowledge), so every request of a test is a stream of one
// connection served by this package's frame loop.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Target{
		Options: []core.Option{core.WithH2C(), core.WithHTTP2(MustNew())},
		Transport: func() *http.Transport {
			var protos http.Protocols
			protos.SetUnencryptedHTTP2(true)
			return &http.Transport{Protocols: &protos}
		},
	})
}

// oneConnClient serves app through this path and returns a client whose
// requests share one connection, and the number of connections accepted.
func oneConnClient(t *testing.T, app *core.Application) (*httptest.Server, *http.Client, *atomic.Int32) {
	ts := httptest.NewUnstartedServer(app)
	var conns atomic.Int32
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	if err := MustNew(WithMaxConcurrentStreams(250)).ConfigureServer(ts.Config); err != nil {
		t.Fatal(err)
	}
	ts.EnableHTTP2 = true
	ts.StartTLS()
	t.Cleanup(ts.Close)
	var protos http.Protocols
	protos.SetHTTP2(true)
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, Protocols: &protos,
		HTTP2: &http.HTTP2Config{StrictMaxConcurrentRequests: true}}
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	// One request first: concurrent first requests would each dial.
	if resp, err := client.Get(ts.URL + "/warm"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	return ts, client, &conns
}

func quietApp() *core.Application {
	return core.New(core.WithStartupOutput(nil), core.WithLogger(slog.New(slog.DiscardHandler)))
}

// fetch does one request and returns the body and header.
func fetch(t *testing.T, client *http.Client, method, url, body string) (string, http.Header) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := client.Do(req)
	if err != nil {
		t.Error(err)
		return "", nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 2 {
		t.Errorf("%s: %s, want HTTP/2", url, resp.Proto)
	}
	return string(b), resp.Header
}

// concurrently runs fn(0) to fn(n-1) at once and waits for them.
func concurrently(n int, fn func(g int)) {
	var wg sync.WaitGroup
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(g)
		}()
	}
	wg.Wait()
}

// TestKeptContextOverH2: a Context kept by a goroutine after its request
// ended acts while 64 concurrent streams on the same connection reuse the
// pooled states; it must fail with ErrContextReleased and see nothing of
// theirs, and none of them may see its writes.
func TestKeptContextOverH2(t *testing.T) {
	app := quietApp()
	kept := make(chan core.Context, 1)
	app.Get("/keep/{id}", func(c core.Context) {
		c.Values().Set("who", "keeper")
		kept <- c
		c.Text("kept")
	})
	app.Get("/own/{id}", func(c core.Context) {
		c.Values().Set("who", c.Param("id"))
		runtime.Gosched()
		c.Text("own-" + c.Param("id") + "-" + c.Values().GetString("who"))
	})
	ts, client, conns := oneConnClient(t, app)
	if body, _ := fetch(t, client, "GET", ts.URL+"/keep/1", ""); body != "kept" {
		t.Fatalf("/keep answered %q", body)
	}
	c := <-kept
	stop := make(chan struct{})
	results := make(chan conformance.StaleResult, 1)
	go func() { // acts until stop; reports the first wrong result, if any
		var first *conformance.StaleResult
		for {
			r := conformance.TouchStale(c)
			if !r.OK() && first == nil {
				first = &r
			}
			select {
			case <-stop:
				if first == nil {
					first = &r
				}
				results <- *first
				return
			default:
			}
		}
	}()
	concurrently(64, func(g int) {
		for i := range 8 {
			id := strconv.Itoa(g*100 + i)
			body, hdr := fetch(t, client, "GET", ts.URL+"/own/"+id, "")
			if body != "own-"+id+"-"+id || hdr.Get("X-Leak") != "" {
				t.Errorf("/own/%s answered %q (X-Leak %q)", id, body, hdr.Get("X-Leak"))
			}
		}
	})
	close(stop)
	if r := <-results; !r.OK() {
		t.Errorf("the kept Context saw %+v; want ErrContextReleased and zero values", r)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want the streams on one", n)
	}
}

// TestConcurrentStreamsIsolation: handlers that leave goroutines
// hammering their Context, handlers that read request bodies and
// parameters, 64 concurrent streams of one connection: every response is
// exactly its own (and -race sees no data race).
func TestConcurrentStreamsIsolation(t *testing.T) {
	app := quietApp()
	stop := make(chan struct{})
	var leftover sync.WaitGroup
	var starts sync.Map // response number -> chan struct{}
	var seq atomic.Int64
	app.Get("/leave/{id}", func(c core.Context) {
		n := strconv.FormatInt(seq.Add(1), 10)
		start := make(chan struct{})
		starts.Store(n, start)
		leftover.Add(1)
		go func() {
			defer leftover.Done()
			select { // once the client has the response: the request has ended
			case <-start:
			case <-stop:
				return
			}
			for range 300 { // while other streams run on the pooled states
				select {
				case <-stop:
					return
				default:
				}
				conformance.TouchStale(c)
				runtime.Gosched()
			}
		}()
		c.Text("leave-" + n)
	})
	var running, peak atomic.Int32
	app.Post("/body/{id}", func(c core.Context) {
		n := running.Add(1)
		defer running.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Values().Set("who", c.Param("id"))
		runtime.Gosched()
		c.Text(c.Param("id") + ":" + c.RequestHeader("X-Id") + ":" + string(b) + ":" + c.Values().GetString("who"))
	})
	ts, client, conns := oneConnClient(t, app)
	concurrently(64, func(g int) {
		for i := range 12 {
			if i%4 == 0 && g%4 == 0 {
				body, _ := fetch(t, client, "GET", ts.URL+"/leave/x", "")
				if start, ok := starts.LoadAndDelete(strings.TrimPrefix(body, "leave-")); ok {
					close(start.(chan struct{}))
				} else {
					t.Errorf("/leave answered %q", body)
				}
				continue
			}
			id := strconv.Itoa(g*100 + i)
			req, _ := http.NewRequest("POST", ts.URL+"/body/"+id, strings.NewReader(strings.Repeat(id, 50)))
			req.Header.Set("X-Id", id)
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if want := id + ":" + id + ":" + strings.Repeat(id, 50) + ":" + id; string(b) != want || resp.Header.Get("X-Leak") != "" {
				t.Errorf("/body/%s answered %.60q (X-Leak %q)", id, b, resp.Header.Get("X-Leak"))
			}
		}
	})
	close(stop)
	leftover.Wait()
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want the streams on one", n)
	}
	if p := peak.Load(); p < 2 {
		t.Errorf("at most %d /body handler ran at once: the streams were not concurrent", p)
	} else {
		t.Logf("up to %d /body handlers at once on the connection", p)
	}
}
