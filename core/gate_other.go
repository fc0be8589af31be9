//go:build !amd64 || purego || race

// Without gate_amd64.s the gate is enterSlow, in Go (handle.go).

package core

// enterState is enterSlow(s, gen).
func enterState(s *state, gen uint64) (*state, bool) { return enterSlow(s, gen) }

// ownState is ownSlow(s).
func ownState(s *state) { ownSlow(s) }
