// Content negotiation.
//
// Negotiate picks, among the media types a handler can produce, the one the
// Accept header prefers: each offer gets the q-value of the most specific
// media range that matches it (type/subtype over type/* over */*), the
// highest q wins and ties go to the handler's order. A missing Accept
// accepts anything; an offer with q=0 is refused. Offers are tried best
// first until one can encode the value (XML cannot encode a map, JSON a
// channel), and offers Negotiate has no encoder for are passed over; when
// nothing fits the request is stopped with 406 and the list of what was
// available, never with a 500.

package core

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"

	"github.com/vireo-go/vireo/internal/httpq"
)

// Media types Negotiate knows how to write.
const (
	MIMEJSON = "application/json"
	MIMEXML  = "application/xml"
	MIMEHTML = "text/html"
	MIMEText = "text/plain"
)

var defaultOffers = []string{MIMEJSON, MIMEXML, MIMEHTML, MIMEText}

// NegotiateFormat returns the offer the client's Accept header prefers, or
// "" when it accepts none of them.
func (c Context) NegotiateFormat(offers ...string) string {
	return with(c, "", func(s *state) string {
		return s.negotiateFormat(offers...)
	})
}

func (c *state) negotiateFormat(offers ...string) string {
	accept := c.x.HeaderValues("Accept")
	if len(accept) == 0 && len(offers) > 0 {
		return offers[0]
	}
	best, bestQ := "", 0.0
	for _, o := range offers {
		if q := acceptQuality(accept, o); q > bestQ {
			best, bestQ = o, q
		}
	}
	return best
}

// acceptQuality returns the q-value Accept values give the media type
// offer, from the most specific matching range.
func acceptQuality(accept []string, offer string) float64 {
	otype, osub, _ := strings.Cut(offer, "/")
	q, spec := 0.0, -1
	for _, v := range accept {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			mr, params, _ := strings.Cut(item, ";")
			mr = strings.TrimSpace(mr)
			typ, sub, _ := strings.Cut(mr, "/")
			s := -1
			switch {
			case typ == "*" && sub == "*":
				s = 0
			case strings.EqualFold(typ, otype) && sub == "*":
				s = 1
			case strings.EqualFold(typ, otype) && strings.EqualFold(sub, osub):
				s = 2
			}
			if s > spec {
				spec, q = s, httpq.Q(params)
			}
		}
	}
	return q
}

// Markup is a value that renders itself as HTML. Negotiate writes its
// HTML result as it is; it must escape whatever it did not write itself.
type Markup interface {
	HTML() string
}

// Negotiate writes data in the format the client prefers among offers
// (default JSON, XML, HTML, text, in that order of preference for equal
// q-values): JSON and XML marshal data; text writes fmt.Sprint(data); HTML
// writes fmt.Sprint(data) escaped, strings included, unless data is a
// Markup, whose HTML method vouches for its output. When the client
// accepts none of the offers, the request is stopped with 406.
func (c Context) Negotiate(data any, offers ...string) {
	run(c, func(s *state) {
		s.negotiate(data, offers...)
	})
}

func (c *state) negotiate(data any, offers ...string) {
	if len(offers) == 0 {
		offers = defaultOffers
	}
	accept := c.x.HeaderValues("Accept")
	// The acceptable offers Negotiate can write, best first (ties in the
	// handler's order); each is tried until one encodes data.
	var ranked [8]rankedOffer
	cands := ranked[:0]
	for i, o := range offers {
		if !knownOffer(o) {
			continue
		}
		q := 1.0
		if len(accept) > 0 {
			q = acceptQuality(accept, o)
		}
		if q > 0 {
			cands = append(cands, rankedOffer{o, q, i})
		}
	}
	slices.SortStableFunc(cands, func(a, b rankedOffer) int { return cmp.Compare(b.q, a.q) })
	for _, o := range cands {
		switch o.mime {
		case MIMEJSON:
			if body, err := json.Marshal(data); err == nil {
				c.writeBuffered(jsonUTF8, body)
				return
			}
		case MIMEXML:
			if body, err := xml.Marshal(data); err == nil {
				c.writeBuffered(xmlUTF8, append([]byte(xml.Header), body...))
				return
			}
		case MIMEHTML:
			if m, ok := data.(Markup); ok {
				c.writeHTML(m.HTML())
			} else {
				c.writeHTML(html.EscapeString(fmt.Sprint(data)))
			}
			return
		case MIMEText:
			c.text(fmt.Sprint(data))
			return
		}
	}
	c.stopWithError(NewHTTPError(http.StatusNotAcceptable, "acceptable: "+strings.Join(offers, ", ")))
}

// rankedOffer is an offer of Negotiate with the q-value the client gives
// it and its place in the handler's list.
type rankedOffer struct {
	mime string
	q    float64
	i    int
}

// knownOffer reports whether Negotiate can write the media type o.
func knownOffer(o string) bool {
	return o == MIMEJSON || o == MIMEXML || o == MIMEHTML || o == MIMEText
}
