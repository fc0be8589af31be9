// Decompress: request bodies sent compressed.
//
// A request with Content-Encoding gzip, br or zstd (or a list of them,
// applied in order and so decoded in reverse; identity is ignored) gets,
// in place of its body, a reader of the decoded bytes; Content-Encoding
// and Content-Length are removed, so the handlers and the Context's
// readers see a plain body of unknown length. Any other encoding is
// answered 415 with Accept-Encoding naming the ones understood (RFC 9110,
// 15.5.16), before the body is read.
//
// Bombs: a few kilobytes of gzip decode to gigabytes. The decoded size is
// bounded (WithDecompressLimit, default core.DefaultBodyLimit): the reader
// fails with *http.MaxBytesError as soon as the decoded bytes pass the
// limit, so the Context's readers answer 413 having produced at most the
// limit; the application's body limit still bounds the compressed bytes
// read from the client. zstd frames may not ask for a window over 8 MiB
// (the size RFC 8878 asks every decoder to support), so a frame header
// cannot make the decoder allocate more.
//
// Decoders are made per request and closed when the chain returns: a
// pooled decoder kept by a handler past its request would read the next
// request's body. Compressed requests are rare; the cost stays off the
// path of the others, which pay a header lookup.

package middleware

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/vireo-go/vireo/core"
)

// DecompressOption configures Decompress.
type DecompressOption func(*decompress) error

// WithDecompressLimit sets the largest decoded body (default
// core.DefaultBodyLimit); larger bodies fail to read, with 413 from the
// Context's readers. 0 means no limit, which only a trusted client
// deserves.
func WithDecompressLimit(n int64) DecompressOption {
	return func(m *decompress) error {
		if n < 0 {
			return errors.New("middleware: Decompress: negative limit")
		}
		m.limit = n
		return nil
	}
}

type decompress struct {
	limit int64
}

// decodingsAccepted is the Accept-Encoding of a 415.
var decodingsAccepted = core.NewHeaderField("Accept-Encoding", "zstd, br, gzip")

// zstdMaxWindow bounds the window a zstd frame may ask for.
const zstdMaxWindow = 8 << 20

// Decompress returns middleware that decodes compressed request bodies,
// or an error for an invalid option. Install it before anything that reads
// the body (CSRF reads the form of unsafe requests).
func Decompress(opts ...DecompressOption) (core.Handler, error) {
	m := &decompress{limit: core.DefaultBodyLimit}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: Decompress: nil option")
		}
		if err := opt(m); err != nil {
			return nil, err
		}
	}
	return m.serve, nil
}

// MustDecompress is Decompress that panics on an invalid option.
func MustDecompress(opts ...DecompressOption) core.Handler {
	h, err := Decompress(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

func (m *decompress) serve(ctx core.Context) {
	if len(ctx.RequestHeaderValues("Content-Encoding")) == 0 {
		// Nothing to decode: read through the Context, so the fast
		// engine builds no *http.Request for the common case.
		ctx.Next()
		return
	}
	r := ctx.Request()
	codings := r.Header.Values("Content-Encoding")
	if len(codings) == 0 || r.Body == nil || r.Body == http.NoBody {
		ctx.Next()
		return
	}
	var names []string
	for _, v := range codings {
		for _, name := range strings.Split(v, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			switch name {
			case "", "identity":
			case "gzip", "x-gzip", "br", "zstd":
				names = append(names, name)
			default:
				ctx.SetResponseHeaders(decodingsAccepted)
				ctx.StopWithError(core.NewHTTPError(http.StatusUnsupportedMediaType, "unsupported Content-Encoding "+name+" (gzip, br and zstd are)"))
				return
			}
		}
	}
	body := &decodedBody{src: r.Body, limit: m.limit}
	var src io.Reader = r.Body
	for i := len(names) - 1; i >= 0; i-- {
		src = body.decoder(names[i], src)
	}
	body.r = src
	r.Body = body
	r.Header.Del("Content-Encoding")
	r.Header.Del("Content-Length")
	r.ContentLength = -1
	defer body.release()
	ctx.Next()
}

// decodedBody reads the decoded body within the limit.
type decodedBody struct {
	r       io.Reader     // the outermost decoder
	src     io.ReadCloser // the request's own body
	closers []func()      // the decoders, closed at the end of the request
	limit   int64
	n       int64
	err     error // sticky
}

// decoder returns a reader decoding src from the encoding name. A gzip
// stream is checked lazily, at the first read, so that its errors reach
// the handler's read as a 400 rather than this middleware.
func (b *decodedBody) decoder(name string, src io.Reader) io.Reader {
	switch name {
	case "br":
		return brotli.NewReader(src)
	case "zstd":
		return &lazyReader{open: func() (io.Reader, error) {
			d, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(zstdMaxWindow))
			if err != nil {
				return nil, err
			}
			b.closers = append(b.closers, d.Close)
			return d, nil
		}}
	}
	return &lazyReader{open: func() (io.Reader, error) {
		z, err := gzip.NewReader(src)
		if err != nil {
			return nil, err
		}
		b.closers = append(b.closers, func() { z.Close() })
		return z, nil
	}}
}

// Read reads decoded bytes, one past the limit at most, to tell it was
// exceeded.
func (b *decodedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.limit > 0 && int64(len(p)) > b.limit-b.n+1 {
		p = p[:b.limit-b.n+1]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.limit > 0 && b.n > b.limit {
		n -= int(b.n - b.limit)
		b.n = b.limit
		b.err = &http.MaxBytesError{Limit: b.limit}
		return n, b.err
	}
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// Close closes the request's body.
func (b *decodedBody) Close() error { return b.src.Close() }

// release closes the decoders; a later Read fails.
func (b *decodedBody) release() {
	for _, c := range b.closers {
		c()
	}
	b.closers = nil
	if b.err == nil {
		b.err = errors.New("middleware: Decompress: body read after its request ended")
	}
}

// lazyReader opens its reader at the first Read.
type lazyReader struct {
	open func() (io.Reader, error)
	r    io.Reader
	err  error
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.open()
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}
