package core

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"
)

// countingFS counts the bytes read from its files.
type countingFS struct {
	fs.FS
	read *int
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{f, c.read}, nil
}

type countingFile struct {
	fs.File
	read *int
}

func (f *countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	*f.read += n
	return n, err
}

func (f *countingFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(off, whence)
}

// TestContentETag is the regression test of issue 12 item 7: files without
// a modification time get an ETag derived from their content, computed
// once, and no Last-Modified.
func TestContentETag(t *testing.T) {
	get := func(fsys fs.FS, header ...string) *httptest.ResponseRecorder {
		app := quietApp()
		app.HandleDir("/static", fsys)
		r := httptest.NewRequest("GET", "/static/app.css", nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		return w
	}
	v1 := fstest.MapFS{"app.css": {Data: []byte("body{color:red}")}}
	v2 := fstest.MapFS{"app.css": {Data: []byte("body{color:tan}")}} // same size, new deploy
	w1, w2 := get(v1), get(v2)
	e1, e2 := w1.Header().Get("Etag"), w2.Header().Get("Etag")
	if e1 == "" || e1 == e2 {
		t.Fatalf("ETags %q and %q: same-size files with different content must differ", e1, e2)
	}
	if lm := w1.Header().Get("Last-Modified"); lm != "" {
		t.Errorf("Last-Modified %q for a file without a modification time", lm)
	}
	if w := get(v2, "If-None-Match", e1); w.Code != http.StatusOK || w.Body.String() != "body{color:tan}" {
		t.Errorf("old ETag against the new file: %d %q, want 200 with the new content", w.Code, w.Body)
	}
	if w := get(v1, "If-None-Match", e1); w.Code != http.StatusNotModified {
		t.Errorf("current ETag: %d, want 304", w.Code)
	}

	// The hash is computed once per file: later requests read the file
	// only to send it.
	read := 0
	app := quietApp()
	app.HandleDir("/static", countingFS{v1, &read})
	for i := 0; i < 3; i++ {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", "/static/app.css", nil))
		if w.Header().Get("Etag") != e1 {
			t.Fatalf("request %d: ETag %q, want %q", i, w.Header().Get("Etag"), e1)
		}
	}
	if size := len(v1["app.css"].Data); read != 4*size {
		t.Errorf("read %d bytes for 3 requests of a %d-byte file, want %d (one hash, three bodies)", read, size, 4*size)
	}

	// A file with a modification time keeps the cheap validator and its
	// Last-Modified.
	mt := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := get(fstest.MapFS{"app.css": {Data: []byte("x"), ModTime: mt}})
	if w.Header().Get("Last-Modified") != mt.Format(http.TimeFormat) || w.Header().Get("Etag") == "" {
		t.Errorf("file with a time: ETag %q, Last-Modified %q", w.Header().Get("Etag"), w.Header().Get("Last-Modified"))
	}
}
