// Response bodies.
//
// Encoded bodies (JSON, XML, views) are built in a pooled buffer first and
// written with their Content-Length only when encoding succeeded, so an
// encoding error becomes a clean 500 instead of half a document.
//
// The buffers come from one pool (bodyBuffers, internal/bufpool) that
// keeps them whatever their size up to 1 MiB. (bytebufferpool, which JSON
// and XML used before, keeps only buffers up to a size it calibrates from
// the sizes put back: once most bodies had been small, as behind a stream
// of small JSON answers, it dropped every larger buffer, and each larger
// body allocated a buffer and grew it again.)
//
// The writers return nothing: a failure (an encoding error, a client that
// went away) stops the chain through StopWithError, where the error page
// and StopError report it. A handler that must know checks ctx.StopError().

package core

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"strconv"

	"github.com/vireo-go/vireo/internal/bufpool"
)

// bodyBuffers holds the buffers that JSON, XML and View encode into.
var bodyBuffers = bufpool.New(1 << 20)

// Header values for the common content types, shared so that setting one
// does not allocate. net/http only reads header values; handlers that want
// to change the Content-Type call SetContentType, which replaces the slice.
var (
	textPlainUTF8 = []string{"text/plain; charset=utf-8"}
	textHTMLUTF8  = []string{"text/html; charset=utf-8"}
	jsonUTF8      = []string{"application/json; charset=utf-8"}
	xmlUTF8       = []string{"application/xml; charset=utf-8"}
	nosniff       = []string{"nosniff"}
)

// setContentTypeIfUnset sets the Content-Type to ct unless one is set.
func (c *state) setContentTypeIfUnset(ct []string) {
	c.headers().SetHeaderIfUnset("Content-Type", ct)
}

// Text writes text as text/plain (unless a Content-Type was set).
func (c Context) Text(text string) {
	s, pin := c.enter()
	if s == nil {
		return
	}
	if pin {
		defer s.unpin()
	}
	s.setContentTypeIfUnset(textPlainUTF8) // text's body: one call less
	s.writeOrStop(s.writeString(text))
}

func (c *state) text(s string) {
	c.setContentTypeIfUnset(textPlainUTF8)
	c.writeOrStop(c.writeString(s))
}

// writeOrStop records a failed body write with StopWithError, so that the
// writers that return nothing still report it through StopError.
func (c *state) writeOrStop(_ int, err error) {
	if err != nil && err != ErrContextReleased {
		c.stopWithError(err)
	}
}

// HTML writes text as text/html (unless a Content-Type was set). text is sent as
// is: escape untrusted data yourself or use View.
func (c Context) HTML(text string) {
	s, pin := c.enter()
	if s == nil {
		return
	}
	if pin {
		defer s.unpin()
	}
	s.writeHTML(text)
}

func (c *state) writeHTML(s string) {
	c.setContentTypeIfUnset(textHTMLUTF8)
	c.writeOrStop(c.writeString(s))
}

// JSON writes v encoded as JSON. A value that cannot be encoded stops the
// chain with a 500 and nothing of the document is sent.
func (c Context) JSON(v any) {
	s, pin := c.enter()
	if s == nil {
		return
	}
	if pin {
		defer s.unpin()
	}
	s.writeJSON(v)
}

func (c *state) writeJSON(v any) {
	c.writeJSONIndent(v, "")
}

// JSONIndent writes v encoded as JSON, each level indented by indent.
func (c Context) JSONIndent(v any, indent string) {
	run(c, func(s *state) {
		s.writeJSONIndent(v, indent)
	})
}

func (c *state) writeJSONIndent(v any, indent string) {
	buf := bodyBuffers.Get()
	defer bodyBuffers.Put(buf)
	enc := json.NewEncoder(buf)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		c.stopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: err})
		return
	}
	buf.Truncate(buf.Len() - 1) // Encode's trailing newline
	c.writeBuffered(jsonUTF8, buf.Bytes())
}

// XML writes v encoded as XML, with the XML header. A value that cannot be
// encoded stops the chain with a 500.
func (c Context) XML(v any) {
	run(c, func(s *state) {
		s.writeXML(v)
	})
}

func (c *state) writeXML(v any) {
	buf := bodyBuffers.Get()
	defer bodyBuffers.Put(buf)
	buf.WriteString(xml.Header)
	if err := xml.NewEncoder(buf).Encode(v); err != nil {
		c.stopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: err})
		return
	}
	c.writeBuffered(xmlUTF8, buf.Bytes())
}

// netHTTPBuffer is the size of the buffer net/http's response writer fills
// before it sends the header (bufferBeforeChunkingSize in net/http; the
// HTTP/2 server's is larger): a handler whose whole body fits in it gets its
// Content-Length from net/http, HEAD responses included.
const netHTTPBuffer = 2048

// writeBuffered writes a complete body with its Content-Type (unless one
// was set) and its Content-Length; a failed write stops the chain with its
// error. A body that fits in net/http's buffer is sized by net/http, which
// is cheaper than setting the header here; a larger one gets the header
// assigned directly, the key being canonical already, so that it is not
// sent chunked.
func (c *state) writeBuffered(contentType []string, body []byte) {
	c.setContentTypeIfUnset(contentType)
	if len(body) > netHTTPBuffer {
		c.out.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	c.writeOrStop(c.write(body))
}

// Redirect replies with a redirect to url (absolute or relative to the
// request path) and stops the chain. code must be a 3xx status; 0 means 302.
func (c Context) Redirect(url string, code int) {
	run(c, func(s *state) {
		s.redirect(url, code)
	})
}

func (c *state) redirect(url string, code int) {
	if code == 0 {
		code = http.StatusFound
	}
	if code < 300 || code > 399 {
		c.stopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: errRedirectCode(code)})
		return
	}
	c.stop()
	http.Redirect(c.out, c.req(), url, code)
}

type errRedirectCode int

func (e errRedirectCode) Error() string {
	return "vireo: Redirect with non-3xx status " + strconv.Itoa(int(e))
}
