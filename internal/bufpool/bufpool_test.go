package bufpool

import (
	"strings"
	"testing"
)

// TestPutKeepsUpToTheBound: a buffer put back comes out empty, and one
// past the bound is not kept.
func TestPutKeepsUpToTheBound(t *testing.T) {
	p := New(1 << 10)
	b := p.Get()
	b.WriteString("left over")
	p.Put(b)
	if got := p.Get(); got.Len() != 0 {
		t.Fatalf("Get returned a buffer holding %q", got.String())
	}

	huge := New(1 << 10)
	big := huge.Get()
	big.WriteString(strings.Repeat("x", 4<<10))
	huge.Put(big)
	if got := huge.Get(); got == big || got.Cap() != 0 {
		t.Fatalf("a buffer of capacity %d was kept by a pool bounded at 1 KiB", big.Cap())
	}
}

// TestLargeKeptAfterSmall: after many small buffers, a buffer near the
// bound is still reused: Get and Put of it allocate nothing. (Under the
// race detector sync.Pool drops a quarter of what it is given, about half
// an allocation a use, which AllocsPerRun's whole-number average rounds
// away.)
func TestLargeKeptAfterSmall(t *testing.T) {
	p := New(64 << 10)
	for range 50000 {
		b := p.Get()
		b.WriteString("small")
		p.Put(b)
	}
	body := strings.Repeat("x", 32<<10)
	use := func() {
		b := p.Get()
		b.WriteString(body)
		p.Put(b)
	}
	use()
	if n := testing.AllocsPerRun(1000, use); n > 0.5 {
		t.Errorf("a 32 KiB body after 50,000 small ones allocates %v times a use", n)
	}
}
