// Request cookies.
//
// RequestCookie reads the request's Cookie header lines through the
// exchange (RequestHeaderValues) and scans them as net/http's
// Request.Cookie does (readCookies), instead of asking for the
// *http.Request, which an engine other than net/http builds only for that
// (see engine.go): a line is cut at each ';', each part trimmed and cut at
// its first '='; a part whose name is not a token, or whose value
// (without one pair of surrounding double quotes) has a byte outside
// net/http's cookie-octets, is skipped; the first valid part of the name
// wins. More than maxCookies cookies in all, net/http's default limit
// (GODEBUG httpcookiemaxnum), read as none. The scan allocates nothing.

package core

import (
	"net/textproto"
	"strings"
)

// maxCookies is net/http's default limit of cookies a request may carry
// (httpcookiemaxnum): beyond it, Request.Cookie finds none.
const maxCookies = 3000

// requestCookie returns the value of the first valid cookie named name in
// the Cookie header lines, and whether there is one (see the file comment).
func requestCookie(lines []string, name string) (string, bool) {
	if len(lines) == 0 || !isToken(name) {
		return "", false
	}
	n := 0
	for _, line := range lines {
		n += strings.Count(line, ";") + 1
	}
	if n > maxCookies {
		return "", false
	}
	for _, line := range lines {
		line = textproto.TrimString(line)
		var part string
		for len(line) > 0 {
			part, line, _ = strings.Cut(line, ";")
			part = textproto.TrimString(part)
			k, v, _ := strings.Cut(part, "=")
			if textproto.TrimString(k) != name {
				continue
			}
			if v, ok := cookieValue(v); ok {
				return v, true
			}
		}
	}
	return "", false
}

// cookieValue returns raw without one pair of surrounding double quotes,
// and whether every byte of it is a cookie-octet as net/http accepts them.
func cookieValue(raw string) (string, bool) {
	if len(raw) > 1 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	for i := 0; i < len(raw); i++ {
		if b := raw[i]; b < 0x20 || b >= 0x7f || b == '"' || b == ';' || b == '\\' {
			return "", false
		}
	}
	return raw, true
}

// isToken reports whether s is a non-empty RFC 9110 token, what a cookie
// name must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0:
		default:
			return false
		}
	}
	return true
}
