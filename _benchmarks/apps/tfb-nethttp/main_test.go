package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/serverlimits"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// TestApp builds this app, starts it against a PostgreSQL with
// TechEmpower's data and runs TechEmpower's verifier rules on all six
// test types.
func TestApp(t *testing.T) { tfb.CheckGoApp(t, "tfb-nethttp") }

// TestServerMatchesVireo compares the limits of this app's server with
// those Vireo's Serve gives its own (see serverlimits.CheckMatchesVireo):
// the floor must not carry a deadline Vireo does not set.
func TestServerMatchesVireo(t *testing.T) { serverlimits.CheckMatchesVireo(t, newServer) }
