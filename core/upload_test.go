package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vireo-go/vireo/internal/testtool"
)

// multipartBody returns a multipart body with the given values and files
// (field name -> content) and its Content-Type.
func multipartBody(t *testing.T, values map[string]string, files map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range values {
		w.WriteField(k, v)
	}
	for k, v := range files {
		fw, err := w.CreateFormFile(k, "../../etc/"+k+".txt") // a hostile client name: net/http keeps only its base
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, v)
	}
	w.Close()
	return &b, w.FormDataContentType()
}

func uploadApp(t *testing.T, dir string, opts ...Option) *Application {
	t.Helper()
	app := quietApp(append([]Option{WithStartupOutput(nil)}, opts...)...)
	app.Post("/upload", func(c Context) {
		fh, err := c.FormFile("doc")
		if err != nil {
			c.StopWithError(err)
			return
		}
		dst := filepath.Join(dir, "saved") // the server's name, never fh.Filename
		if err := SaveFile(fh, dst); err != nil {
			c.StopWithError(err)
			return
		}
		form, _ := c.MultipartForm()
		c.Text(fmt.Sprintf("%s %d %s", fh.Filename, fh.Size, form.Value["title"]))
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

// postForm serves req with the Content-Type ctype and checks the status
// and, unless want is "", the body.
func postForm(t *testing.T, app *Application, req *http.Request, ctype string, status int, want string) *httptest.ResponseRecorder {
	t.Helper()
	req.Header.Set("Content-Type", ctype)
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if rec.Code != status {
		t.Fatalf("status %d, want %d: %s", rec.Code, status, rec.Body)
	}
	if want != "" && rec.Body.String() != want {
		t.Errorf("body %q, want %q", rec.Body, want)
	}
	return rec
}

// TestUploads (issue 25 item 1): FormFile, MultipartForm and SaveFile, and
// every limit answering 413; the temporary files are gone when the
// request ends.
func TestUploads(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where net/http puts the parts past Memory
	dir := t.TempDir()
	app := uploadApp(t, dir, WithBodyLimit(1<<20), WithUploadLimits(UploadLimits{Memory: 1, FileSize: 64 << 10, Parts: 5}))
	big := strings.Repeat("x", 100<<10)
	tests := []struct {
		name   string
		values map[string]string
		files  map[string]string
		ctype  string
		status int
		want   string
	}{
		{"file", map[string]string{"title": "t"}, map[string]string{"doc": "hello"}, "", 200, "doc.txt 5 [t]"},
		{"no file", map[string]string{"title": "t"}, nil, "", 400, ""},
		{"file over FileSize", nil, map[string]string{"doc": big}, "", 413, ""},
		{"too many parts", map[string]string{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"}, map[string]string{"doc": "x"}, "", 413, ""},
		{"over the body limit", nil, map[string]string{"doc": "x", "other": strings.Repeat("y", 2<<20)}, "", 413, ""},
		{"not multipart", nil, nil, "application/json", 415, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, ctype := multipartBody(t, tt.values, tt.files)
			if tt.ctype != "" {
				ctype = tt.ctype
			}
			postForm(t, app, httptest.NewRequest("POST", "/upload", body), ctype, tt.status, tt.want)
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("temporary files left after the request: %v", left)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "saved")); err != nil || string(b) != "hello" {
		t.Errorf("saved file: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("SaveFile wrote %v, want only the server's name", entries)
	}
}

// TestUploadWithCurl: a real client, curl -F, uploads through the server;
// a file over the body limit gets 413.
func TestUploadWithCurl(t *testing.T) {
	curl := testtool.Require(t, "curl", "curl")
	dir := t.TempDir()
	app := uploadApp(t, dir, WithBodyLimit(1<<20))
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()
	small, large := filepath.Join(dir, "small.txt"), filepath.Join(dir, "large.bin")
	os.WriteFile(small, []byte("from curl"), 0o644)
	os.WriteFile(large, bytes.Repeat([]byte("z"), 2<<20), 0o644)
	for file, want := range map[string]string{small: "200 small.txt 9 [t]", large: "413"} {
		out, err := exec.Command(curl, "-s", "-w", "\n%{http_code}", "-F", "title=t", "-F", "doc=@"+file, "http://"+addr+"/upload").Output()
		if err != nil {
			t.Fatalf("curl: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		got := lines[len(lines)-1]
		if got == "200" {
			got += " " + lines[0]
		}
		if got != want {
			t.Errorf("curl -F doc=@%s: %q, want %q", filepath.Base(file), got, want)
		}
	}
}

// streamedForm is a multipart body written as it is read: head, then body
// repeated until n bytes in all (or for ever when n is 0), counting what
// the server read.
type streamedForm struct {
	head, body []byte
	n, read    int64
	off        int
}

func (s *streamedForm) Read(p []byte) (int, error) {
	if s.n > 0 && s.read >= s.n {
		return 0, io.EOF
	}
	m := 0
	for m < len(p) && (s.n == 0 || s.read+int64(m) < s.n) {
		var src []byte
		if s.off < len(s.head) {
			src = s.head[s.off:]
		} else {
			src = s.body[(s.off-len(s.head))%len(s.body):]
		}
		k := copy(p[m:], src)
		if s.n > 0 && s.read+int64(m+k) > s.n {
			k = int(s.n - s.read - int64(m))
		}
		m += k
		s.off += k
		if s.off >= len(s.head)+len(s.body) {
			s.off = len(s.head)
		}
	}
	s.read += int64(m)
	return m, nil
}

// TestUploadLimitsWhileParsing (issue 25): a file over FileSize, the
// Parts+1st part and oversized part headers are refused while the body is
// parsed, after reading at most the limit plus 8 KiB (mime/multipart's
// 4 KiB read-ahead and the delimiters), whatever the body's total length
// and line ends; a file of exactly FileSize bytes and exactly Parts parts
// pass.
func TestUploadLimitsWhileParsing(t *testing.T) {
	const fileSize, parts, slack = 64 << 10, 5, 8 << 10
	app := quietApp(WithStartupOutput(nil), WithBodyLimit(1<<30), WithUploadLimits(UploadLimits{FileSize: fileSize, Parts: parts}))
	app.Post("/upload", func(c Context) {
		form, err := c.MultipartForm()
		if err != nil {
			c.StopWithError(err)
			return
		}
		n := 0
		for _, fhs := range form.File {
			for _, fh := range fhs {
				n += int(fh.Size)
			}
		}
		c.Text(fmt.Sprintf("%d values, %d file bytes", len(form.Value["v"]), n))
	})
	fileHead := func(nl string) string {
		return "--B" + nl + `Content-Disposition: form-data; name="doc"; filename="big.bin"` + nl + "Content-Type: application/octet-stream" + nl + nl
	}
	value := "--B\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\nx\r\n"
	tests := []struct {
		name       string
		head, body string
		n          int64 // 0: endless
		status     int
		want       string
		maxRead    int64
	}{
		{"file over FileSize, 1 GiB sent", fileHead("\r\n"), "x", 1 << 30, 413, "", fileSize + slack},
		{"file over FileSize, endless", fileHead("\r\n"), "0123456789", 0, 413, "", fileSize + slack},
		{"file over FileSize, LF line ends", fileHead("\n"), "x", 0, 413, "", fileSize + slack},
		{"file of exactly FileSize", fileHead("\r\n") + strings.Repeat("x", fileSize) + "\r\n--B--\r\n", "", 0, 200, "0 values, 65536 file bytes", 0},
		{"LF line ends", fileHead("\n") + "abc\n--B--\n", "", 0, 200, "0 values, 3 file bytes", 0},
		{"part Parts+1, endless", "", value, 0, 413, "", int64(len(value))*(parts+1) + slack},
		{"exactly Parts parts", strings.Repeat(value, parts) + "--B--\r\n", "", 0, 200, "5 values, 0 file bytes", 0},
		{"endless part headers", "--B\r\nContent-Disposition: form-data; name=\"v\"\r\nX-Pad: ", "a", 0, 413, "", maxPartHeader + slack},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &streamedForm{head: []byte(tt.head), body: []byte(tt.body), n: tt.n}
			if tt.body == "" {
				src.n = int64(len(tt.head))
			}
			req := httptest.NewRequest("POST", "/upload", src)
			req.ContentLength = -1
			rec := postForm(t, app, req, "multipart/form-data; boundary=B", tt.status, tt.want)
			if tt.maxRead > 0 && src.read > tt.maxRead {
				t.Errorf("read %d bytes of the body, want at most %d", src.read, tt.maxRead)
			}
			if tt.status == 413 && rec.Header().Get("Connection") != "close" {
				t.Errorf("Connection %q, want close (the rest of the body is not read)", rec.Header().Get("Connection"))
			}
			t.Logf("read %d bytes", src.read)
		})
	}
}

// countingListener counts the bytes the server read from its connections.
type countingListener struct {
	net.Listener
	read atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, read: &l.read}, nil
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

// CloseWrite keeps net/http's half-close (its lingering after a refused body).
func (c *countingConn) CloseWrite() error { return c.Conn.(*net.TCPConn).CloseWrite() }

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// TestUploadRefusedEarlyWithCurl: curl -F uploads a 100 MB file to a route
// whose files may take 64 KiB (the body limit is 1 GiB), or, chunked, to
// a route whose body limit is 64 KiB; the server answers 413 after
// reading at most the limit plus 32 KiB from the connection (the request
// head, net/http's and mime/multipart's buffers), and curl, still
// sending, reads the answer (net/http lingers before it closes).
func TestUploadRefusedEarlyWithCurl(t *testing.T) {
	curl := testtool.Require(t, "curl", "curl")
	const limit = 64 << 10
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 100<<20); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts []Option
		args []string
	}{
		{"file limit", []Option{WithBodyLimit(1 << 30), WithUploadLimits(UploadLimits{FileSize: limit})}, nil},
		{"body limit, chunked", []Option{WithBodyLimit(limit)}, []string{"-H", "Transfer-Encoding: chunked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := uploadApp(t, dir, tt.opts...)
			raw, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ln := &countingListener{Listener: raw}
			done := make(chan error, 1)
			go func() { done <- app.Serve(ln) }()
			defer func() { app.Shutdown(context.Background()); <-done }()
			args := append([]string{"-sS", "-o", "/dev/null", "-w", "%{http_code}", "-F", "doc=@" + big}, tt.args...)
			out, err := exec.Command(curl, append(args, "http://"+raw.Addr().String()+"/upload")...).CombinedOutput()
			if string(out) != "413" {
				t.Fatalf("curl -F doc=@big.bin (100 MB): %q (%v), want 413", out, err)
			}
			if n := ln.read.Load(); n > limit+32<<10 {
				t.Errorf("the server read %d bytes of a 100 MB upload, want at most %d", n, limit+32<<10)
			} else {
				t.Logf("the server read %d bytes of a 100 MB upload refused at 64 KiB", n)
			}
		})
	}
}

// BenchmarkMultipartForm parses a form of one value and one file: 1 MiB
// (held in memory, under UploadLimits.Memory) and 100 MiB (past it: 8 MiB
// in memory, the rest in a temporary file). B/op is the memory a request
// of that size allocates.
func BenchmarkMultipartForm(b *testing.B) {
	b.Setenv("TMPDIR", b.TempDir())
	app := quietApp(WithStartupOutput(nil), WithBodyLimit(1<<30))
	app.Post("/upload", func(c Context) {
		if _, err := c.MultipartForm(); err != nil {
			c.StopWithError(err)
		}
	})
	for _, size := range []int64{1 << 20, 100 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			head := "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nt\r\n" +
				"--B\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"doc.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
			tail := "\r\n--B--\r\n"
			rec := httptest.NewRecorder()
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				body := io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, size), strings.NewReader(tail))
				req := httptest.NewRequest("POST", "/upload", body)
				req.Header.Set("Content-Type", "multipart/form-data; boundary=B")
				app.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body)
				}
			}
		})
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
