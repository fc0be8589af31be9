// Request paths.
//
// Dispatch matches the decoded path, or the escaped one when the request
// escaped a slash (a %2F must stay inside its segment). A path with empty,
// "." or ".." segments is never served as is: patterns cannot contain such
// segments and the tree refuses to let a parameter capture one, so only a
// path that matched nothing needs the full cleanliness scan, and an unclean
// one is redirected to its clean form. Escaped dots (%2e) are decoded before
// matching like any other escape but a slash's, so /%2e%2e/ is a ".."
// segment and is redirected like the literal one; in an escaped path (one
// with %2F) the parameters are decoded after matching, and a decoded value
// with a "." or ".." segment is refused with 400.

package core

import (
	"net/url"
	"path"
	"strings"

	"github.com/vireo-go/vireo/internal/engine"
)

// matchPath returns the path dispatch matches: the decoded path, or the
// escaped one when the request escaped a slash, so that the slash stays
// inside its segment.
func matchPath(decoded, raw string) (p string, escaped bool) {
	if raw != "" && hasEscapedSlash(raw) {
		u := url.URL{Path: decoded, RawPath: raw}
		if ep := u.EscapedPath(); ep == raw {
			return ep, true
		}
	}
	return decoded, false
}

// hasEscapedSlash reports whether p contains %2F or %2f.
func hasEscapedSlash(p string) bool {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == '%' && p[i+1] == '2' && (p[i+2] == 'F' || p[i+2] == 'f') {
			return true
		}
	}
	return false
}

// hasDotSegment reports whether v, a decoded parameter value, has a "." or
// ".." segment.
func hasDotSegment(v string) bool {
	for {
		seg, rest, more := strings.Cut(v, "/")
		if seg == "." || seg == ".." {
			return true
		}
		if !more {
			return false
		}
		v = rest
	}
}

// location turns p, a path in the form matchPath gave for x, into a
// Location header value.
func location(x engine.Exchange, p string) string {
	if _, escaped := matchPath(x.Path(), x.RawPath()); escaped {
		return p
	}
	return escapePath(p)
}

func escapePath(p string) string { return (&url.URL{Path: p}).EscapedPath() }

// isCleanPath reports whether p has no empty, "." or ".." segments (a
// trailing slash is allowed), without allocating.
func isCleanPath(p string) bool {
	return p != "" && p[0] == '/' && isCleanTail(p[1:])
}

// isCleanTail reports whether s, a path that follows a slash, has no empty,
// "." or ".." segments, a trailing slash allowed. Only a segment starting
// with a slash or a dot needs a closer look.
func isCleanTail(s string) bool {
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i-1] != '/' {
			continue
		}
		switch s[i] {
		case '/':
			return false
		case '.':
			rest := s[i:]
			if len(rest) == 1 || rest[1] == '/' {
				return false
			}
			if rest[1] == '.' && (len(rest) == 2 || rest[2] == '/') {
				return false
			}
		}
	}
	return true
}

// cleanPath is path.Clean that keeps a trailing slash.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	cp := path.Clean(p)
	if p[len(p)-1] == '/' && cp != "/" {
		cp += "/"
	}
	return cp
}
