package conformance_test

import (
	"testing"

	"github.com/vireo-go/vireo/internal/conformance"
)

// TestConformance runs the engines' shared HTTP-level suite on net/http
// (here, so that core's tests do not import the packages above core);
// the fast module runs it on fasthttp.
func TestConformance(t *testing.T) { conformance.Run(t, conformance.Target{}) }
