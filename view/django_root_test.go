package view

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

//go:embed testdata/root
var rootEmbed embed.FS

// TestDjangoStaysInsideRoot is the regression test of issue 22 item 8:
// {% ssi "/abs/path" %} and {% ssi "../…" %} read any file the process
// could read, whatever the engine's fs.FS. No tag that names a file
// (ssi, include, extends, import; no filter reads files) reaches outside
// the template root, with os.DirFS, embed.FS and fstest.MapFS roots alike:
// the template fails to load or to render, and the secret never appears.
func TestDjangoStaysInsideRoot(t *testing.T) {
	dir := t.TempDir()
	const secret = "TOP-SECRET-outside-the-root"
	secretPath := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secretPath, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	// The embedded root sits in view/testdata/root: ../../ from it is the
	// package directory, whose go files a template must not read either.
	rel := "../secret.txt"
	abs := filepath.ToSlash(secretPath)
	attacks := map[string]string{
		"ssi absolute":         `{% ssi "` + abs + `" %}`,
		"ssi relative":         `{% ssi "` + rel + `" %}`,
		"ssi parsed":           `{% ssi "` + rel + `" parsed %}`,
		"ssi inside the root":  `{% ssi "ok.html" %}`,
		"include absolute":     `{% include "` + abs + `" %}`,
		"include relative":     `{% include "` + rel + `" %}`,
		"include dot relative": `{% include "./../secret.txt" %}`,
		"extends relative":     `{% extends "` + rel + `" %}`,
		"extends absolute":     `{% extends "` + abs + `" %}`,
		"import relative":      `{% import "` + rel + `" m %}`,
	}
	roots := map[string]func(page string) fs.FS{
		"os.DirFS": func(page string) fs.FS {
			os.WriteFile(filepath.Join(root, "ok.html"), []byte("ok"), 0o644)
			os.WriteFile(filepath.Join(root, "page.html"), []byte(page), 0o644)
			return os.DirFS(root)
		},
		"fstest.MapFS": func(page string) fs.FS {
			return fstest.MapFS{"ok.html": {Data: []byte("ok")}, "page.html": {Data: []byte(page)}}
		},
	}
	for rootName, mk := range roots {
		for name, page := range attacks {
			t.Run(rootName+"/"+name, func(t *testing.T) {
				e, err := NewDjango(mk(page), ".html")
				if err == nil {
					var b strings.Builder
					err = e.ExecuteWriter(&b, "page.html", "", nil)
					if strings.Contains(b.String(), secret) {
						t.Fatalf("the page read the secret: %q", b.String())
					}
				}
				if err == nil {
					t.Fatal("a template naming a file outside the root loaded and rendered")
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("the error shows the secret: %v", err)
				}
			})
		}
	}
	// A computed include, known only at render time.
	for rootName, mk := range roots {
		e, err := NewDjango(mk(`{% include part %}`), ".html")
		if err != nil {
			t.Fatalf("%s: %v", rootName, err)
		}
		for _, part := range []string{abs, rel, "./../secret.txt"} {
			var b strings.Builder
			err := e.ExecuteWriter(&b, "page.html", "", map[string]any{"part": part})
			if err == nil || strings.Contains(b.String(), secret) {
				t.Errorf("%s: computed include %q: err %v, output %q", rootName, part, err, b.String())
			}
		}
	}
	// embed.FS: the embedded root uses ssi to reach the package's own
	// files, and include for ../../django.go.
	sub, err := fs.Sub(rootEmbed, "testdata/root")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewDjango(sub, ".ssi"); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("embed.FS with {%% ssi %%}: err %v, want the tag refused", err)
	}
	if _, err := NewDjango(sub, ".inc"); err == nil {
		t.Error("embed.FS with an include of ../../django.go loaded")
	}
}
