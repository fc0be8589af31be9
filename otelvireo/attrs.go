// The per-route cache of span names and attribute sets.
//
// What a request's span and metrics are named and labelled with depends
// only on its route, method, scheme and status, and all four take few
// values: routes are registered, methods outside the standard ones are
// "_OTHER", the scheme is http or https and statuses are three digits. So
// each combination gets one entry, built on its first request and reused
// by every later one: the span name ("GET /users/{id}"), the attributes the
// span gets at its end, and the metric options (an attribute.Set, sorted
// and hashed once). The entries live in a map behind an atomic pointer,
// copied on write: a request reads it without a lock and allocates nothing,
// a new combination copies the map once under a mutex. Past maxEntries
// (a bound no registered application reaches) an entry is built per
// request and not kept.

package otelvireo

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/vireo-go/vireo/core"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
)

// maxEntries bounds the cache.
const maxEntries = 1 << 14

// entryKey is what an entry depends on. status is 0 for the entries of
// http.server.active_requests, which carry no route and no status.
type entryKey struct {
	route  *core.Route
	method string // normalized: a standard method or "_OTHER"
	https  bool
	status int
}

// entry is what a request of one key is named and labelled with.
type entry struct {
	name     string               // the span name
	spanEnd  []attribute.KeyValue // set on the span at its end
	measure  []metric.RecordOption
	addition []metric.AddOption // active_requests
}

type entryCache struct {
	m  atomic.Pointer[map[entryKey]*entry]
	mu sync.Mutex
}

// get returns the entry of k, building it on first use.
func (c *entryCache) get(k entryKey) *entry {
	if m := c.m.Load(); m != nil {
		if e, ok := (*m)[k]; ok {
			return e
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil {
		if e, ok := (*old)[k]; ok {
			return e
		}
		if len(*old) >= maxEntries {
			return newEntry(k)
		}
	}
	e := newEntry(k)
	var m map[entryKey]*entry
	if old == nil {
		m = make(map[entryKey]*entry, 8)
	} else {
		m = make(map[entryKey]*entry, len(*old)+1)
		for k, v := range *old {
			m[k] = v
		}
	}
	m[k] = e
	c.m.Store(&m)
	return e
}

// newEntry builds the entry of k.
func newEntry(k entryKey) *entry {
	scheme := "http"
	if k.https {
		scheme = "https"
	}
	common := []attribute.KeyValue{
		semconv.HTTPRequestMethodKey.String(k.method),
		semconv.URLSchemeKey.String(scheme),
	}
	if k.status == 0 {
		set := attribute.NewSet(common...)
		return &entry{addition: []metric.AddOption{metric.WithAttributeSet(set)}}
	}
	e := &entry{name: spanName(k.method, k.route)}
	var end []attribute.KeyValue
	if k.route != nil {
		end = append(end, semconv.HTTPRouteKey.String(k.route.Pattern))
	}
	end = append(end, semconv.HTTPResponseStatusCodeKey.Int(k.status))
	if k.status >= 500 {
		end = append(end, semconv.ErrorTypeKey.String(strconv.Itoa(k.status)))
	}
	e.spanEnd = end
	set := attribute.NewSet(append(common, end...)...)
	e.measure = []metric.RecordOption{metric.WithAttributeSet(set)}
	return e
}

// spanName is "METHOD /pattern" for a matched request, the method alone
// for an unmatched one, and "HTTP" for a method outside the standard ones
// with no route.
func spanName(method string, rt *core.Route) string {
	if method == otherMethod {
		method = "HTTP"
	}
	if rt == nil {
		return method
	}
	return method + " " + rt.Pattern
}

// otherMethod stands for every method outside the standard ones.
const otherMethod = "_OTHER"

// normalMethod returns m when it is a standard method, else "_OTHER", so
// that a client inventing methods cannot grow the metric series.
func normalMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace, "QUERY":
		return m
	}
	return otherMethod
}
