package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/serverlimits"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "nethttp-templates") }

// TestViewsMatchExpected keeps the embedded views identical to the canonical
// ones in expected/views-html, which the other Go templates apps use too.
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

// TestServerMatchesVireo compares the limits of this app's server with
// those Vireo's Serve gives its own (see serverlimits.CheckMatchesVireo).
func TestServerMatchesVireo(t *testing.T) { serverlimits.CheckMatchesVireo(t, newServer) }
