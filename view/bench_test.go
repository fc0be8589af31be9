package view

import (
	"bytes"
	"embed"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// benchFS holds copies of the benchmark suite's templates page
// (_benchmarks/expected/views-html and views-django) and the body every
// stack must answer with (_benchmarks/expected/templates.html).
//
//go:embed testdata/bench
var benchFS embed.FS

// benchData is what the benchmark apps pass: the title.
var benchData = map[string]any{"Title": "Home Page"}

func benchSub(t testing.TB, dir string) fs.FS {
	sub, err := fs.Sub(benchFS, "testdata/bench/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func benchHTML(t testing.TB) Engine {
	return mustHTML(t, benchSub(t, "html"), ".html", WithLayout("layouts/layout.html"))
}

func benchDjango(t testing.TB) Engine {
	return mustDjango(t, benchSub(t, "django"), ".html")
}

// benchDjangoEngineLayout serves the same page with an engine layout
// ({{ content }}) instead of {% extends %}.
func benchDjangoEngineLayout(t testing.TB) Engine {
	layout, _ := fs.ReadFile(benchFS, "testdata/bench/django/layout.html")
	index, _ := fs.ReadFile(benchFS, "testdata/bench/django/index.html")
	page := strings.TrimSuffix(strings.TrimPrefix(string(index), `{% extends "layout.html" %}{% block content %}`), `{% endblock %}`+"\n")
	return mustDjango(t, fstest.MapFS{
		"layout.html": {Data: []byte(strings.Replace(string(layout), `{% block content %}{% endblock %}`, `{{ content }}`, 1))},
		"index.html":  {Data: []byte(page)},
	}, ".html", WithLayout("layout.html"))
}

// TestBenchmarkPage checks that every way of rendering the benchmark page,
// from embed.FS and from a directory, gives the canonical body byte for byte.
func TestBenchmarkPage(t *testing.T) {
	want, err := os.ReadFile("testdata/bench/expected.html")
	if err != nil {
		t.Fatal(err)
	}
	dirHTML, err := NewHTMLDir("testdata/bench/html", ".html", WithLayout("layouts/layout.html"))
	if err != nil {
		t.Fatal(err)
	}
	dirDjango, err := NewDjangoDir("testdata/bench/django", ".html")
	if err != nil {
		t.Fatal(err)
	}
	engines := []struct {
		name string
		e    Engine
	}{
		{"html embed", benchHTML(t)},
		{"html dir", dirHTML},
		{"django embed", benchDjango(t)},
		{"django dir", dirDjango},
		{"django engine layout", benchDjangoEngineLayout(t)},
	}
	for _, tt := range engines {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(tt.e, "index.html", "", benchData)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("body differs from testdata/bench/expected.html:\n%s", got)
			}
		})
	}
}

// benchRender renders the page the way the core does: into a reused
// bytes.Buffer (core's pool of body buffers).
func benchRender(b *testing.B, e Engine) {
	b.ReportAllocs()
	buf := new(bytes.Buffer)
	for b.Loop() {
		buf.Reset()
		if err := e.ExecuteWriter(buf, "index.html", "", benchData); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func benchRenderParallel(b *testing.B, e Engine) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		buf := new(bytes.Buffer)
		for pb.Next() {
			buf.Reset()
			if err := e.ExecuteWriter(buf, "index.html", "", benchData); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkHTML(b *testing.B)               { benchRender(b, benchHTML(b)) }
func BenchmarkHTMLParallel(b *testing.B)       { benchRenderParallel(b, benchHTML(b)) }
func BenchmarkDjango(b *testing.B)             { benchRender(b, benchDjango(b)) }
func BenchmarkDjangoParallel(b *testing.B)     { benchRenderParallel(b, benchDjango(b)) }
func BenchmarkDjangoEngineLayout(b *testing.B) { benchRender(b, benchDjangoEngineLayout(b)) }

// BenchmarkHTMLReload shows what Reload costs per render (a directory walk).
func BenchmarkHTMLReload(b *testing.B) {
	e, err := NewHTMLDir("testdata/bench/html", ".html", WithLayout("layouts/layout.html"), WithReload(true))
	if err != nil {
		b.Fatal(err)
	}
	benchRender(b, e)
}
