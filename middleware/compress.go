// Compression: gzip, brotli and zstd response bodies.
//
// Compress chooses an encoding from Accept-Encoding (highest q-value, ties
// broken by the configured preference) and installs a writer with
// core.Context.SetResponseWriter. That writer holds the first bytes of the
// body back, in a pooled buffer, until it knows enough to decide:
//
//	pass through  1xx/204/206/304, Content-Encoding or Content-Range
//	              already set, a content type outside the allow-list, a
//	              Content-Length or a whole body below the minimum size
//	compress      otherwise: Content-Length and Accept-Ranges are dropped,
//	              Content-Encoding is set, a strong ETag becomes weak
//
// A HEAD request goes through the same decision, so its headers are the
// ones a GET would get (Content-Encoding, no Content-Length), but nothing
// is encoded: the body a handler writes for HEAD is dropped, as net/http
// would drop it.
//
// A Flush decides at once (a stream is compressed whatever its size, if its
// type is allowed) and flushes the encoder, so server-sent events arrive
// event by event. Requests with a Range header are never compressed, so
// byte ranges keep meaning bytes of the file. Error pages (404, 500,
// StopWithError) are written through the writer, before it finishes, with
// core.Context.WriteErrorPage, so they follow the same rules as any body.
// Vary: Accept-Encoding is set on every response.
//
// Encoders are pooled per encoding and reset for each response; so are the
// writers and their buffers.
//
// BREACH: the length of a compressed response tells how well its content
// compresses, so a page that holds a secret and reflects attacker-chosen
// input lets an attacker who sees the encrypted traffic guess the secret
// character by character (a guess that matches compresses better). The
// CSRF middleware defeats this for its token by masking it afresh in every
// response (see CSRF). Other secrets a page shows beside reflected input
// (an API key, a personal token) are the application's to keep out of
// compressed responses: serve them from a route without Compress, or
// exclude their content type with WithContentTypes.

package middleware

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/engine"
	"github.com/vireo-go/vireo/internal/httpq"
)

// Encoding names accepted by WithEncodings and WithLevel.
const (
	EncodingZstd   = "zstd"
	EncodingBrotli = "br"
	EncodingGzip   = "gzip"
)

// defaultCompressTypes are the media types Compress compresses by default
// (listed in WithContentTypes' documentation).
var defaultCompressTypes = []string{
	"text/*", "application/json", "application/javascript", "application/xml",
	"application/wasm", "image/svg+xml", "*+json", "*+xml",
}

// CompressOption configures Compress.
type CompressOption func(*compressConfig) error

type compressConfig struct {
	encodings []string
	levels    map[string]int
	minSize   int
	types     []string
}

// WithEncodings sets the encodings offered and their preference when the
// client weighs several equally (default zstd, br, gzip).
func WithEncodings(names ...string) CompressOption {
	return func(c *compressConfig) error {
		if len(names) == 0 {
			return errors.New("middleware: Compress: no encodings")
		}
		for _, n := range names {
			if n != EncodingZstd && n != EncodingBrotli && n != EncodingGzip {
				return fmt.Errorf("middleware: Compress: unknown encoding %q", n)
			}
		}
		c.encodings = names
		return nil
	}
}

// WithLevel sets the compression level of an encoding: gzip 1-9 (default
// 5), br 0-11 (default 4), zstd 1-4, fastest to best (default 2).
func WithLevel(encoding string, level int) CompressOption {
	return func(c *compressConfig) error {
		lo, hi := 1, 9
		switch encoding {
		case EncodingGzip:
		case EncodingBrotli:
			lo, hi = 0, 11
		case EncodingZstd:
			lo, hi = 1, 4
		default:
			return fmt.Errorf("middleware: Compress: unknown encoding %q", encoding)
		}
		if level < lo || level > hi {
			return fmt.Errorf("middleware: Compress: %s level %d outside %d-%d", encoding, level, lo, hi)
		}
		c.levels[encoding] = level
		return nil
	}
}

// WithMinSize sets the smallest body that is compressed (default 1024
// bytes); smaller ones are sent as they are. 0 compresses everything.
func WithMinSize(n int) CompressOption {
	return func(c *compressConfig) error {
		if n < 0 || n > 1<<20 {
			return fmt.Errorf("middleware: Compress: min size %d outside 0-1MiB", n)
		}
		c.minSize = n
		return nil
	}
}

// WithContentTypes replaces the media types that are compressed. A trailing
// "/*" matches a whole type, a leading "*+" a structured-syntax suffix. The
// default is text/*, application/json, application/javascript,
// application/xml, application/wasm, image/svg+xml, *+json and *+xml.
func WithContentTypes(types ...string) CompressOption {
	return func(c *compressConfig) error {
		for _, t := range types {
			if !strings.Contains(t, "/") && !strings.HasPrefix(t, "*+") {
				return fmt.Errorf("middleware: Compress: invalid media type %q", t)
			}
		}
		c.types = types
		return nil
	}
}

