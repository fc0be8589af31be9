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
