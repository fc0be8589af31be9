// Response headers through the engine's store.
//
// Core sets response headers (SetResponseHeader, AddResponseHeader,
// SetResponseHeaders, cookies, the renderers' Content-Type) through an
// engine.HeaderStore: the engine writer's own when it has one (the fasthttp
// engine keeps such headers in a list, without a map operation) and
// nothing but core's writer stands in front of it; a writer in front that
// is a store itself (the writer handle ResponseWriter returns, and
// Compress's writer, which forwards to it); else engine.HeaderMap, the
// store of a header map (net/http's writers, other wrappers). Each
// operation does what the same code on the map did before, so the two
// stores are interchangeable; code that wants the map itself still calls
// Header, and the engine's store then moves what it kept into the map.

package core

import (
	"net/http"

	"github.com/vireo-go/vireo/internal/engine"
)

// headers returns the store the response headers are set through.
func (c *state) headers() engine.HeaderStore { return c.storeOf(c.out) }

// storeOf returns the header store of w, a writer of this request: the
// engine writer's for core's own writer, w itself when it is a store (the
// writer handle, a middleware's writer that forwards to it), else the
// store of w's map, which stays with w (nothing is handed out).
func (c *state) storeOf(w http.ResponseWriter) engine.HeaderStore {
	if w == http.ResponseWriter(&c.writer) {
		if c.writer.store != nil {
			return c.writer.store
		}
		return engine.HeaderMap(c.writer.Header())
	}
	return engine.StoreOf(w)
}
