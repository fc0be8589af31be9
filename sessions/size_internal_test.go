// Guards the memory layout decisions: a shard spans two cache lines, a
// Record fits the 112-byte size class (on 64-bit platforms): 64 bytes of
// values, expiry and lock, 8 for the shared Session handle, 40 for the
// inline first value; a Session fits 80 bytes.

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
	if n := unsafe.Sizeof(Session{}); n > 80 {
		t.Errorf("Session is %d bytes, more than the 80-byte size class", n)
	}
	if n := unsafe.Sizeof(Record{}); n > 112 {
		t.Errorf("Record is %d bytes, more than the 112-byte size class", n)
	}
}
