//go:build !purego && !race

// The gate's owner path in assembly (gate_amd64.s): enter is then one call
// of a leaf function instead of two nested ones, which a Context method
// pays on every call, and a parameter read is one call of a leaf with its
// body. The race detector does not see the assembly's loads, so a -race
// build takes the same checks in Go with atomics (gate_other.go).

package core

// enterState returns s when it is live for gen and the calling goroutine
// serves it; otherwise it returns what enterSlow(s, gen) returns.
//
//go:noescape
func enterState(s *state, gen uint64) (*state, bool)

// ownState records the calling goroutine as s's owner, as ownSlow does.
//
//go:noescape
func ownState(s *state)

// paramGate returns what paramSlow(s, gen, name) returns: the named
// parameter of a live s, or "".
//
//go:noescape
func paramGate(s *state, gen uint64, name string) string

// paramCount returns what paramCountSlow(s, gen) returns.
//
//go:noescape
func paramCount(s *state, gen uint64) int

// paramAt returns what paramAtSlow(s, gen, i) returns.
//
//go:noescape
func paramAt(s *state, gen uint64, i int) Param
