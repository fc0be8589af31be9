// The response writer and the write path.
//
// A handler's writes gather in a buffer of the writer; the first flush
// (Flush, 16 KiB buffered, or the handler's return) sends HEADERS, with
// Content-Length when the handler returned first, and DATA. The header
// sent is the map as it was when the final status was written
// (WriteHeader, or the first Write): WriteHeader copies its fields, in
// wire form, into the writer's own array, as net/http snapshots the map
// then, so a change made after the body started has no effect (trailers
// aside); a 1xx status goes out at once with the map as it is. Each send
// takes the connection lock once: HPACK encoding (whose dynamic table is
// the connection's), HEADERS/CONTINUATION split at the peer's frame size,
// then DATA as far as the stream and connection send windows allow; with
// no window left the handler waits on the connection's condition until a
// WINDOW_UPDATE, a reset or the connection's end. Frames go to the output
// buffer, written by the connection's flusher (conn.go).

package h2

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const writeBufferSize = 16 << 10

type responseWriter struct {
	c           *conn
	st          *stream
	header      http.Header
	status      int
	wroteHeader bool
	sentHeader  bool
	ended       bool
	head        bool
	buf         []byte

	// The header as the final status found it (snapshot), in wire form:
	// fields backed by fieldArray, and what the server may add itself.
	fields     []hpack.HeaderField
	fieldArray [8]hpack.HeaderField
	hasLength  bool     // Content-Length was set, or has been added
	typed      bool     // Content-Type or Content-Encoding was set (even nil), or a type was sniffed
	hasDate    bool     // Date was set (even nil: no Date)
	trailerKey []string // the Trailer header's declarations
}

// Header returns the response header map.
func (w *responseWriter) Header() http.Header { return w.header }

// WriteHeader records the status; 1xx statuses (but 101) are sent at once.
func (w *responseWriter) WriteHeader(code int) {
	if code < 100 || code > 999 {
		panic("h2: invalid WriteHeader code " + strconv.Itoa(code))
	}
	if w.wroteHeader {
		return
	}
	if code < 200 && code != http.StatusSwitchingProtocols {
		w.c.send(w, code, nil, false, false)
		return
	}
	w.status, w.wroteHeader = code, true
	w.snapshot()
}

// snapshot copies the header map into w.fields: the header the final
// HEADERS frame carries.
func (w *responseWriter) snapshot() {
	w.fields = appendFields(w.fieldArray[:0], w.header)
	w.hasLength = len(w.header["Content-Length"]) > 0
	_, ct := w.header["Content-Type"]
	_, ce := w.header["Content-Encoding"]
	w.typed = ct || ce
	_, w.hasDate = w.header["Date"]
	w.trailerKey = w.header["Trailer"]
}

