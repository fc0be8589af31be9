package core

import (
	"net/url"
	"testing"
)

func mustURL(t *testing.T, p string) *url.URL {
	u, err := url.ParseRequestURI(p)
	if err != nil {
		t.Skipf("not a request URI: %v", err)
	}
	return u
}

func parseRequestURI(p string) (*url.URL, error) { return url.ParseRequestURI(p) }
