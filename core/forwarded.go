// Scheme and host behind trusted proxies.
//
// Like ClientIP, Scheme and Host believe proxy headers only when the
// connection's peer is a proxy trusted with WithTrustedProxies, and only
// the header family that option names: with "Forwarded", the standard
// header of RFC 7239 (its last element, the one the nearest proxy added);
// with "X-Forwarded-For" or "X-Real-IP", X-Forwarded-Proto and
// X-Forwarded-Host (their last comma-separated value). A proxy rewrites or
// appends the headers of its own family, not the others, so a header of
// the other family may be the client's own and is never read. Values that
// are not a scheme of letters or a plausible host are ignored.

package core

import (
	"net"
	"strings"
)

// Scheme returns "https" or "http": the request's own (TLS or not), or the
// one a trusted proxy reports.
func (c Context) Scheme() string {
	s, pin := c.enter() // a plain read of the request: unpinned inline
	if s == nil {
		return ""
	}
	v := s.scheme()
	s.exit(pin)
	return v
}

func (c *state) scheme() string {
	if c.fromTrustedProxy() {
		var v string
		if c.app.proxyForwarded() {
			v = forwardedParam(c.x.HeaderValues("Forwarded"), "proto")
		} else {
			v = lastListValue(c.x.HeaderValues("X-Forwarded-Proto"))
		}
		if s := normScheme(v); s != "" {
			return s
		}
	}
	if c.x.TLS() != nil {
		return "https"
	}
	return "http"
}

// IsTLS reports whether the client's connection is secure: Scheme is
// "https".
func (c Context) IsTLS() bool {
	s, pin := c.enter()
	if s == nil {
		return false
	}
	v := s.isTLS()
	s.exit(pin)
	return v
}

func (c *state) isTLS() bool { return c.scheme() == "https" }

// Host returns the host the client asked for (with its port, if any): the
// request's Host, or the one a trusted proxy reports.
func (c Context) Host() string {
	s, pin := c.enter()
	if s == nil {
		return ""
	}
	v := s.host()
	s.exit(pin)
	return v
}

func (c *state) host() string {
	if c.fromTrustedProxy() {
		var v string
		if c.app.proxyForwarded() {
			v = forwardedParam(c.x.HeaderValues("Forwarded"), "host")
		} else {
			v = lastListValue(c.x.HeaderValues("X-Forwarded-Host"))
		}
		if validHost(v) {
			return v
		}
	}
	return c.x.Host()
}

// proxyForwarded reports whether the trusted proxies speak RFC 7239's
// Forwarded header rather than the X-Forwarded-* family.
func (app *Application) proxyForwarded() bool {
	return strings.EqualFold(app.proxyHeader, "Forwarded")
}

// forwardedFor returns the for= addresses of Forwarded values, one per
// element, left to right, each without quotes, brackets or port; an
// element without for= gives "".
func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for _, elem := range strings.Split(v, ",") {
			addr := elemParam(elem, "for")
			if strings.HasPrefix(addr, "[") { // "[2001:db8::1]:4711"
				if end := strings.IndexByte(addr, ']'); end > 0 {
					addr = addr[1:end]
				}
			} else if host, _, err := net.SplitHostPort(addr); err == nil {
				addr = host
			}
			hops = append(hops, addr)
		}
	}
	return hops
}

func (c *state) fromTrustedProxy() bool {
	if len(c.app.trustedProxies) == 0 {
		return false
	}
	return c.app.trusted(peerIP(c.x.RemoteAddr()))
}

// peerIP returns the address of the connection's peer, without its port.
func peerIP(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// forwardedParam returns param of the last element of Forwarded values.
func forwardedParam(values []string, param string) string {
	if len(values) == 0 {
		return ""
	}
	last := values[len(values)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return elemParam(last, param)
}

// elemParam returns param of one Forwarded element, without quotes, or "".
func elemParam(elem, param string) string {
	for _, pair := range strings.Split(elem, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && strings.EqualFold(k, param) {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

func lastListValue(values []string) string {
	if len(values) == 0 {
		return ""
	}
	v := values[len(values)-1]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}

func normScheme(s string) string {
	switch {
	case strings.EqualFold(s, "https"):
		return "https"
	case strings.EqualFold(s, "http"):
		return "http"
	}
	return ""
}

func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}
