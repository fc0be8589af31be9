// A plain pool of render buffers.
//
// The engines need a scratch buffer only for what they cannot stream into
// the caller's writer: a partial whose name is computed at render time (HTML)
// and a page rendered before its engine layout (Django). A sync.Pool of
// bytes.Buffers costs a Get and a Put; buffers that grew past maxPooledBuffer
// are left to the garbage collector, so one huge page does not stay pinned
// in the pool.

package view

import (
	"bytes"
	"sync"
)

// maxPooledBuffer is the largest buffer capacity put back into the pool.
const maxPooledBuffer = 64 << 10

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// getBuffer returns an empty buffer from the pool.
func getBuffer() *bytes.Buffer { return bufferPool.Get().(*bytes.Buffer) }

// putBuffer empties buf and returns it to the pool unless it grew too large.
func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	bufferPool.Put(buf)
}
