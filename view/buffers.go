// A plain pool of render buffers.
//
// The engines need a scratch buffer only for what they cannot stream into
// the caller's writer: a partial whose name is computed at render time (HTML)
// and a page rendered before its engine layout (Django). They come from an
// internal/bufpool pool, which keeps buffers up to 64 KiB, so one huge page
// does not stay pinned in the pool.

package view

import "github.com/vireo-go/vireo/internal/bufpool"

// renderBuffers holds the engines' scratch buffers.
var renderBuffers = bufpool.New(64 << 10)
