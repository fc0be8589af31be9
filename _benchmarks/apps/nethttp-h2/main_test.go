package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/serverlimits"
)

// TestApp builds this app, starts it on a free port with a certificate of
// its own and checks it against expected/endpoints.json over HTTP/2 and
// HTTP/1.1, each negotiated by ALPN.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "nethttp-h2") }

// TestServerMatchesVireo compares the limits of this app's server with
// those Vireo's Serve gives its own (see serverlimits.CheckMatchesVireo).
func TestServerMatchesVireo(t *testing.T) { serverlimits.CheckMatchesVireo(t, newServer) }
