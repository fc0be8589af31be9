package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
			req := httptest.NewRequest("POST", "/upload", body)
			req.Header.Set("Content-Type", ctype)
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.want != "" && rec.Body.String() != tt.want {
				t.Errorf("body %q, want %q", rec.Body, tt.want)
			}
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
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not found")
	}
	dir := t.TempDir()
	app := uploadApp(t, dir, WithBodyLimit(1<<20))
	addr, done := startServer(t, app)
	defer func() { app.Shutdown(context.Background()); <-done }()
	small, large := filepath.Join(dir, "small.txt"), filepath.Join(dir, "large.bin")
	os.WriteFile(small, []byte("from curl"), 0o644)
	os.WriteFile(large, bytes.Repeat([]byte("z"), 2<<20), 0o644)
	for file, want := range map[string]string{small: "200 small.txt 9 [t]", large: "413"} {
		out, err := exec.Command("curl", "-s", "-w", "\n%{http_code}", "-F", "title=t", "-F", "doc=@"+file, "http://"+addr+"/upload").Output()
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
