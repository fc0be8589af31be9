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
	tests := []struct {
		name   string
		engine view.Engine
		layout string
		data   any
	}{
		{"html, default layout, struct", view.HTMLDir("views-html", ".html").Layout("layouts/layout.html"), "", page{"Home Page"}},
		{"html, explicit layout, map", view.HTMLDir("views-html", ".html"), "layouts/layout.html", map[string]any{"Title": "Home Page"}},
		{"django, extends, map", view.DjangoDir("views-django", ".html"), view.NoLayout, map[string]any{"Title": "Home Page"}},
		{"django, extends, struct", view.DjangoDir("views-django", ".html"), view.NoLayout, page{"Home Page"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.engine.Load(); err != nil {
				t.Fatal(err)
			}
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
