// This file holds the header rules of TechEmpower's verify_headers: Server,
// Date and Content-Type present; a body size given by Content-Length or
// Transfer-Encoding (Go's client reports a chunked body as ContentLength
// -1 and drops the header, so the raw header map is what is looked at
// first); a Date in RFC 1123 form with a zone (a warning otherwise, as
// theirs); a Content-Type matching the type's pattern; and a Date that
// changes between two requests DateWait apart.
package tfb

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// contentTypes are TechEmpower's patterns of the Content-Type header.
var contentTypes = map[Type]*regexp.Regexp{
	JSON:      regexp.MustCompile(`^application/json(; ?charset=(UTF|utf)-8)?$`),
	Plaintext: regexp.MustCompile(`^text/plain(; ?charset=(UTF|utf)-8)?$`),
	Fortunes:  regexp.MustCompile(`^text/html; ?charset=(UTF|utf)-8$`),
}

func contentType(t Type) *regexp.Regexp {
	if re, ok := contentTypes[t]; ok {
		return re
	}
	return contentTypes[JSON] // db, queries and updates answer JSON
}

// dateLayout is the Date format their verifier parses ('%a, %d %b %Y
// %H:%M:%S %Z').
const dateLayout = "Mon, 02 Jan 2006 15:04:05 MST"

func checkHeaders(t Type, r *response) []Problem {
	var ps []Problem
	for _, h := range []string{"Server", "Date", "Content-Type"} {
		if r.header.Get(h) == "" {
			ps = append(ps, Problem{Fail, "header " + h, r.url, "required response header missing: " + h})
		}
	}
	if r.header.Get("Content-Length") == "" && r.header.Get("Transfer-Encoding") == "" && !r.chunked {
		ps = append(ps, Problem{Fail, "size header", r.url, "neither Content-Length nor Transfer-Encoding"})
	}
	if d := r.header.Get("Date"); d != "" {
		if _, err := time.Parse(dateLayout, d); err != nil {
			ps = append(ps, Problem{Warn, "Date format", r.url, fmt.Sprintf("Date %q is not %q", d, dateLayout)})
		}
	}
	if ct := r.header.Get("Content-Type"); ct != "" && !contentType(t).MatchString(ct) {
		ps = append(ps, Problem{Fail, "Content-Type", r.url, fmt.Sprintf("Content-Type %q does not match %s", ct, contentType(t))})
	}
	return ps
}

// checkDates waits DateWait once, requests each type's URL again and fails
// every type whose Date did not change.
func (v *Verifier) checkDates(ctx context.Context, types []Type, first map[Type]*response) []Problem {
	wait := v.DateWait
	if wait == 0 {
		wait = 3 * time.Second
	}
	select {
	case <-time.After(wait):
	case <-ctx.Done():
		return []Problem{{Fail, "cached Date", "", ctx.Err().Error()}}
	}
	var ps []Problem
	for _, t := range types {
		r1 := first[t]
		if r1 == nil || r1.header.Get("Date") == "" {
			continue
		}
		r2, err := v.get(ctx, t, r1.url)
		if err != nil {
			ps = append(ps, Problem{Fail, "cached Date", r1.url, err.Error()})
			continue
		}
		if d1, d2 := r1.header.Get("Date"), r2.header.Get("Date"); d1 == d2 {
			ps = append(ps, Problem{Fail, "cached Date", r1.url, fmt.Sprintf("Date %q on two requests %s apart", d1, wait)})
		}
	}
	return ps
}