// encoder is what gzip.Writer, brotli.Writer and zstd.Encoder have in common.
type encoder interface {
	io.Writer
	Flush() error
	Close() error
	Reset(io.Writer)
}

type encoding struct {
	name   string
	header []string // Content-Encoding value, shared
	pool   sync.Pool
}

type compress struct {
	encodings []*encoding
	minSize   int
	types     []string
	writers   sync.Pool
}

// varyAcceptEncoding adds Accept-Encoding to Vary (see addVary).
var varyAcceptEncoding = addVary("Accept-Encoding")

// Compress returns middleware compressing response bodies, or an error for
// an invalid option. Install it with UseBeforeRouting, before other middleware
// that writes, so that every response, error pages included, goes through
// it.
func Compress(opts ...CompressOption) (core.Handler, error) {
	cfg := compressConfig{
		encodings: []string{EncodingZstd, EncodingBrotli, EncodingGzip},
		levels:    map[string]int{EncodingGzip: 5, EncodingBrotli: 4, EncodingZstd: 2},
		minSize:   1024,
		types:     defaultCompressTypes,
	}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: Compress: nil option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	m := &compress{minSize: cfg.minSize}
	for _, t := range cfg.types {
		m.types = append(m.types, strings.ToLower(t))
	}
	for _, name := range cfg.encodings {
		e := &encoding{name: name, header: []string{name}}
		level := cfg.levels[name]
		switch name {
		case EncodingGzip:
			e.pool.New = func() any {
				w, _ := gzip.NewWriterLevel(nil, level) // the level was checked
				return encoder(w)
			}
		case EncodingBrotli:
			e.pool.New = func() any { return encoder(brotli.NewWriterLevel(nil, level)) }
		case EncodingZstd:
			e.pool.New = func() any {
				w, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevel(level)),
					zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true), zstd.WithWindowSize(1<<20))
				if err != nil {
					panic(err) // only for invalid options, which are constants here
				}
				return encoder(w)
			}
		}
		m.encodings = append(m.encodings, e)
	}
	m.writers.New = func() any { return &compressWriter{buf: make([]byte, 0, max(m.minSize, 512))} }
	return m.serve, nil
}