// Write buffers p, sending what is buffered at 16 KiB.
func (w *responseWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if w.head {
		return len(p), nil
	}
	if len(w.buf)+len(p) > writeBufferSize {
		if err := w.flush(false); err != nil {
			return 0, err
		}
		if len(p) >= writeBufferSize {
			if err := w.c.send(w, 0, p, false, false); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// WriteString is Write for a string.
func (w *responseWriter) WriteString(s string) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if len(w.buf)+len(s) <= writeBufferSize && bodyAllowed(w.status) && !w.head {
		w.buf = append(w.buf, s...)
		return len(s), nil
	}
	return w.Write([]byte(s))
}

// Flush sends the header and what is buffered.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush that returns the error (a reset stream, a closed
// connection); http.ResponseController uses it.
func (w *responseWriter) FlushError() error {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.flush(false)
}

// SetReadDeadline makes the request body's reads fail with
// os.ErrDeadlineExceeded from t on (zero: no deadline), for this stream
// only; http.ResponseController uses it (core's MinRequestBodyRate does).
func (w *responseWriter) SetReadDeadline(t time.Time) error {
	st := w.st
	st.setDeadline(&st.readTimer, t, func() { st.body.abort(os.ErrDeadlineExceeded) })
	return nil
}

// SetWriteDeadline resets the stream (RST_STREAM INTERNAL_ERROR, writes
// fail) when its answer is not complete by t (zero: no deadline), as
// net/http's HTTP/2 does; core's MinResponseRate uses it.
func (w *responseWriter) SetWriteDeadline(t time.Time) error {
	st := w.st
	st.setDeadline(&st.writeTimer, t, func() { st.c.resetStream(st.id, http2.ErrCodeInternal) })
	return nil
}

// Push reports http.ErrNotSupported: the server never pushes (it sends
// SETTINGS_ENABLE_PUSH 0).
func (w *responseWriter) Push(string, *http.PushOptions) error { return http.ErrNotSupported }

func (w *responseWriter) finish() {
	if w.ended {
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.sentHeader && bodyAllowed(w.status) && !w.hasLength && !w.head {
		w.fields = append(w.fields, hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(len(w.buf))})
		w.hasLength = true
	}
	w.flush(true)
}

func (w *responseWriter) flush(end bool) error {
	if w.ended {
		return errClosed
	}
	if !w.sentHeader && len(w.buf) > 0 && !w.typed {
		w.fields = append(w.fields, hpack.HeaderField{Name: "content-type", Value: http.DetectContentType(w.buf)})
		w.typed = true
	}
	err := w.c.send(w, w.status, w.buf, end, true)
	w.buf = w.buf[:0]
	return err
}

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// trailers collects the response trailers: keys declared in the Trailer
// header when the status was written and keys with http.TrailerPrefix.
func (w *responseWriter) trailers() []hpack.HeaderField {
	var out []hpack.HeaderField
	for _, decl := range w.trailerKey {
		for _, k := range strings.Split(decl, ",") {
			k = http.CanonicalHeaderKey(strings.TrimSpace(k))
			for _, v := range w.header[k] {
				out = append(out, hpack.HeaderField{Name: strings.ToLower(k), Value: v})
			}
		}
	}
	for k, vs := range w.header {
		if rest, ok := strings.CutPrefix(k, http.TrailerPrefix); ok {
			for _, v := range vs {
				out = append(out, hpack.HeaderField{Name: strings.ToLower(rest), Value: v})
			}
		}
	}
	return out
}

// send writes, under one lock: the header (when status is set and it was
// not sent; sent marks the final one), data, and with end the trailers and
// END_STREAM.
func (c *conn) send(w *responseWriter, status int, data []byte, end, final bool) error {
	var tr []hpack.HeaderField
	if end {
		tr = w.trailers()
	}
	st := w.st
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || st.aborted != nil {
		w.ended = end
		return errClosed
	}
	for len(c.out) > maxOutBuffered && !c.closed && st.aborted == nil {
		c.cond.Wait()
	}
	if status != 0 && !w.sentHeader {
		c.hbuf.Reset()
		c.enc.WriteField(hpack.HeaderField{Name: ":status", Value: statusString(status)})
		if final {
			c.encodeFields(w)
		} else {
			c.encodeInformational(w.header)
		}
		headerEnds := end && len(data) == 0 && len(tr) == 0 && final
		c.writeBlock(st.id, headerEnds)
		if !final {
			c.kick()
			return nil
		}
		w.sentHeader = true
		if headerEnds {
			w.ended = true
			st.localDone = true
			c.kick()
			return nil
		}
	}
	dataEnds := end && len(tr) == 0
	for len(data) > 0 || dataEnds {
		if c.closed || st.aborted != nil {
			return errClosed
		}
		n := int64(len(data))
		limit := min(st.sendWindow, c.sendWindow, int64(c.peerMaxFrame))
		if n > 0 && limit <= 0 {
			c.kick()
			c.cond.Wait()
			continue
		}
		n = min(n, limit)
		last := dataEnds && n == int64(len(data))
		c.fr.WriteData(st.id, last, data[:n])
		st.sendWindow -= n
		c.sendWindow -= n
		data = data[n:]
		if last {
			break
		}
	}
	if len(tr) > 0 {
		c.hbuf.Reset()
		for _, f := range tr {
			c.enc.WriteField(f)
		}
		c.writeBlock(st.id, true)
	}
	if end {
		w.ended = true
		st.localDone = true
	}
	c.kick()
	return nil
}

// writeBlock writes c.hbuf as HEADERS and CONTINUATION frames; c.mu is held.
func (c *conn) writeBlock(id uint32, endStream bool) {
	block := c.hbuf.Bytes()
	max := int(c.peerMaxFrame)
	first := block
	if len(first) > max {
		first = first[:max]
	}
	block = block[len(first):]
	c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: first, EndStream: endStream, EndHeaders: len(block) == 0})
	for len(block) > 0 {
		frag := block
		if len(frag) > max {
			frag = frag[:max]
		}
		block = block[len(frag):]
		c.fr.WriteContinuation(id, len(block) == 0, frag)
	}
}

// encodeFields encodes the header the final status found, adding date;
// c.mu is held.
func (c *conn) encodeFields(w *responseWriter) {
	for _, f := range w.fields {
		c.enc.WriteField(f)
	}
	if !w.hasDate {
		c.enc.WriteField(hpack.HeaderField{Name: "date", Value: c.date()})
	}
}

// encodeInformational encodes the header map of a 1xx response as it is
// (the Link fields of a 103); c.mu is held.
func (c *conn) encodeInformational(h http.Header) {
	var buf [8]hpack.HeaderField
	for _, f := range appendFields(buf[:0], h) {
		c.enc.WriteField(f)
	}
}

// appendFields appends h's fields in wire form to dst, without the
// connection-specific ones and the trailers (http.TrailerPrefix).
func appendFields(dst []hpack.HeaderField, h http.Header) []hpack.HeaderField {
	for k, vs := range h {
		lk := lowerKey(k)
		if connectionHeaders[lk] || strings.HasPrefix(k, http.TrailerPrefix) {
			continue
		}
		for _, v := range vs {
			dst = append(dst, hpack.HeaderField{Name: lk, Value: v})
		}
	}
	return dst
}

// date returns the Date value, formatted once a second per connection;
// c.mu is held.
func (c *conn) date() string {
	now := time.Now()
	if sec := now.Unix(); sec != c.dateSec {
		c.dateSec, c.dateStr = sec, now.UTC().Format(http.TimeFormat)
	}
	return c.dateStr
}

func statusString(code int) string {
	switch code {
	case 200:
		return "200"
	case 204:
		return "204"
	case 301:
		return "301"
	case 302:
		return "302"
	case 304:
		return "304"
	case 400:
		return "400"
	case 404:
		return "404"
	case 500:
		return "500"
	}
	return strconv.Itoa(code)
}
