// Strings that outlive fasthttp's buffers.
//
// fasthttp reuses a connection's buffers for its next request, so a string
// made over them without a copy (Fiber's choice) changes under a handler
// that kept it. An arena copies request bytes into blocks of its own and
// hands out strings over the copies. It only appends: bytes once handed out
// are never written again, and a full block is dropped, not reused, so a
// string stays valid for as long as anything refers to it (the garbage
// collector keeps its block alive). One block serves many requests, which
// makes the copies cost no allocation per request on average. The []string
// of a header's values comes from a block of strings kept the same way. An
// arena belongs to one exchange and is used by one goroutine at a time.

package fast

import "unsafe"

const (
	arenaBlock   = 8 << 10 // bytes per block
	arenaLarge   = 1 << 10 // a string longer than this gets a block of its own
	arenaStrings = 64      // strings per block of string slices
)

type arena struct {
	buf  []byte   // the current block; buf[len(buf):cap(buf)] is free
	strs []string // the current block of string slices, the same way
}

// string returns a copy of b that stays valid after b is reused.
func (a *arena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaLarge {
		return string(b)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, arenaBlock)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	p := a.buf[start:len(a.buf):len(a.buf)]
	return unsafe.String(unsafe.SliceData(p), len(p))
}

// strings returns a slice of n strings that no other call hands out: the
// caller fills it and may give it away.
func (a *arena) strings(n int) []string {
	if n > arenaStrings/4 {
		return make([]string, n)
	}
	if cap(a.strs)-len(a.strs) < n {
		a.strs = make([]string, 0, arenaStrings)
	}
	start := len(a.strs)
	a.strs = a.strs[:start+n]
	return a.strs[start : start+n : start+n]
}
