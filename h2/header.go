// Header names between HTTP/2's lower case and Go's canonical form.
//
// The common names are in two fixed tables built once, so neither the
// request's canonical keys nor the response's lower-case names allocate
// for them; other names are converted on the way.

package h2

import (
	"net/http"
	"strings"
)

var commonNames = []string{
	"Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Accept-Ranges",
	"Access-Control-Allow-Origin", "Age", "Allow", "Authorization", "Cache-Control",
	"Content-Disposition", "Content-Encoding", "Content-Language", "Content-Length",
	"Content-Location", "Content-Range", "Content-Type", "Cookie", "Date", "Etag",
	"Expect", "Expires", "From", "Host", "If-Match", "If-Modified-Since", "If-None-Match",
	"If-Range", "If-Unmodified-Since", "Last-Modified", "Link", "Location", "Max-Forwards",
	"Origin", "Proxy-Authenticate", "Proxy-Authorization", "Range", "Referer", "Refresh",
	"Retry-After", "Server", "Set-Cookie", "Strict-Transport-Security", "Te", "Trailer",
	"User-Agent", "Vary", "Via", "Www-Authenticate", "X-Forwarded-For", "X-Forwarded-Proto",
	"X-Request-Id", "Priority",
}

var canonicalOf, lowerOf = func() (map[string]string, map[string]string) {
	c := make(map[string]string, len(commonNames))
	l := make(map[string]string, len(commonNames))
	for _, n := range commonNames {
		c[strings.ToLower(n)] = n
		l[n] = strings.ToLower(n)
	}
	return c, l
}()

// canonicalKey is http.CanonicalHeaderKey for a lower-case wire name.
func canonicalKey(name string) string {
	if k, ok := canonicalOf[name]; ok {
		return k
	}
	return http.CanonicalHeaderKey(name)
}

// lowerKey is the wire name of a header map key.
func lowerKey(k string) string {
	if l, ok := lowerOf[k]; ok {
		return l
	}
	return strings.ToLower(k)
}
