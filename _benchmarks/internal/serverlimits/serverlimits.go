// Package serverlimits holds the one test of the net/http apps that needs
// Vireo itself, kept out of benchtest so that the runner does not depend on
// the core.
package serverlimits

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

// CheckMatchesVireo compares the limits of the server that newServer
// returns (a net/http app's own) with those Vireo's Serve gives its own,
// read from the http.Server that Serve hands to its configure funcs, so
// that a default added to Vireo shows up in the net/http apps' tests.
func CheckMatchesVireo(t *testing.T, newServer func(http.Handler) *http.Server) {
	t.Helper()
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
	// Shutdown may come before Serve has registered its server (the
	// configure funcs run first): Serve then returns http.ErrServerClosed,
	// as net/http's does after Shutdown. The limits are read either way.
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		t.Fatal(err)
	}
	if got := of(newServer(nil)); got != want {
		t.Errorf("server limits %+v, Vireo's %+v", got, want)
	}
}
