//go:build amd64 || arm64

// The identity of the running goroutine, for the handle gate (handle.go):
// the address of its runtime g structure, read by goroutine_$GOARCH.s. It
// is compared, never dereferenced: a goroutine's g stays the same while it
// runs, and the gate only asks whether the caller is the goroutine a state
// recorded while that goroutine is still serving the state's request.

package core

// curg returns the address of the calling goroutine's g.
//
//go:noescape
func curg() uintptr
