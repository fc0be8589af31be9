package core

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestBufferedContentLength checks on the wire that bodies written from a
// buffer (JSON, XML, View) carry their Content-Length and are never sent
// chunked, for GET and HEAD, on both sides of net/http's buffer size: below
// it net/http sizes the body, above it writeBuffered sets the header.
func TestBufferedContentLength(t *testing.T) {
	app := quietApp()
	app.Get("/json/{n:int}", func(c Context) {
		n, _ := c.Params().Int("n")
		c.JSON(strings.Repeat("a", n-2)) // a JSON string of n bytes
	})
	srv := httptest.NewServer(app)
	defer srv.Close()
	for _, n := range []int{2, 100, netHTTPBuffer - 1, netHTTPBuffer, netHTTPBuffer + 1, 10000} {
		for _, method := range []string{"GET", "HEAD"} {
			req, err := http.NewRequest(method, srv.URL+"/json/"+strconv.Itoa(n), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			wantBody := 0
			if method == "GET" {
				wantBody = n
			}
			if resp.StatusCode != 200 || resp.ContentLength != int64(n) || len(resp.TransferEncoding) != 0 || len(body) != wantBody {
				t.Errorf("%s of %d bytes: status %d, Content-Length %d, Transfer-Encoding %v, %d body bytes",
					method, n, resp.StatusCode, resp.ContentLength, resp.TransferEncoding, len(body))
			}
		}
	}
}

// TestBufferedContentLengthHeader checks that a body larger than
// net/http's buffer has its Content-Length in the header map itself, where
// a wrapping writer (a recorder, a middleware) sees it.
func TestBufferedContentLengthHeader(t *testing.T) {
	app := quietApp()
	app.Get("/big", func(c Context) { c.JSON(strings.Repeat("a", 2*netHTTPBuffer)) })
	w := do(app, "GET", "/big", nil)
	if got, want := w.Header()["Content-Length"], strconv.Itoa(2*netHTTPBuffer+2); len(got) != 1 || got[0] != want || w.Body.Len() != 2*netHTTPBuffer+2 {
		t.Errorf("Content-Length %q with %d body bytes, want %s", got, w.Body.Len(), want)
	}
}

// TestJSONLargeBodyAfterSmallOnes: a large JSON body reuses a pooled
// buffer after any number of small ones, so it allocates no more than it
// did before them. bytebufferpool, which JSON used before bodyBuffers,
// calibrated the largest buffer it keeps from the sizes put back: after
// 42,000 small bodies it dropped every larger buffer, and each large body
// allocated its buffer and grew it again (6 allocations against 3). Under
// the race detector sync.Pool drops a quarter of what it is given, at
// random, which adds about half an allocation to both counts; one
// allocation of slack keeps that from failing the test and still catches
// the dropped buffers.
func TestJSONLargeBodyAfterSmallOnes(t *testing.T) {
	large := strings.Repeat("x", 16<<10)
	app := New()
	app.Get("/small", func(c Context) { c.JSON(1) })
	app.Get("/large", func(c Context) { c.JSON(large) })
	small, _ := http.NewRequest("GET", "/small", nil)
	big, _ := http.NewRequest("GET", "/large", nil)
	w := &nopWriter{h: http.Header{}}
	serveLarge := func() { clear(w.h); app.ServeHTTP(w, big) }
	before := testing.AllocsPerRun(1000, serveLarge)
	for range 50000 {
		clear(w.h)
		app.ServeHTTP(w, small)
	}
	if after := testing.AllocsPerRun(1000, serveLarge); after > before+1 {
		t.Errorf("a large JSON body allocates %v times after 50,000 small ones, %v times before them", after, before)
	}
}
