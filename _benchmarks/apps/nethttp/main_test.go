package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/core"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "nethttp") }

// TestServerDefaultsMatchVireo keeps the server settings equal to those
// Vireo's Serve applies, so the floor pays for the same safety.
func TestServerDefaultsMatchVireo(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"ReadHeaderTimeout", int64(readHeaderTimeout), int64(core.DefaultReadHeaderTimeout)},
		{"IdleTimeout", int64(idleTimeout), int64(core.DefaultIdleTimeout)},
		{"MaxHeaderBytes", maxHeaderBytes, core.DefaultMaxHeaderBytes},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, Vireo's default is %d", c.name, c.got, c.want)
		}
	}
}
