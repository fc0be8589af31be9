package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestApp builds this app, starts it on a free port with a certificate of
// its own and checks it against expected/endpoints.json over HTTP/2 and
// HTTP/1.1, each negotiated by ALPN.
func TestApp(t *testing.T) { benchtest.CheckGoApp(t, "iris-h2") }
