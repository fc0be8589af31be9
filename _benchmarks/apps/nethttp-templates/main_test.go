package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/core"
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
// those Vireo's Serve gives its own, read from the http.Server that Serve
// hands to its configure funcs, so that a default added to Vireo shows up
// here.
func TestServerMatchesVireo(t *testing.T) {
	type limits struct {
		readHeader, read, write, idle time.Duration
		maxHeaderBytes                int
	}
	of := func(s *http.Server) limits {
		return limits{s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout, s.MaxHeaderBytes}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	app := core.New(core.WithStartupOutput(nil))
	vireo := make(chan limits, 1)
	served := make(chan error, 1)
	go func() { served <- app.Serve(ln, func(s *http.Server) { vireo <- of(s) }) }()
	want := <-vireo
	if err := app.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if got := of(newServer(nil)); got != want {
		t.Errorf("server limits %+v, Vireo's %+v", got, want)
	}
}
