//go:build purego

package core

// purego is whether the test binary was built with -tags purego.
const purego = true
