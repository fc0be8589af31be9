// File downloads.
//
// Attachment sets Content-Disposition so that the browser saves the
// response as a file: the name goes in the quoted filename parameter as
// ASCII (other characters replaced) and, when it is not plain ASCII, also
// in filename* (RFC 6266, RFC 8187) percent-encoded as UTF-8.

package core

import (
	"strings"
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
