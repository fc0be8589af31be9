// File downloads and server-sent events.
//
// Attachment sets Content-Disposition so that the browser saves the
// response as a file: the name goes in the quoted filename parameter as
// ASCII (other characters replaced) and, when it is not plain ASCII, also
// in filename* (RFC 6266, RFC 8187) percent-encoded as UTF-8.
//
// SSE prepares a text/event-stream response and returns an EventStream
// whose Send writes one event and flushes it. Each data line gets its own
// "data:" field, so data may contain newlines; event names and IDs may not.

package core

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Attachment marks the response as a download named filename.
func (c Context) Attachment(filename string) {
	run(c, func(s *state) {
		s.attachment(filename)
	})
}

func (c *state) attachment(filename string) {
	c.setResponseHeader("Content-Disposition", contentDisposition(filename))
}

// Download serves the file at path (as ServeFile does) as a download named
// filename, or the file's own base name when filename is "".
func (c Context) Download(path, filename string) {
	run(c, func(s *state) {
		s.download(path, filename)
	})
}

func (c *state) download(path, filename string) {
	if filename == "" {
		filename = path[strings.LastIndexAny(path, `/\`)+1:]
	}
	c.attachment(filename)
	c.serveFile(path)
}

func contentDisposition(name string) string {
	var ascii strings.Builder
	plain := true
	for _, r := range name {
		switch {
		case r == '"' || r == '\\':
			ascii.WriteByte('_')
			plain = false
		case r < 0x20 || r == 0x7f:
			ascii.WriteByte('_')
			plain = false
		case r > 0x7e:
			ascii.WriteByte('_')
			plain = false
		default:
			ascii.WriteRune(r)
		}
	}
	v := `attachment; filename="` + ascii.String() + `"`
	if !plain {
		v += "; filename*=UTF-8''" + extValue(name)
	}
	return v
}

// extValue percent-encodes s as the value of an RFC 8187 ext-value: every
// byte but the attr-chars (letters, digits and !#$&+-.^_`|~).
func extValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// EventStream writes server-sent events; see Context.SSE.
type EventStream struct {
	c  Context
	rc *http.ResponseController
}

// ErrInvalidEventField is returned by Send for an event name or ID with a
// line break.
var ErrInvalidEventField = errors.New("vireo: SSE event name or id with a line break")

// SSE starts a server-sent events response: it sets Content-Type
// text/event-stream, Cache-Control no-cache and X-Accel-Buffering no (for
// nginx), sends the status and flushes. It fails when the writer cannot
// flush (under a request timeout, for example). The stream ends when the
// handler returns; watch Request().Context().Done() for the client leaving.
func (c Context) SSE() (*EventStream, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) (*EventStream, error) {
		return s.sSE(c)
	})
}

func (c *state) sSE(ctx Context) (*EventStream, error) {
	h := c.out.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	rc := http.NewResponseController(c.out)
	c.out.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil, err
	}
	return &EventStream{c: ctx, rc: rc}, nil
}

// Send writes one event (event and id may be "") and flushes it. Every
// line of data (split at CRLF, LF or CR) becomes a data line.
func (s *EventStream) Send(event, id, data string) error {
	if strings.ContainsAny(event, "\r\n") || strings.ContainsAny(id, "\r\n") {
		return ErrInvalidEventField
	}
	var b strings.Builder
	if event != "" {
		b.WriteString("event: " + event + "\n")
	}
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	// CRLF, LF and a lone CR all end a line in the SSE format: each becomes
	// a data line of its own, so data cannot end the event or add a field.
	data = strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
	for _, line := range strings.Split(data, "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteByte('\n')
	return s.write(b.String())
}

// Comment writes a comment line (a keep-alive for proxies) and flushes it.
func (s *EventStream) Comment(text string) error {
	return s.write(": " + lineBreaks.Replace(text) + "\n\n")
}

// lineBreaks turns the line breaks of a comment into spaces; built once, a
// strings.Replacer being safe for concurrent use.
var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ")

// Retry tells the client how long to wait before reconnecting.
func (s *EventStream) Retry(d time.Duration) error {
	return s.write("retry: " + strconv.FormatInt(d.Milliseconds(), 10) + "\n\n")
}

// write writes p and flushes it, pinned as a Context method is: a stream
// kept past its request fails with ErrContextReleased.
func (s *EventStream) write(p string) error {
	c := s.c.enter()
	if c == nil {
		return ErrContextReleased
	}
	defer c.exit()
	if _, err := c.writeString(p); err != nil {
		return err
	}
	return s.rc.Flush()
}
