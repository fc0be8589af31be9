package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestApp builds this app, starts it on a free port and checks it against
// expected/endpoints.json.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "vireo-fast-sessions") }
