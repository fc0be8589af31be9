// The response headers of the fasthttp engine's writer.
//
// A header map costs the engine per request an insertion per header, a
// lookup of the Content-Type, an iteration (with its random start) to copy
// the headers into fasthttp's response header, and a clearing for the next
// request. So the writer keeps the headers core sets (engine.HeaderStore:
// SetResponseHeader, the middleware's fields, cookies, the renderers'
// Content-Type) in a list of its own instead, in the order set: a key (core
// makes it canonical) with one value, or with a slice of values that is
// shared and never written to, so that setting a header allocates nothing.
// Each operation does to the list what the same operation does to a map
// (a key is in the list once, at most). The list serves while the map is
// not asked for; Header moves the list into the map (map mode), for the
// code that reads or keeps the map, and from then on, until the request
// ends, the store works on the map. The Content-Type is kept beside the
// list rather than in it. When the status goes out, the list (or the map)
// is copied into fasthttp's response header, in order; fasthttp's own
// default type (text/plain; charset=utf-8) is not copied but left to
// fasthttp, which writes it as a constant when the response has a body.

package fast

import (
	"net/http"
	"slices"
	"unsafe"

	"github.com/valyala/fasthttp"

	"github.com/vireo-go/vireo/internal/engine"
)

var _ engine.HeaderStore = (*writer)(nil)

// field is one header of the list: its values, or its one value.
type field struct {
	key    string
	one    string
	single bool // the value is one, values is unused
	values []string
}

// slice returns f's values as a slice; a single value becomes one (the
// only allocation of the list, for a reader of a header set by value).
func (f *field) slice() []string {
	if f.single {
		f.values, f.one, f.single = []string{f.one}, "", false
	}
	return f.values
}

// headers is the list, or the map once it was asked for. The
// Content-Type, which nearly every response has and fasthttp keeps apart,
// is kept apart too (ct), so that a renderer's setting it and its sending
// search and copy no list.
type headers struct {
	list        []field
	ct          field // the Content-Type; its key is "" when there is none
	h           http.Header
	mapped      bool // the map holds the headers (Header was called)
	defaultType bool // the Content-Type is left to fasthttp's default (setContentType)
}

const contentType = "Content-Type"

// find returns the field of key, or nil.
func (hs *headers) find(key string) *field {
	if key == contentType {
		if hs.ct.key != "" {
			return &hs.ct
		}
		return nil
	}
	for i := range hs.list {
		if hs.list[i].key == key {
			return &hs.list[i]
		}
	}
	return nil
}

// put adds f, whose key is not kept yet.
func (hs *headers) put(f field) {
	if f.key == contentType {
		hs.ct = f
		return
	}
	hs.list = append(hs.list, f)
}

// remove deletes the field of key, if kept.
func (hs *headers) remove(key string) {
	if key == contentType {
		hs.ct = field{}
		return
	}
	for i := range hs.list {
		if hs.list[i].key == key {
			hs.list = slices.Delete(hs.list, i, i+1) // which zeroes the freed element
			return
		}
	}
}

// toMap moves the list into the map: map mode, until reset.
func (hs *headers) toMap() {
	if hs.ct.key != "" {
		hs.h[contentType] = hs.ct.slice()
	}
	for i := range hs.list {
		f := &hs.list[i]
		hs.h[f.key] = f.slice()
	}
	hs.dropList()
	hs.mapped = true
}

// dropList empties the list, keeping its array (and none of its strings).
func (hs *headers) dropList() {
	clear(hs.list)
	hs.list = hs.list[:0]
	hs.ct = field{}
}

// HeaderValues returns the values of key (h[key]).
func (w *writer) HeaderValues(key string) []string {
	if w.mapped {
		return engine.HeaderMap(w.h).HeaderValues(key)
	}
	if f := w.find(key); f != nil {
		return f.slice()
	}
	return nil
}

// SetHeader does h[key] = []string{value}, without the slice.
func (w *writer) SetHeader(key, value string) {
	if w.mapped {
		engine.HeaderMap(w.h).SetHeader(key, value)
		return
	}
	if f := w.find(key); f != nil {
		*f = field{key: key, one: value, single: true}
		return
	}
	w.put(field{key: key, one: value, single: true})
}

