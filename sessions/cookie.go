// This file reads the session cookie from a request and writes
// Set-Cookie headers.
//
// Reading scans the Cookie header lines directly instead of calling
// http.Request.Cookie, which parses every cookie into an *http.Cookie; the
// scan allocates nothing and yields at most maxCandidates values carrying
// the session's name. Writing sizes the header value first and builds it in
// one allocation: name, value, the expiry attributes, then the attributes
// computed once in New.
//
// Where the cookie goes. In a vireo request it goes through the Context
// (Context.AddResponseHeader), never into the response's header map, which
// the fast engine reuses for its next request once nothing kept it: a new
// session's cookie is added once, by its before-write hook, from the
// session's state then (written, regenerated, re-timed or destroyed); a
// returning session's sliding cookie at Start, the first of its name. Only
// a Destroy, Regenerate or UpdateExpiration of a returning session writes
// into the map (Context.ResponseHeader), replacing a Set-Cookie for the
// same name already in this response, so the client never receives two
// contradicting cookies from one session. (A returning session destroyed,
// then a new one written in the same request, sends the expired cookie and
// then the new one, which the client keeps.) In net/http code (HTTP, Wrap)
// the map is the request's own, and every cookie is set into it with that
// replacement.

package sessions

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cookieValues calls fn with the value of each cookie named name in the
// Cookie header lines, at most maxCandidates times, until fn returns true.
func cookieValues(lines []string, name string, fn func(value string) bool) {
	seen := 0
	for _, line := range lines {
		for len(line) > 0 {
			var part string
			part, line, _ = strings.Cut(line, ";")
			part = strings.TrimSpace(part)
			if len(part) <= len(name) || part[len(name)] != '=' || part[:len(name)] != name {
				continue
			}
			value := part[len(name)+1:]
			if len(value) > 1 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			if fn(value) {
				return
			}
			if seen++; seen >= maxCandidates {
				return
			}
		}
	}
}

// decodeCookie turns a cookie value into a session ID, or reports false
// for anything that is not the encoding of an ID this package made.
func (m *Manager) decodeCookie(value string) (string, bool) {
	if value == "" || len(value) > m.maxCookieLen {
		return "", false
	}
	if m.enc == nil {
		return value, ValidID(value)
	}
	var id string
	if err := m.enc.Decode(m.name, value, &id); err != nil {
		return "", false
	}
	return id, ValidID(id)
}

// encodeCookie turns an ID into the cookie value.
func (m *Manager) encodeCookie(id string) (string, error) {
	if m.enc == nil {
		return id, nil
	}
	return m.enc.Encode(m.name, id)
}

// Lengths of the variable parts of a Set-Cookie value.
const (
	expiredAttrs = "; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0"
	expiresAttr  = "; Expires="
	maxAgeAttr   = "; Max-Age="
	secureAttr   = "; Secure"
	httpDateLen  = len("Mon, 02 Jan 2006 15:04:05 GMT") // http.TimeFormat of a 4-digit year
)

// setCookie sets the Set-Cookie header carrying value. maxAge > 0 makes a
// persistent cookie, 0 a browser-session cookie and < 0 a deletion. The
// header value is built in one allocation of its exact size, and replaces
// this Manager's earlier line, if any (withCookie).
func (m *Manager) setCookie(h http.Header, tls bool, value string, maxAge time.Duration, now time.Time) {
	h["Set-Cookie"] = m.withCookie(h["Set-Cookie"], m.cookieHeader(tls, value, maxAge, now))
}

// withCookie returns the Set-Cookie lines list with v in place of this
// Manager's cookie, or added after them. list is not written to (it may be
// a slice the response shares): a replacement is made on a copy.
func (m *Manager) withCookie(list []string, v string) []string {
	if i := m.cookieIndex(list); i >= 0 {
		list = slices.Clone(list)
		list[i] = v
		return list
	}
	return append(list[:len(list):len(list)], v)
}

// maxAgeSeconds returns a cookie lifetime in whole seconds, rounded up so
// a sub-second lifetime still sets a cookie.
func maxAgeSeconds(maxAge time.Duration) int64 {
	return int64((maxAge + time.Second - 1) / time.Second)
}

// cookieSize returns the length of cookieHeader's result.
func (m *Manager) cookieSize(tls bool, value string, maxAge time.Duration) int {
	n := len(m.name) + 1 + len(value) + len(m.attrs)
	switch {
	case maxAge < 0:
		n += len(expiredAttrs)
	case maxAge > 0:
		var tmp [20]byte
		n += len(expiresAttr) + httpDateLen + len(maxAgeAttr) + len(strconv.AppendInt(tmp[:0], maxAgeSeconds(maxAge), 10))
	}
	if !m.secure && tls {
		n += len(secureAttr)
	}
	return n
}

// cookieHeader renders a Set-Cookie value into a buffer of exactly
// cookieSize bytes, the string's only allocation.
func (m *Manager) cookieHeader(tls bool, value string, maxAge time.Duration, now time.Time) string {
	var b strings.Builder
	b.Grow(m.cookieSize(tls, value, maxAge))
	b.WriteString(m.name)
	b.WriteByte('=')
	b.WriteString(value)
	var tmp [40]byte
	switch {
	case maxAge < 0:
		b.WriteString(expiredAttrs)
	case maxAge > 0:
		// Expires for old clients, Max-Age (which wins) for the rest.
		secs := maxAgeSeconds(maxAge)
		b.WriteString(expiresAttr)
		b.Write(now.Add(time.Duration(secs)*time.Second).UTC().AppendFormat(tmp[:0], http.TimeFormat))
		b.WriteString(maxAgeAttr)
		b.Write(strconv.AppendInt(tmp[:0], secs, 10))
	}
	b.WriteString(m.attrs)
	if !m.secure && tls {
		b.WriteString(secureAttr)
	}
	return b.String()
}

// cookieIndex returns the position in list of this Manager's cookie, or -1.
func (m *Manager) cookieIndex(list []string) int {
	for i, v := range list {
		if len(v) > len(m.name) && v[len(m.name)] == '=' && v[:len(m.name)] == m.name {
			return i
		}
	}
	return -1
}

// withdrawCookie removes this Manager's Set-Cookie from h (a new session
// whose save failed does not exist).
func (m *Manager) withdrawCookie(h http.Header) {
	list := h["Set-Cookie"]
	if i := m.cookieIndex(list); i >= 0 {
		list = append(list[:i], list[i+1:]...)
		if len(list) == 0 {
			delete(h, "Set-Cookie")
		} else {
			h["Set-Cookie"] = list
		}
	}
}

// cookieAttrs renders the attributes that never change after New.
func cookieAttrs(path, domain string, secure, httpOnly bool, sameSite http.SameSite) string {
	var b strings.Builder
	b.WriteString("; Path=")
	b.WriteString(path)
	if domain != "" {
		b.WriteString("; Domain=")
		b.WriteString(strings.TrimPrefix(domain, "."))
	}
	if httpOnly {
		b.WriteString("; HttpOnly")
	}
	if secure {
		b.WriteString("; Secure")
	}
	switch sameSite {
	case http.SameSiteLaxMode:
		b.WriteString("; SameSite=Lax")
	case http.SameSiteStrictMode:
		b.WriteString("; SameSite=Strict")
	case http.SameSiteNoneMode:
		b.WriteString("; SameSite=None")
	}
	return b.String()
}
