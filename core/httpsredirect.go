// The HTTP to HTTPS redirect.
//
// RedirectHTTPS answers every request on a plain-HTTP listener with 308
// Permanent Redirect to the same path and query over HTTPS (308, not 301:
// a POST stays a POST with its body). The Host header is the client's, so
// the target host is never taken from it: the request's host name (its
// port dropped, case and a trailing dot ignored) must be one of the
// configured hosts, and the Location is built from that configuration,
// with the configured HTTPS port if any. A request for another host gets
// 421 Misdirected Request, so the handler cannot be used to send users to
// a host of an attacker's choosing (an open redirect).

package core

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// RedirectHTTPS returns an http.Handler, for the plain-HTTP port, that
// redirects requests for hosts to the same URL over HTTPS with 308. Each
// host is a name with an optional port, the HTTPS port when it is not 443
// ("example.com", "example.com:8443"); a request for a host not listed
// gets 421. Serve it with a second Application (Mount("/", h), then
// Listen(":80")), or pass it to an ACME manager's HTTP handler as its
// fallback. An empty or malformed host panics.
func RedirectHTTPS(hosts ...string) http.Handler {
	if len(hosts) == 0 {
		panic("vireo: RedirectHTTPS needs the hosts it redirects")
	}
	targets := make(map[string]string, len(hosts))
	for _, h := range hosts {
		name := h
		if n, port, err := net.SplitHostPort(h); err == nil {
			if port == "" || strings.Trim(port, "0123456789") != "" {
				panic(fmt.Sprintf("vireo: RedirectHTTPS: malformed port in %q", h))
			}
			name = n
		}
		if name == "" || strings.ContainsAny(name, "/?#@\\ ") || strings.Contains(name, ":") && !strings.HasPrefix(h, "[") {
			panic(fmt.Sprintf("vireo: RedirectHTTPS: malformed host %q", h))
		}
		targets[normalHost(name)] = h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.Host
		if n, _, err := net.SplitHostPort(name); err == nil {
			name = n
		}
		target, ok := targets[normalHost(name)]
		if !ok {
			http.Error(w, "Misdirected Request: this server redirects only its own hosts to HTTPS", http.StatusMisdirectedRequest)
			return
		}
		path := r.URL.EscapedPath()
		if !strings.HasPrefix(path, "/") {
			path = "/" + path // "*" of OPTIONS, or empty
		}
		if r.URL.RawQuery != "" {
			path += "?" + r.URL.RawQuery
		}
		w.Header().Set("Location", "https://"+target+path)
		w.WriteHeader(http.StatusPermanentRedirect)
	})
}

// normalHost is a host name as compared: lower case, no trailing dot, no
// IPv6 brackets.
func normalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
}
