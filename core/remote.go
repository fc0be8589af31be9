// Client address.
//
// The connection's peer is the only address a server can trust. A proxy
// header is believed only when the peer is a configured trusted proxy, and
// X-Forwarded-For (or the for= parameters of RFC 7239's Forwarded) is read
// from the right, skipping trusted hops, because the left-most entries are
// whatever the client chose to send.

package core

import (
	"net/netip"
	"strings"
)

// ClientIP returns the client's IP address: the connection's peer, or the
// address from the trusted proxy header set with WithTrustedProxies.
func (c Context) ClientIP() string {
	return with(c, "", func(s *state) string {
		return s.remoteAddr()
	})
}

func (c *state) remoteAddr() string {
	peer := peerIP(c.x.RemoteAddr())
	app := c.app
	if app.proxyHeader == "" || !app.trusted(peer) {
		return peer
	}
	v := c.x.HeaderValues(app.proxyHeader)
	if len(v) == 0 {
		return peer
	}
	var hops []string
	if app.proxyForwarded() {
		hops = forwardedFor(v)
	} else {
		hops = strings.Split(strings.Join(v, ","), ",")
	}
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if _, err := netip.ParseAddr(hop); err != nil {
			return peer // a malformed entry: trust nothing left of it
		}
		if i == 0 || !app.trusted(hop) {
			return hop
		}
	}
	return peer
}

func (app *Application) trusted(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range app.trustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
