package core

import (
	"net/http/httptest"
	"net/textproto"
	"testing"
)

// TestCanonicalKey: canonicalKey is textproto.CanonicalMIMEHeaderKey.
func TestCanonicalKey(t *testing.T) {
	for _, name := range []string{"", "Vary", "vary", "VARY", "X-Request-Id", "x-request-id", "X-Request-ID",
		"Access-Control-Allow-Origin", "Www-Authenticate", "WWW-Authenticate", "Ratelimit-Limit", "RateLimit-Limit",
		"X-2fa", "X-2Fa", "X--A", "-a", "A-", "Content_Type", "Foo Bar", "X-\xff", "Ünicode", "a", "A", "1", "-"} {
		if got, want := canonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Errorf("canonicalKey(%q) = %q, want %q", name, got, want)
		}
	}
	// Every name of one or two bytes, and every one of three bytes over
	// the bytes at the edges of canonBytes's classes.
	var names []string
	for a := range 256 {
		names = append(names, string([]byte{byte(a)}))
		for b := range 256 {
			names = append(names, string([]byte{byte(a), byte(b)}))
		}
	}
	edges := []byte("@AZ[`az{/09:-_ \x00\x7f\x80\xff")
	for _, a := range edges {
		for _, b := range edges {
			for _, c := range edges {
				names = append(names, string([]byte{a, b, c}))
			}
		}
	}
	for _, name := range names {
		if got, want := canonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Errorf("canonicalKey(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestResponseHeaderWithoutTheMap sets, adds and reads response headers
// through the Context methods that hand the header map to no one.
func TestResponseHeaderWithoutTheMap(t *testing.T) {
	shared := []string{"a", "b"}
	app := New()
	app.Get("/", func(c Context) {
		c.SetResponseHeaders(NewHeaderField("x-multi", shared...), NewHeaderField("X-Gone", "1"))
		c.SetResponseHeaders(NewHeaderField("X-Gone"))
		c.AddResponseHeader("x-added", "1")
		c.AddResponseHeader("X-Added", "2")
		if got := c.ResponseHeaderValues("x-added"); len(got) != 2 || got[0] != "1" || got[1] != "2" {
			t.Errorf("ResponseHeaderValues(x-added) %q", got)
		}
		if got := c.ResponseHeaderValues("X-Gone"); got != nil {
			t.Errorf("ResponseHeaderValues(X-Gone) %q, want nil", got)
		}
		c.WriteString("ok")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	h := rec.Result().Header
	if got := h.Values("X-Multi"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("X-Multi %q", got)
	}
	if _, ok := h["X-Gone"]; ok {
		t.Errorf("X-Gone %q, want deleted", h["X-Gone"])
	}
	if got := h.Values("X-Added"); len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Errorf("X-Added %q", got)
	}
}
