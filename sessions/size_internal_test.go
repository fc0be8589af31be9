// Guards the memory layout decisions: a shard spans two cache lines, a
// Record fits the 96-byte size class (on 64-bit platforms): 48 bytes of
// values, expiry and lock, 8 for the part few records need (handle,
// own lifetime, index), 40 for the inline first value; a Session fits 64
// bytes.

package sessions

import (
	"testing"
	"unsafe"
)

func TestLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are checked on 64-bit platforms")
	}
	if n := unsafe.Sizeof(memShard{}); n != 128 {
		t.Errorf("memShard is %d bytes, want 128", n)
	}
	if n := unsafe.Sizeof(Session{}); n > 64 {
		t.Errorf("Session is %d bytes, more than the 64-byte size class", n)
	}
	if n := unsafe.Sizeof(Record{}); n > 96 {
		t.Errorf("Record is %d bytes, more than the 96-byte size class", n)
	}
}
