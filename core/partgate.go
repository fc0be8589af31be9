// The upload gate: multipart limits checked while the body is parsed.
//
// net/http's ParseMultipartForm reads the whole form before a handler can
// look at it, so a file over the file-size limit or a part past the part
// limit would only be seen once the body limit had been read. The gate
// sits between the client's body and that parser: it reads the client's
// parts with mime/multipart's Reader (the same parser, so every quirk of
// the format, LF-only line ends and quoted-printable parts included, is
// read alike) and hands net/http a canonical encoding of the parts it let
// through, with the client's own boundary (which, by definition, the
// parts' contents do not hold); parts without a form name, which net/http
// skips, are counted and skipped unread. As the parts pass it counts them, the
// bytes of each file and the bytes read for each part's headers, and
// fails at the first byte past a limit, so the body is read no further
// than the limit plus mime/multipart's 4 KiB read-ahead:
//
//   - the Parts+1st part is refused when its headers have been read;
//   - a file is refused at its FileSize+1st byte;
//   - a part's headers may take maxPartHeader bytes (16 KiB, ASP.NET
//     Core's MultipartHeadersLengthLimit); the gate refuses a part whose
//     headers made it read more than that plus the read-ahead.
//
// The error is kept by the gate, so the caller reports it whatever the
// parser made of the failed read.

package core

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"sort"
)

// maxPartHeader bounds the headers of one multipart part.
const maxPartHeader = 16 << 10

// multipartReadAhead is what mime/multipart's Reader buffers past the
// point it has parsed (its peekBufferSize).
const multipartReadAhead = 4 << 10

// partGate is the reader that net/http's parser reads a form from; see the
// file comment.
type partGate struct {
	body     countingReader
	src      *multipart.Reader
	boundary string
	fileSize int64 // 0: no limit
	maxParts int
	parts    int             // parts seen so far
	passed   int             // parts passed on (those with a form name)
	part     *multipart.Part // the part whose content is being passed on
	isFile   bool
	size     int64  // bytes of part's content passed on
	pending  []byte // encoded delimiter and headers not yet returned
	end      bool   // the closing delimiter is pending or returned
	err      error  // sticky: the limit's error or the client body's
}

// countingReader counts the bytes read from r and, when max > 0, fails a
// read that would go past it.
type countingReader struct {
	r   io.Reader
	n   int64
	max int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.max > 0 {
		if c.n >= c.max {
			return 0, c.err
		}
		if rest := c.max - c.n; int64(len(p)) > rest {
			p = p[:rest]
		}
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func newPartGate(body io.Reader, boundary string, fileSize int64, maxParts int) *partGate {
	g := &partGate{boundary: boundary, fileSize: fileSize, maxParts: maxParts}
	g.body.r = body
	g.body.err = NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("multipart part headers larger than %d bytes", maxPartHeader))
	g.src = multipart.NewReader(&g.body, boundary)
	return g
}

// Read passes on the encoded parts, checking the limits.
func (g *partGate) Read(p []byte) (int, error) {
	for {
		if g.err != nil {
			return 0, g.err
		}
		if len(g.pending) > 0 {
			n := copy(p, g.pending)
			g.pending = g.pending[n:]
			return n, nil
		}
		if g.end {
			return 0, io.EOF
		}
		if g.part == nil {
			g.next()
			continue
		}
		if g.isFile && g.fileSize > 0 && int64(len(p)) > g.fileSize-g.size+1 {
			p = p[:g.fileSize-g.size+1] // one byte past the limit tells it is exceeded
		}
		n, err := g.part.Read(p)
		g.size += int64(n)
		if g.isFile && g.fileSize > 0 && g.size > g.fileSize {
			g.err = NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("uploaded file larger than %d bytes", g.fileSize))
			return 0, g.err
		}
		if err == io.EOF {
			g.part, err = nil, nil
		}
		if err != nil {
			g.err = err
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// next reads the client's next part and encodes its delimiter and headers,
// or the closing delimiter after the last part.
func (g *partGate) next() {
	g.body.max = g.body.n + maxPartHeader + multipartReadAhead + int64(len(g.boundary)) + 8
	part, err := g.src.NextPart()
	if err != nil && g.body.n >= g.body.max {
		err = g.body.err // whatever the parser made of the refused read
	}
	g.body.max = 0
	if err != nil && err != io.EOF {
		g.err = err
		return
	}
	if err == nil {
		g.parts++
		if g.parts > g.maxParts {
			g.err = NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("multipart form with more than %d parts", g.maxParts))
			return
		}
		if part.FormName() == "" {
			return // net/http's parser skips it unread; so does the gate (the next call drains it)
		}
	}
	var b []byte
	if g.passed > 0 {
		b = append(b, "\r\n"...)
	}
	b = append(b, "--"...)
	b = append(b, g.boundary...)
	if err == io.EOF {
		g.pending, g.end = append(b, "--\r\n"...), true
		return
	}
	g.passed++
	b = append(b, "\r\n"...)
	b = appendHeader(b, part.Header)
	g.pending = append(b, "\r\n"...)
	g.part, g.isFile, g.size = part, part.FileName() != "", 0
}

// appendHeader appends h as MIME header lines, in key order.
func appendHeader(b []byte, h textproto.MIMEHeader) []byte {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	return b
}
