// This file reads the session cookie from a request and writes
// Set-Cookie headers.
//
// Reading scans the Cookie header lines directly instead of calling
// http.Request.Cookie, which parses every cookie into an *http.Cookie; the
// scan allocates nothing and yields at most maxCandidates values carrying
// the session's name. Writing appends the attributes computed once in
// NewManager to the name and value, and replaces a Set-Cookie for the same
// name already added in this response (a Regenerate or Destroy after
// Start), so the client never receives two contradicting cookies.

package sessions

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// cookieValues calls fn with the value of each cookie named name in r, at
// most maxCandidates times, until fn returns true.
func cookieValues(r *http.Request, name string, fn func(value string) bool) {
	seen := 0
	for _, line := range r.Header["Cookie"] {
		for len(line) > 0 {
			var part string
			if i := strings.IndexByte(line, ';'); i >= 0 {
				part, line = line[:i], line[i+1:]
			} else {
				part, line = line, ""
			}
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

// setCookie adds the Set-Cookie header carrying value. maxAge > 0 makes a
// persistent cookie, 0 a browser-session cookie and < 0 a deletion.
func (m *Manager) setCookie(w http.ResponseWriter, r *http.Request, value string, maxAge time.Duration, now time.Time) {
	var b strings.Builder
	b.Grow(len(m.name) + 1 + len(value) + len(m.attrs) + 64)
	b.WriteString(m.name)
	b.WriteByte('=')
	b.WriteString(value)
	var tmp [40]byte
	switch {
	case maxAge < 0:
		b.WriteString("; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0")
	case maxAge > 0:
		// Expires for old clients, Max-Age (which wins) for the rest.
		// Seconds are rounded up so a sub-second lifetime still sets a cookie.
		secs := int64((maxAge + time.Second - 1) / time.Second)
		b.WriteString("; Expires=")
		b.Write(now.Add(time.Duration(secs)*time.Second).UTC().AppendFormat(tmp[:0], http.TimeFormat))
		b.WriteString("; Max-Age=")
		b.Write(strconv.AppendInt(tmp[:0], secs, 10))
	}
	b.WriteString(m.attrs)
	if !m.secure && r.TLS != nil {
		b.WriteString("; Secure")
	}
	h := w.Header()
	list := h["Set-Cookie"]
	prefix := len(m.name) + 1
	for i, v := range list {
		if len(v) >= prefix && v[:prefix-1] == m.name && v[prefix-1] == '=' {
			list[i] = b.String()
			return
		}
	}
	h["Set-Cookie"] = append(list, b.String())
}

// cookieAttrs renders the attributes that never change after NewManager.
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
