// The module's version, reported as the instrumentation scope version.

package otelvireo

// Version is the version of this module, the instrumentation scope
// version of its tracer and meter.
const Version = "0.1.0"
