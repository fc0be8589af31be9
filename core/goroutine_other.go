//go:build !amd64 && !arm64

// Without an assembly curg (goroutine_asm.go) no goroutine is known as a
// state's owner, and every Context call pins the state (handle.go).

package core

// curg returns 0: the running goroutine is not known.
func curg() uintptr { return 0 }
