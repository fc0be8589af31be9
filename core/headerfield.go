// Response header fields built once.
//
// Middleware sets the same response headers on every request: CORS its
// Access-Control-* answers and a Vary token, SecureHeaders its policies,
// RateLimit its counts. Set one call per header (SetResponseHeader), each
// header costs a pass through the handle's gate (handle.go) and makes its
// constant name canonical again. A HeaderField is such a header made once,
// when the middleware is built: the name canonical, the values a slice
// every response shares. SetResponseHeaders then sets all the headers of a
// request in one gated call, Vary's read-modify-write included
// (NewHeaderFieldFunc), and, like every header write of a Context, hands
// the header map to no one, so an engine that reuses its map (fasthttp)
// keeps that reuse (see heldwriter.go).

package core

import "net/textproto"

// HeaderField is a response header built once and set on many responses
// with SetResponseHeaders: a name, made canonical when the field is built,
// and either values, which every response it is set on shares, or an
// update function (NewHeaderFieldFunc). The zero HeaderField sets nothing.
// A HeaderField is a small value, safe to share between goroutines.
type HeaderField struct {
	name   string
	values []string
	update func(values []string) []string
}

// NewHeaderField returns the field name: values, its name made canonical
// as textproto.CanonicalMIMEHeaderKey does. The values slice itself goes
// into every response the field is set on, so it must not be changed
// afterwards; its capacity is cut to its length, so that a later append
// (http.Header's Add, AddResponseHeader) copies it instead of writing into
// it. A field without values deletes the header; one with an empty name
// sets nothing.
func NewHeaderField(name string, values ...string) HeaderField {
	return HeaderField{name: textproto.CanonicalMIMEHeaderKey(name), values: values[:len(values):len(values)]}
}

// NewHeaderFieldFunc returns a field whose values SetResponseHeaders
// computes from those the header has so far: update gets them (nil when
// there are none) and returns the values to set, an empty result deleting
// the header. It is for a header that middleware extends rather than
// replaces, Vary above all, read, changed and set within the one call.
// The slice update gets is the response's own: it must not change its
// elements, but may return it, append to it (as http.Header's Add does) or
// return a slice of its own, which the response then shares as it shares
// NewHeaderField's values. update runs during the call, on the request's
// goroutine. The name is made canonical as NewHeaderField makes it;
// NewHeaderFieldFunc panics if update is nil.
func NewHeaderFieldFunc(name string, update func(values []string) []string) HeaderField {
	if update == nil {
		panic("core: NewHeaderFieldFunc: nil update function")
	}
	return HeaderField{name: textproto.CanonicalMIMEHeaderKey(name), update: update}
}

// WithValues returns f with values in place of its own (and of its update
// function): the same name, not made canonical again, for a value known
// only per request, such as a rate limit's remaining count or a request
// ID. The slice is kept and its capacity cut as NewHeaderField does. The
// zero HeaderField stays one that sets nothing.
func (f HeaderField) WithValues(values ...string) HeaderField {
	return HeaderField{name: f.name, values: values[:len(values):len(values)]}
}

// SetResponseHeaders sets the response headers of fields, in order, in one
// call: a field of NewHeaderField (or WithValues) replaces the values of
// its header with its own, or deletes the header when it has none, as
// assigning them to the header map does; a field of NewHeaderFieldFunc
// replaces them with what its update function returns. A zero HeaderField
// in fields is skipped, so an optional header can stay in the list. Like
// SetResponseHeader, it hands the header map to no one (see
// ResponseHeader), and headers reach the client with the status. The
// names are canonical already: the call costs one pass through the
// handle's checks for all the fields, where SetResponseHeader costs one
// per header and makes each name canonical.
func (c Context) SetResponseHeaders(fields ...HeaderField) {
	s, pin := c.enter()
	if s == nil {
		return
	}
	if pin {
		defer s.unpin() // a ResponseWriter's Header, an update function
	}
	hs := s.headers()
	for i := range fields {
		f := &fields[i]
		if f.name == "" {
			continue
		}
		vs := f.values
		if f.update != nil {
			vs = f.update(hs.HeaderValues(f.name))
		}
		hs.SetHeaderValues(f.name, vs)
	}
}
