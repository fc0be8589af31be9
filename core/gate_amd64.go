//go:build !purego && !race

// The gate's owner path in assembly (gate_amd64.s): enter is then one call
// of a leaf function instead of two nested ones, which a Context method
// pays on every call. The race detector does not see the assembly's loads,
// so a -race build takes enterSlow, the same check in Go with atomics.

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
