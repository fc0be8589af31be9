//go:build (amd64 || arm64) && !purego

// The identity of the running goroutine, for the handle gate (handle.go):
// the address of its runtime g structure, read by goroutine_$GOARCH.s. It
// is compared, never dereferenced: a goroutine's g stays the same while it
// runs, and the gate only asks whether the caller is the goroutine a state
// recorded while that goroutine is still serving the state's request.
//
// The purego build tag (go build -tags purego) leaves the assembly out on
// every architecture: goroutine_other.go then knows no owner and every
// Context call pins, the portable path, so the two can be compared.

package core

// ownerFastPath reports whether the serving goroutine is recognised
// (handle.go): true with the assembly curg.
const ownerFastPath = true

// curg returns the address of the calling goroutine's g.
//
//go:noescape
func curg() uintptr