// MustCompress is Compress that panics on an invalid option.
func MustCompress(opts ...CompressOption) core.Handler {
	h, err := Compress(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// serve adds Vary and, when the client accepts an encoding, compresses the
// response through a writer of its own. The request is read and Vary set
// through the Context, and the compressing writer reads and sets the
// response headers (the Content-Type and Content-Length the handler set,
// Content-Encoding, the ETag made weak, Content-Encoding taken back after
// a panic) through the header store of the writer it wraps, the
// Context's writer handle, and is a store itself for the Context's own
// header writes: no header map is handed out, so a compressed response
// keeps the fast engine's reuse of its map too.
func (m *compress) serve(ctx core.Context) {
	ctx.SetResponseHeaders(varyAcceptEncoding)
	enc := m.negotiate(ctx.RequestHeaderValues("Accept-Encoding"))
	if enc == nil || ctx.RequestHeader("Range") != "" {
		ctx.Next()
		return
	}
	prev := ctx.ResponseWriter()
	cw := m.writers.Get().(*compressWriter)
	cw.reset(m, prev, enc, ctx.Method() == http.MethodHead)
	ctx.SetResponseWriter(cw)
	defer m.finish(ctx, cw, prev)
	ctx.Next()
	if cw.state == undecided && len(cw.buf) == 0 {
		ctx.WriteErrorPage() // no body yet: an error status gets its page here
	}
	cw.close()
}

// finish puts the previous writer back. When the chain panicked, the
// response so far is abandoned: no compressed stream has reached the
// client (else the core would not write a 500 page), so the header that
// announced one is removed.
func (m *compress) finish(ctx core.Context, cw *compressWriter, prev http.ResponseWriter) {
	ctx.SetResponseWriter(prev)
	if !cw.closed {
		if !ctx.Written() {
			cw.hs.SetHeaderValues("Content-Encoding", nil) // prev's store
		}
		cw.zw = nil // its state is unknown; let the GC have it
	}
	cw.w, cw.hs, cw.enc = nil, nil, nil
	m.writers.Put(cw)
}

// negotiate returns the encoding with the highest q-value in the
// Accept-Encoding values, ties going to the configured preference, or nil.
func (m *compress) negotiate(values []string) *encoding {
	if len(values) == 0 {
		return nil
	}
	var best *encoding
	bestQ := 0.0
	for _, e := range m.encodings {
		if q := acceptQ(values, e.name); q > bestQ {
			best, bestQ = e, q
		}
	}
	return best
}

// acceptQ returns the q-value the Accept-Encoding values give name: its own
// entry's, else that of "*", else 0.
func acceptQ(values []string, name string) float64 {
	star := -1.0
	for _, v := range values {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			token, params, _ := strings.Cut(item, ";")
			token = strings.TrimSpace(token)
			if strings.EqualFold(token, name) {
				return httpq.Q(params)
			}
			if token == "*" {
				star = httpq.Q(params)
			}
		}
	}
	return max(star, 0)
}

// compressible reports whether the media type of contentType is allowed.
func (m *compress) compressible(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.TrimSpace(mt)
	for _, t := range m.types {
		switch {
		case strings.HasSuffix(t, "/*"):
			if len(mt) >= len(t)-1 && strings.EqualFold(mt[:len(t)-1], t[:len(t)-1]) {
				return true
			}
		case strings.HasPrefix(t, "*+"):
			if len(mt) > len(t)-1 && strings.EqualFold(mt[len(mt)-len(t)+1:], t[1:]) {
				return true
			}
		default:
			if strings.EqualFold(mt, t) {
				return true
			}
		}
	}
	return false
}

const (
	undecided = iota
	passing
	compressing
	headOnly // a HEAD response that would be compressed: headers set, body dropped
)

// compressWriter is the http.ResponseWriter Compress installs.
type compressWriter struct {
	m      *compress
	w      http.ResponseWriter
	hs     engine.HeaderStore // w's header store (engine.StoreOf), found once at reset
	enc    *encoding
	zw     encoder
	status int
	state  uint8
	head   bool // the request is HEAD
	closed bool
	buf    []byte
}

func (cw *compressWriter) reset(m *compress, w http.ResponseWriter, enc *encoding, head bool) {
	cw.m, cw.w, cw.hs, cw.enc, cw.head = m, w, engine.StoreOf(w), enc, head
	cw.status = http.StatusOK
	cw.state = undecided
	cw.closed = false
	cw.buf = cw.buf[:0]
}

// Header returns the response header.
func (cw *compressWriter) Header() http.Header { return cw.w.Header() }

// get returns the first value of the response header key, or "".
func get(hs engine.HeaderStore, key string) string {
	if vs := hs.HeaderValues(key); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// The compressing writer is an engine.HeaderStore that forwards to the
// writer it wraps: core sets the handler's headers through it.
var _ engine.HeaderStore = (*compressWriter)(nil)

func (cw *compressWriter) HeaderValues(key string) []string { return cw.hs.HeaderValues(key) }
func (cw *compressWriter) SetHeader(key, value string)      { cw.hs.SetHeader(key, value) }
func (cw *compressWriter) AddHeader(key, value string)      { cw.hs.AddHeader(key, value) }
func (cw *compressWriter) SetHeaderValues(key string, values []string) {
	cw.hs.SetHeaderValues(key, values)
}
func (cw *compressWriter) SetHeaderIfUnset(key string, values []string) {
	cw.hs.SetHeaderIfUnset(key, values)
}

// WriteHeader passes the status on (the core holds it until the body) and
// remembers it for the decision. Informational statuses pass at once and
// decide nothing, but 101 Switching Protocols, after which the connection
// carries another protocol: it is never compressed.
func (cw *compressWriter) WriteHeader(code int) {
	switch {
	case code == http.StatusSwitchingProtocols:
		cw.pass()
	case code >= 200 && cw.state == undecided:
		cw.status = code
	}
	cw.w.WriteHeader(code)
}

// Write buffers, compresses or passes p through, as decided.
func (cw *compressWriter) Write(p []byte) (int, error) {
	switch cw.state {
	case passing:
		return cw.w.Write(p)
	case compressing:
		return cw.zw.Write(p)
	case headOnly:
		return len(p), nil
	}
	if cw.closed {
		return 0, core.ErrContextReleased
	}
	if !cw.decideEarly() {
		if len(cw.buf)+len(p) < cw.m.minSize {
			cw.buf = append(cw.buf, p...)
			return len(p), nil
		}
		if err := cw.decide(p, false); err != nil {
			return 0, err
		}
	}
	return cw.Write(p)
}

// WriteString is Write for strings; passing through, it avoids a copy.
func (cw *compressWriter) WriteString(s string) (int, error) {
	if cw.state == passing {
		return io.WriteString(cw.w, s)
	}
	if cw.state == undecided && !cw.closed && len(cw.buf)+len(s) < cw.m.minSize && !cw.decideEarly() {
		cw.buf = append(cw.buf, s...)
		return len(s), nil
	}
	return cw.Write([]byte(s))
}

// decideEarly decides from the status and headers alone, when they are
// enough, and reports whether it decided.
func (cw *compressWriter) decideEarly() bool {
	h := cw.hs
	switch {
	case cw.status < 200, cw.status == http.StatusNoContent, cw.status == http.StatusPartialContent,
		cw.status == http.StatusNotModified, get(h, "Content-Encoding") != "", get(h, "Content-Range") != "":
		cw.pass()
		return true
	}
	ct := get(h, "Content-Type")
	if ct != "" && !cw.m.compressible(ct) {
		cw.pass()
		return true
	}
	if cl := get(h, "Content-Length"); cl != "" {
		n, err := strconv.ParseInt(cl, 10, 64)
		if err != nil || n < int64(cw.m.minSize) {
			cw.pass()
			return true
		}
		if ct != "" {
			cw.start()
			return true
		}
	}
	return false
}

// decide chooses with the body known so far (buf, then next): the content
// type is sniffed when the handler set none. force compresses whatever the
// size (a Flush). The buffered bytes are written out.
func (cw *compressWriter) decide(next []byte, force bool) error {
	h := cw.hs
	ct := get(h, "Content-Type")
	if ct == "" && (len(cw.buf) > 0 || len(next) > 0) {
		sniff := cw.buf
		if len(sniff) < 512 && len(next) > 0 {
			sniff = append(sniff, next[:min(len(next), 512-len(sniff))]...)
			cw.buf = sniff[:len(cw.buf)]
		}
		ct = http.DetectContentType(sniff)
		h.SetHeader("Content-Type", ct)
	}
	if ct != "" && cw.m.compressible(ct) && (force || len(cw.buf)+len(next) >= cw.m.minSize) {
		cw.start()
	} else {
		cw.pass()
	}
	if len(cw.buf) == 0 {
		return nil
	}
	buf := cw.buf
	cw.buf = cw.buf[:0]
	var err error
	switch cw.state {
	case compressing:
		_, err = cw.zw.Write(buf)
	case passing:
		_, err = cw.w.Write(buf)
	}
	return err
}

func (cw *compressWriter) pass() { cw.state = passing }

func (cw *compressWriter) start() {
	h := cw.hs
	h.SetHeaderValues("Content-Length", nil)
	h.SetHeaderValues("Accept-Ranges", nil)
	h.SetHeaderValues("Content-Encoding", cw.enc.header)
	if et := get(h, "Etag"); et != "" && !strings.HasPrefix(et, "W/") {
		h.SetHeader("Etag", "W/"+et)
	}
	if cw.head {
		cw.state = headOnly
		return
	}
	cw.zw = cw.enc.pool.Get().(encoder)
	cw.zw.Reset(cw.w)
	cw.state = compressing
}

// Flush decides at once, flushes the encoder, then the server's writer.
func (cw *compressWriter) Flush() { _ = cw.FlushError() }

// FlushError is Flush that reports failure, for http.ResponseController.
func (cw *compressWriter) FlushError() error {
	if cw.state == undecided {
		if !cw.decideEarly() {
			if err := cw.decide(nil, true); err != nil {
				return err
			}
		}
	}
	if cw.state == compressing {
		if err := cw.zw.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(cw.w).Flush()
}

// Hijack hands the connection over, for protocol upgrades.
func (cw *compressWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	cw.state = passing
	return http.NewResponseController(cw.w).Hijack()
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (cw *compressWriter) Unwrap() http.ResponseWriter { return cw.w }

// close writes what is still buffered (uncompressed: the whole body was
// below the minimum size) or ends the compressed stream. A HEAD answer
// that wrote no body (http.ServeContent writes none for HEAD) is decided
// from its headers, as GET's first write would be, so it gets GET's
// Content-Encoding instead of the uncompressed Content-Length.
func (cw *compressWriter) close() {
	switch cw.state {
	case undecided:
		if cw.head && len(cw.buf) == 0 {
			cw.decideEarly()
		}
		if len(cw.buf) > 0 {
			cw.decideEarly()
			if cw.state == undecided {
				cw.pass()
			}
			switch cw.state {
			case compressing: // a Content-Length claimed more than was written
				cw.zw.Write(cw.buf)
			case passing:
				cw.w.Write(cw.buf)
			}
		}
	}
	if cw.state == compressing {
		cw.zw.Close()
		cw.zw.Reset(nil)
		cw.enc.pool.Put(cw.zw)
		cw.zw = nil
	}
	cw.closed = true
	cw.buf = cw.buf[:0]
}
