package core

import (
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
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
// JSON body allocates at most about twice the body (the body once, what it
// decodes to once), not several copies of it. TotalAlloc counts every byte
// allocated during the request, so it bounds the request's peak from above.
func TestReadJSONMemory(t *testing.T) {
	body := documentBody(8 << 20)
	got := readJSONAllocs(t, body)
	if ratio := float64(got) / float64(len(body)); ratio > 2.2 {
		t.Fatalf("ReadJSON of a %d-byte body allocated %d bytes (%.2fx), want at most 2.2x", len(body), got, ratio)
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
