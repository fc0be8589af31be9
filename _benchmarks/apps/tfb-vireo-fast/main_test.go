package main

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// TestApp builds this app, starts it against a PostgreSQL with
// TechEmpower's data and runs TechEmpower's verifier rules on all six
// test types.
func TestApp(t *testing.T) { tfb.CheckGoApp(t, "tfb-vireo-fast") }
