// Package bufpool pools bytes.Buffers of any size up to a bound.
//
// A sync.Pool of *bytes.Buffer costs a Get and a Put. Put empties the
// buffer and keeps it whatever its size, up to the pool's bound: a buffer
// that grew past that, for one huge body, is left to the garbage collector
// instead of staying pinned in the pool. There is no calibration from the
// sizes put back (bytebufferpool's, which drops every buffer larger than
// most), so a workload that mixes small and large bodies reuses the large
// buffers too.
package bufpool

import (
	"bytes"
	"sync"
)

// Pool is a pool of buffers. The zero Pool is not usable; make one with
// New.
type Pool struct {
	max  int
	pool sync.Pool
}

// New returns a pool that keeps buffers of capacity up to max bytes.
func New(max int) *Pool {
	return &Pool{max: max, pool: sync.Pool{New: func() any { return new(bytes.Buffer) }}}
}

// Get returns an empty buffer.
func (p *Pool) Get() *bytes.Buffer { return p.pool.Get().(*bytes.Buffer) }

// Put empties buf and keeps it for a later Get, unless it grew past the
// pool's bound.
func (p *Pool) Put(buf *bytes.Buffer) {
	if buf.Cap() > p.max {
		return
	}
	buf.Reset()
	p.pool.Put(buf)
}
