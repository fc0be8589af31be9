// Package expected_test renders the canonical views with Vireo's own view
// engines, the ones the Vireo templates app uses, and requires the canonical
// page byte for byte: html/template through a layout that yields the page,
// and pongo2 through {% extends %}. The page gets its title as data, as every
// stack's handler passes it.
package expected_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/view"
)

func TestVireoEnginesRenderCanonicalPage(t *testing.T) {
	want, err := os.ReadFile("templates.html")
	if err != nil {
		t.Fatal(err)
	}
	type page struct{ Title string }
	htmlLayout, err := view.NewHTMLDir("views-html", ".html", view.WithLayout("layouts/layout.html"))
	if err != nil {
		t.Fatal(err)
	}
	html, err := view.NewHTMLDir("views-html", ".html")
	if err != nil {
		t.Fatal(err)
	}
	django, err := view.NewDjangoDir("views-django", ".html")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		engine view.Engine
		layout string
		data   any
	}{
		{"html, default layout, struct", htmlLayout, "", page{"Home Page"}},
		{"html, explicit layout, map", html, "layouts/layout.html", map[string]any{"Title": "Home Page"}},
		{"django, extends, map", django, view.NoLayout, map[string]any{"Title": "Home Page"}},
		{"django, extends, struct", django, view.NoLayout, page{"Home Page"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := tt.engine.ExecuteWriter(&got, "index.html", tt.layout, tt.data); err != nil {
				t.Fatal(err)
			}
			if d := benchtest.Diff(want, got.Bytes()); d != "" {
				t.Errorf("rendered page differs from templates.html: %s", d)
			}
		})
	}
}
