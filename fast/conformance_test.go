package fast_test

import (
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/internal/conformance"
)

// TestConformance runs the suite core runs on net/http
// (internal/conformance) on the fast engine.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Target{Options: []core.Option{core.WithEngine(fast.Engine())}})
}