// SetHeaderValues does h[key] = values, or deletes key for no values.
func (w *writer) SetHeaderValues(key string, values []string) {
	if w.mapped {
		engine.HeaderMap(w.h).SetHeaderValues(key, values)
		return
	}
	if len(values) == 0 {
		w.remove(key)
		return
	}
	if f := w.find(key); f != nil {
		*f = field{key: key, values: values}
		return
	}
	w.put(field{key: key, values: values})
}

// AddHeader does h[key] = append(h[key], value).
func (w *writer) AddHeader(key, value string) {
	if w.mapped {
		engine.HeaderMap(w.h).AddHeader(key, value)
		return
	}
	f := w.find(key)
	if f == nil {
		w.put(field{key: key, one: value, single: true})
		return
	}
	vs := f.slice()
	f.values = append(vs[:len(vs):len(vs)], value) // a copy: vs may be shared
}

// SetHeaderIfUnset does h[key] = values unless key is in h.
func (w *writer) SetHeaderIfUnset(key string, values []string) {
	if w.mapped {
		engine.HeaderMap(w.h).SetHeaderIfUnset(key, values)
		return
	}
	if w.find(key) == nil {
		w.put(field{key: key, values: values})
	}
}

// sendHeaders copies the headers into fasthttp's response header and
// reports whether they type the body: a Content-Type (present, even with
// no value, as on net/http) or a Content-Encoding (which net/http does not
// sniff either). fasthttp frames the buffered body itself, so
// Content-Length and Transfer-Encoding are not copied.
func (hs *headers) sendHeaders(rh *fasthttp.ResponseHeader) (typed bool) {
	if hs.mapped {
		// The Content-Type is looked up rather than found by ranging: a map
		// holding nothing else then costs no iteration.
		ct, typed := hs.h[contentType]
		if len(ct) > 0 {
			hs.setContentType(rh, ct[0])
		}
		if typed && len(hs.h) == 1 {
			return true
		}
		for k, vs := range hs.h {
			if !sendable(k) {
				continue
			}
			typed = typed || k == "Content-Encoding"
			for _, v := range vs {
				rh.Add(k, v) // a key of the map may not be canonical
			}
		}
		return typed
	}
	if hs.ct.key != "" {
		typed = true
		hs.setContentType(rh, hs.ct.first())
	}
	for i := range hs.list {
		f := &hs.list[i]
		switch {
		case !sendable(f.key):
			continue
		case f.key == "Content-Encoding":
			typed = true
		}
		// The key is canonical and unique in the list: its first value is
		// set with SetCanonical, which skips fasthttp's normalising of the
		// key (AddBytesKV, which the other values need, does it). fasthttp
		// copies key and value, so views of the strings do.
		key := view(f.key)
		if f.single {
			rh.SetCanonical(key, view(f.one))
			continue
		}
		for j, v := range f.values {
			if j == 0 {
				rh.SetCanonical(key, view(v))
			} else {
				rh.AddBytesKV(key, view(v))
			}
		}
	}
	return typed
}

// setContentType sets the response's Content-Type to v. fasthttp's own
// default type, text/plain; charset=utf-8, is left to fasthttp, which
// writes it as a constant for a response with a body (Fiber's text
// responses): SetContentType would copy the value and scan it for line
// breaks. A response of that type that ends without a body gets it set
// by finishContentType.
func (hs *headers) setContentType(rh *fasthttp.ResponseHeader, v string) {
	switch v {
	case "":
	case defaultContentType:
		rh.SetNoDefaultContentType(false)
		hs.defaultType = true
	default:
		rh.SetContentType(v)
	}
}

// defaultContentType is the Content-Type fasthttp writes for a response
// with a body when none is set and its NoDefaultContentType is off.
const defaultContentType = "text/plain; charset=utf-8"

// finishContentType sets the default type that setContentType left to
// fasthttp on a response that fasthttp would send without it: one with no
// body (or whose status allows none, as fasthttp writes no default then).
func (w *writer) finishContentType() {
	if w.defaultType && (!w.bodied || !bodyAllowed(w.status)) {
		w.x.ctx.Response.Header.SetContentType(defaultContentType)
	}
}

// sendable reports whether the header named key is copied into fasthttp's
// response header (see sendHeaders).
func sendable(key string) bool {
	return key != contentType && key != "Content-Length" && key != "Transfer-Encoding"
}

// view returns the bytes of s without a copy, for a callee that only
// reads them.
func view(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// first returns f's first value, or "".
func (f *field) first() string {
	if f.single {
		return f.one
	}
	if len(f.values) > 0 {
		return f.values[0]
	}
	return ""
}
