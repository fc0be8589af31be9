package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "vireo-fast-mvc-templates") }

// TestViewsMatchExpected keeps the embedded views identical to the canonical
// ones in expected/views-html, which the Vireo templates app uses too.
func TestViewsMatchExpected(t *testing.T) {
	root, _ := benchtest.MustContract(t)
	for _, name := range []string{"index.html", "layouts/layout.html"} {
		want, err := os.ReadFile(filepath.Join(root, "expected", "views-html", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := views.ReadFile("views/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if d := benchtest.Diff(want, got); d != "" {
			t.Errorf("views/%s differs from expected/views-html/%s: %s", name, name, d)
		}
	}
}
