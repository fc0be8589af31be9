package view

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// siteWriter writes template files into a directory, giving every write a
// later modification time so that changes are seen without sleeping.
type siteWriter struct {
	t   *testing.T
	dir string
	seq int
}

func (s *siteWriter) write(name, content string) {
	s.t.Helper()
	path := filepath.Join(s.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.seq++
	mod := time.Date(2020, 1, 1, 0, 0, s.seq, 0, time.UTC)
	if err := os.Chtimes(path, mod, mod); err != nil {
		s.t.Fatal(err)
	}
}

func (s *siteWriter) remove(name string) {
	s.t.Helper()
	if err := os.Remove(filepath.Join(s.dir, filepath.FromSlash(name))); err != nil {
		s.t.Fatal(err)
	}
}

// reloadCase describes one engine's syntax for the reload tests.
type reloadCase struct {
	name   string
	engine func(t testing.TB, dir string, reload bool) Engine
	layout string // layout file content
	page   func(body string) string
	broken string
}

var reloadCases = []reloadCase{
	{
		name: "html",
		engine: func(t testing.TB, dir string, reload bool) Engine {
			return mustHTML(t, os.DirFS(dir), ".html", WithLayout("layout.html"), WithReload(reload))
		},
		layout: `<l>{{ yield . }}</l>`,
		page:   func(body string) string { return body + `{{ .X }}` },
		broken: `{{ if }}`,
	},
	{
		name: "django",
		engine: func(t testing.TB, dir string, reload bool) Engine {
			return mustDjango(t, os.DirFS(dir), ".html", WithReload(reload))
		},
		layout: `<l>{% block content %}{% endblock %}</l>`,
		page: func(body string) string {
			return `{% extends "layout.html" %}{% block content %}` + body + `{{ X }}{% endblock %}`
		},
		broken: `{% if %}`,
	},
}

func TestReload(t *testing.T) {
	data := map[string]any{"X": "!"}
	for _, rc := range reloadCases {
		t.Run(rc.name, func(t *testing.T) {
			site := &siteWriter{t: t, dir: t.TempDir()}
			site.write("layout.html", rc.layout)
			site.write("index.html", rc.page("one"))
			e := rc.engine(t, site.dir, true)

			expect := func(page, want string) {
				t.Helper()
				got, err := render(e, page, "", data)
				if err != nil {
					t.Fatalf("render %s: %v", page, err)
				}
				if got != want {
					t.Fatalf("render %s = %q, want %q", page, got, want)
				}
			}
			expect("index.html", "<l>one!</l>")

			// Same size, newer modification time.
			site.write("index.html", rc.page("two"))
			expect("index.html", "<l>two!</l>")

			// The layout changes too.
			site.write("layout.html", strings.Replace(rc.layout, "<l>", "<L>", 1))
			expect("index.html", "<L>two!</l>")

			// A new file, then its removal.
			site.write("sub/new.html", rc.page("new"))
			expect("sub/new.html", "<L>new!</l>")
			site.remove("sub/new.html")
			if _, err := render(e, "sub/new.html", "", data); !errors.Is(err, ErrNotFound) {
				t.Fatalf("removed page: err = %v, want ErrNotFound", err)
			}

			// A broken file is reported by the render, naming it, until fixed.
			site.write("index.html", rc.broken)
			for i := 0; i < 2; i++ {
				if _, err := render(e, "index.html", "", data); err == nil || !strings.Contains(err.Error(), "index.html") {
					t.Fatalf("broken page: err = %v, want an error naming index.html", err)
				}
			}
			site.write("index.html", rc.page("fixed"))
			expect("index.html", "<L>fixed!</l>")
		})
	}
}

func TestNoReloadKeepsParsedTemplates(t *testing.T) {
	for _, rc := range reloadCases {
		t.Run(rc.name, func(t *testing.T) {
			site := &siteWriter{t: t, dir: t.TempDir()}
			site.write("layout.html", rc.layout)
			site.write("index.html", rc.page("one"))
			e := rc.engine(t, site.dir, false)
			site.write("index.html", rc.page("two"))
			site.remove("layout.html")
			got, err := render(e, "index.html", "", map[string]any{"X": "?"})
			if err != nil || got != "<l>one?</l>" {
				t.Fatalf("got %q, %v; want the templates parsed by the constructor", got, err)
			}
			// Load parses again.
			site.write("layout.html", rc.layout)
			if err := e.Load(); err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got, _ := render(e, "index.html", "", map[string]any{"X": "?"}); got != "<l>two?</l>" {
				t.Fatalf("after Load: got %q", got)
			}
		})
	}
}
