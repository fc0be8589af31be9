package core

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPanicAfterPartialBody checks that a panic after part of the body was
// sent aborts the connection instead of ending a well-formed, truncated 200
// (issue 12 item 10).
func TestPanicAfterPartialBody(t *testing.T) {
	app := quietApp()
	app.Get("/partial", func(c Context) {
		c.WriteString("part of the page")
		c.ResponseWriter().(http.Flusher).Flush()
		panic("boom")
	})
	app.Get("/after", ok("still serving"))
	srv := httptest.NewServer(app)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/partial")
	if err == nil {
		_, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	if err == nil {
		t.Fatalf("the truncated response ended cleanly (status %d)", res.StatusCode)
	}
	res, err = http.Get(srv.URL + "/after")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != "still serving" {
		t.Fatalf("after the abort: %q", b)
	}
}

// TestRangeCap checks that a request for more than maxRanges ranges gets
// the whole file rather than a multipart response many times its size
// (issue 12 item 10).
func TestRangeCap(t *testing.T) {
	data := strings.Repeat("0123456789", 72) // 720 bytes
	app := quietApp()
	app.HandleDir("/static", fstest.MapFS{"f.txt": {Data: []byte(data)}})
	ranges := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("%d-%d", i*2, i*2)
		}
		return "bytes=" + strings.Join(parts, ",")
	}
	tests := []struct {
		ranges int
		code   int
	}{
		{1, http.StatusPartialContent},
		{maxRanges, http.StatusPartialContent},
		{maxRanges + 1, http.StatusOK},
		{117, http.StatusOK},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/static/f.txt", nil)
		r.Header.Set("Range", ranges(tt.ranges))
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Code != tt.code {
			t.Errorf("%d ranges: status %d, want %d", tt.ranges, w.Code, tt.code)
		}
		if w.Code == http.StatusOK && w.Body.String() != data {
			t.Errorf("%d ranges: body of %d bytes, want the whole file", tt.ranges, w.Body.Len())
		}
	}
}
