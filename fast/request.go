// *http.Request on the fasthttp engine.
//
// Request builds net/http's request from the exchange on its first call of
// a request: the method, URL, host and peer the exchange already copied, a
// Header map with a copy of every request header, a copy of the body, the
// TLS state, and the context.Context of Context, which ends with the
// request, as net/http's does. A handler that never asks for it pays nothing.

package fast

import (
	"net/http"
	"net/url"
)

func (x *exchange) Request() *http.Request {
	if x.req != nil {
		return x.req
	}
	h := &x.ctx.Request.Header
	hdr := make(http.Header, h.Len())
	for k, v := range h.All() {
		if string(k) == "Host" {
			continue // net/http keeps it in Host only
		}
		key := x.arena.string(k)
		hdr[key] = append(hdr[key], x.arena.string(v))
	}
	r := &http.Request{
		Method:        x.method,
		URL:           &url.URL{Path: x.path, RawPath: x.rawPath, RawQuery: x.rawQuery},
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        hdr,
		Host:          x.Host(),
		RemoteAddr:    x.RemoteAddr(),
		RequestURI:    x.uri,
		ContentLength: x.ContentLength(),
		TLS:           x.TLS(),
		Body:          http.NoBody,
	}
	if !h.IsHTTP11() {
		r.Proto, r.ProtoMinor = "HTTP/1.0", 0
	}
	if b := x.Body(); b != nil {
		r.Body = b
	}
	if x.path == "*" {
		r.URL = &url.URL{Path: "*"}
	}
	x.req = r.WithContext(x.Context())
	return x.req
}
