package core

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// document is a text-heavy JSON document, the kind whose decoded form is
// about as large as its encoding.
type document struct {
	Title string   `json:"title"`
	Pages []string `json:"pages"`
}

func documentBody(size int) string {
	page := strings.Repeat("lorem ipsum ", 1024) // 12 KiB
	var b strings.Builder
	b.WriteString(`{"title":"t","pages":[`)
	for b.Len() < size {
		if b.Len() > 30 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + page + `"`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// readJSONAllocs returns the bytes allocated while serving one ReadJSON
// request with body.
func readJSONAllocs(t testing.TB, body string) uint64 {
	app := quietApp(WithBodyLimit(int64(len(body))))
	app.Post("/doc", func(c Context) {
		var d document
		if err := c.ReadJSON(&d); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("ok")
	})
	app.Build()
	r := httptest.NewRequest("POST", "/doc", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	app.ServeHTTP(w, r)
	runtime.ReadMemStats(&after)
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadJSONMemory is the regression test of issue 12 item 6: decoding a
// JSON body allocates about three times the body (its chunks as they
// arrive, the body once more, what it decodes to once), not several more
// copies of it. TotalAlloc counts every byte allocated during the request,
// so it bounds the request's peak from above.
func TestReadJSONMemory(t *testing.T) {
	body := documentBody(8 << 20)
	got := readJSONAllocs(t, body)
	if ratio := float64(got) / float64(len(body)); ratio > 3.2 {
		t.Fatalf("ReadJSON of a %d-byte body allocated %d bytes (%.2fx), want at most 3.2x", len(body), got, ratio)
	}
}

// TestAnnouncedBodyNotAllocated is the regression test of issue 22 item 6:
// 48 requests announcing a 4 MiB JSON body and sending one byte each held
// 193 MiB of heap, the buffers allocated at the announced length before
// any byte arrived. Buffers now follow the bytes received.
func TestAnnouncedBodyNotAllocated(t *testing.T) {
	const clients, announced = 48, 4 << 20
	app := quietApp(WithMinRequestBodyRate(DataRate{}))
	started := make(chan struct{}, clients)
	app.Post("/doc", func(c Context) {
		started <- struct{}{}
		var v map[string]any
		c.StopWithError(c.ReadJSON(&v))
	})
	app.Build()
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	writers := make([]*io.PipeWriter, clients)
	var wg sync.WaitGroup
	for i := range writers {
		pr, pw := io.Pipe()
		writers[i] = pw
		r := httptest.NewRequest("POST", "/doc", pr)
		r.ContentLength = announced
		r.Header.Set("Content-Type", "application/json")
		wg.Add(1)
		go func() {
			defer wg.Done()
			app.ServeHTTP(httptest.NewRecorder(), r)
		}()
		go pw.Write([]byte("{"))
	}
	for range clients {
		<-started
	}
	time.Sleep(100 * time.Millisecond) // every handler is blocked in its read
	runtime.GC()
	runtime.ReadMemStats(&during)
	for _, pw := range writers {
		pw.Close()
	}
	wg.Wait()
	if grown := int64(during.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Fatalf("%d requests announcing %d bytes and sending 1 hold %d MiB of heap", clients, announced, grown>>20)
	}
}

// BenchmarkReadJSON reports the bytes allocated per byte of a 1 MiB body.
func BenchmarkReadJSON(b *testing.B) {
	body := documentBody(1 << 20)
	var total uint64
	for b.Loop() {
		total += readJSONAllocs(b, body)
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(len(body)), "alloc/body-byte")
}

// TestAnnouncedLengthWithoutLimit checks that with the body limit off a
// client's Content-Length does not size an allocation: a 1 TiB announcement
// with a short body reads what arrives instead of allocating 1 TiB (which
// would kill the process).
func TestAnnouncedLengthWithoutLimit(t *testing.T) {
	app := quietApp(WithBodyLimit(0))
	app.Post("/raw", func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(string(b))
	})
	r := httptest.NewRequest("POST", "/raw", strings.NewReader("short"))
	r.ContentLength = 1 << 40
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	if w.Code != 200 || w.Body.String() != "short" {
		t.Fatalf("%d %q", w.Code, w.Body)
	}
}

// rawExchange sends head (and body, when not empty) on a fresh connection
// to addr and returns what the server answered within wait and how long
// the answer took.
func rawExchange(t *testing.T, addr, head, body string, wait time.Duration) (string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	io.WriteString(c, head+body)
	c.SetReadDeadline(time.Now().Add(wait))
	b, _ := io.ReadAll(c)
	return string(b), time.Since(start)
}

// TestEarlyAnswers is the regression test of issue 22 item 4: a request
// whose Content-Length is over the limit gets 413 at once, with
// Connection: close and without 100 Continue, and a handler that ignores
// the body is answered at once, as on plain net/http. Before, the body
// wrapper hid the unread body from net/http, which then waited for it
// until the read deadline (and sent 100 Continue for a refused request).
func TestEarlyAnswers(t *testing.T) {
	app := quietApp(WithStartupOutput(nil), WithBodyLimit(1<<20))
	app.Post("/upload", func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(strconv.Itoa(len(b)))
	})
	app.Post("/ignore", func(c Context) { c.Text("ignored") })
	app.Post("/upload-large", BodyLimit(4<<20), func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(strconv.Itoa(len(b)))
	})
	app.Post("/tiny", BodyLimit(100), func(c Context) {
		if _, err := io.ReadAll(c.Request().Body); err != nil {
			c.StopWithError(bodyError(err, "reading"))
			return
		}
		c.Text("read")
	})
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()

	tests := []struct {
		name, head, body string
		want             []string
		wantNot          string
	}{
		{"over the limit", "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", "",
			[]string{"HTTP/1.1 413", "Connection: close"}, ""},
		{"over the limit, Expect: 100-continue", "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\nExpect: 100-continue\r\n\r\n", "",
			[]string{"HTTP/1.1 413", "Connection: close"}, "100 Continue"},
		{"ignored body", "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n", "partial",
			[]string{"HTTP/1.1 200", "ignored"}, ""},
		{"ignored body, Expect: 100-continue", "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\nExpect: 100-continue\r\n\r\n", "",
			[]string{"HTTP/1.1 200", "ignored", "Connection: close"}, "100 Continue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, took := rawExchange(t, addr, tt.head, tt.body, 3*time.Second)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer %q lacks %q", got, w)
				}
			}
			if tt.wantNot != "" && strings.Contains(got, tt.wantNot) {
				t.Errorf("answer %q has %q", got, tt.wantNot)
			}
			if took > 2*time.Second {
				t.Errorf("answered after %v, want at once", took)
			}
		})
	}
	// Per route: BodyLimit raises and lowers the application's limit.
	for path, want := range map[string]string{"/upload-large": "HTTP/1.1 200", "/tiny": "HTTP/1.1 413"} {
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n", path, 2000000)
		if got, _ := rawExchange(t, addr, head, strings.Repeat("a", 2000000), 3*time.Second); !strings.HasPrefix(got, want) {
			t.Errorf("%s with 2 MB: %.40q, want %s", path, got, want)
		}
	}
	// A body within the limit is still read, Expect: 100-continue included.
	res, err := http.Post("http://"+addr+"/upload", "text/plain", strings.NewReader(strings.Repeat("a", 1000)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != "1000" {
		t.Errorf("body within the limit: %d %q", res.StatusCode, b)
	}
}
