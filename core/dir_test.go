package core

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandleDirSymlinks is the regression test of issue 12 item 3: a
// symbolic link inside the served directory that resolves outside it is
// not served, with os.DirFS as with Dir; links that stay inside are.
func TestHandleDirSymlinks(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(public, "css"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(public, "css", "site.css"), "body{}")
	write(filepath.Join(dir, "secret.txt"), "TOP SECRET")
	write(filepath.Join(outside, "key.pem"), "TOP SECRET KEY")
	links := map[string]string{
		"leak.txt":   filepath.Join(dir, "secret.txt"), // absolute, outside
		"rel.txt":    "../secret.txt",                  // relative, outside
		"leakdir":    outside,                          // a directory outside
		"style.css":  "css/site.css",                   // inside
		"css/up.css": "../css/site.css",                // inside, through ..
		"css/loop":   "../leakdir",                     // a link to a link outside
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(public, name)); err != nil {
			t.Skipf("symlinks not supported: %v", err)
		}
	}
	roots := []struct {
		name string
		fsys fs.FS
	}{
		{"os.DirFS", os.DirFS(public)},
		{"Dir", Dir(public)},
	}
	tests := []struct {
		target string
		code   int
		body   string
	}{
		{"/static/css/site.css", 200, "body{}"},
		{"/static/style.css", 200, "body{}"},
		{"/static/css/up.css", 200, "body{}"},
		{"/static/leak.txt", 404, ""},
		{"/static/rel.txt", 404, ""},
		{"/static/leakdir/key.pem", 404, ""},
		{"/static/css/loop/key.pem", 404, ""},
		{"/static/leakdir/", 404, ""},
	}
	for _, root := range roots {
		t.Run(root.name, func(t *testing.T) {
			app := quietApp()
			app.HandleDir("/static", root.fsys)
			for _, tt := range tests {
				w := do(app, "GET", tt.target, nil)
				if strings.Contains(w.Body.String(), "SECRET") {
					t.Errorf("%s: served a file outside the root: %q", tt.target, w.Body)
				}
				if w.Code != tt.code || tt.code == http.StatusOK && w.Body.String() != tt.body {
					t.Errorf("%s: %d %q, want %d %q", tt.target, w.Code, w.Body, tt.code, tt.body)
				}
			}
		})
	}
}
