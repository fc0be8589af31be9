// Response headers through the engine's store.
//
// Core sets response headers (SetResponseHeader, AddResponseHeader,
// SetResponseHeaders, cookies, the renderers' Content-Type) through an
// engine.HeaderStore: the engine writer's own when it has one (the fasthttp
// engine keeps such headers in a list, without a map operation) and
// nothing but core's writer stands in front of it, else engine.HeaderMap,
// the store of a header map (net/http's writers, a middleware's wrapper). Each
// operation does what the same code on the map did before, so the two
// stores are interchangeable; code that wants the map itself still calls
// Header, and the engine's store then moves what it kept into the map.

package core

import (
	"net/http"

	"github.com/vireo-go/vireo/internal/engine"
)

// headers returns the store the response headers are set through.
func (c *state) headers() engine.HeaderStore {
	if c.writer.store != nil && c.out == http.ResponseWriter(&c.writer) {
		return c.writer.store
	}
	return engine.HeaderMap(c.out.Header())
}
