//go:build (!amd64 && !arm64) || purego

// Without an assembly curg (goroutine_asm.go; other architectures, or
// the purego build tag) no goroutine is known as a
// state's owner, and every Context call pins the state (handle.go).

package core

// ownerFastPath reports whether the serving goroutine is recognised
// (handle.go): false, every call pins.
const ownerFastPath = false

// curg returns 0: the running goroutine is not known.
func curg() uintptr { return 0 }
