//go:build !amd64 || purego || race

// Without gate_amd64.s the gate is written in Go: enterSlow (handle.go)
// and the parameter reads' slow paths (params.go).

package core

// enterState is enterSlow(s, gen).
func enterState(s *state, gen uint64) (*state, bool) { return enterSlow(s, gen) }

// ownState is ownSlow(s).
func ownState(s *state) { ownSlow(s) }

// paramGate is paramSlow(s, gen, name).
func paramGate(s *state, gen uint64, name string) string { return paramSlow(s, gen, name) }

// paramCount is paramCountSlow(s, gen).
func paramCount(s *state, gen uint64) int { return paramCountSlow(s, gen) }

// paramAt is paramAtSlow(s, gen, i).
func paramAt(s *state, gen uint64, i int) Param { return paramAtSlow(s, gen, i) }
