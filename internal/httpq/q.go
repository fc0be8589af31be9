// Package httpq reads the quality values of HTTP list headers (Accept,
// Accept-Encoding) for the core's content negotiation and the compression
// middleware, so that both weigh a client's preferences the same way.
//
// A list element is a token or media range followed by ";"-separated
// parameters; its weight is the q parameter (RFC 9110, section 12.4.2), a
// number from 0 to 1 that defaults to 1. A malformed or out-of-range q
// counts as 0: a client that cannot spell its preference is not served
// what it may not accept.
package httpq

import (
	"strconv"
	"strings"
)

// Q returns the q value among params, the ";"-separated parameters that
// follow a list element ("q=0.8", " level=1; q=0"): 1 when there is none,
// 0 when it is malformed or outside [0, 1].
func Q(params string) float64 {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 || q > 1 {
				return 0
			}
			return q
		}
	}
	return 1
}
