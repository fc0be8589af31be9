// Request IDs.
//
// RequestID takes the ID from the incoming header when it is trusted and
// valid (1 to 64 bytes, by default, of letters, digits and -_.:+=/), else
// generates one: a random per-process prefix and a counter, which is unique
// without a system call per request. The ID goes on the response in the
// same header and into the request's Values under core.RequestIDKey, where
// RequestLogger, core.Context.Logger and core.Context.RequestID find it.
//
// A trusted, valid incoming ID costs no allocation: the response header
// shares the request's value slice and Values holds a pointer into it. A
// generated one costs two (its bytes and the one-element header slice,
// which also backs the Values pointer).

package middleware

import (
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/vireo-go/vireo/core"
)

// RequestIDOption configures RequestID.
type RequestIDOption func(*requestIDConfig) error

type requestIDConfig struct {
	header    string
	trust     bool
	maxLen    int
	generator func() string
}

// WithRequestIDHeader sets the header read and written (default
// X-Request-ID).
func WithRequestIDHeader(name string) RequestIDOption {
	return func(c *requestIDConfig) error {
		if name == "" {
			return errors.New("middleware: RequestID: empty header name")
		}
		c.header = http.CanonicalHeaderKey(name)
		return nil
	}
}

// WithTrustIncoming sets whether a valid incoming ID is kept (default true).
// Turn it off when clients are not trusted to choose IDs that end up in
// logs.
func WithTrustIncoming(trust bool) RequestIDOption {
	return func(c *requestIDConfig) error { c.trust = trust; return nil }
}

// WithMaxIDLength sets the longest incoming ID accepted (default 64).
func WithMaxIDLength(n int) RequestIDOption {
	return func(c *requestIDConfig) error {
		if n < 1 || n > 1024 {
			return fmt.Errorf("middleware: RequestID: max length %d outside 1-1024", n)
		}
		c.maxLen = n
		return nil
	}
}

// WithIDGenerator replaces the ID generator; fn must be safe for
// concurrent use.
func WithIDGenerator(fn func() string) RequestIDOption {
	return func(c *requestIDConfig) error {
		if fn == nil {
			return errors.New("middleware: RequestID: nil generator")
		}
		c.generator = fn
		return nil
	}
}

type requestID struct {
	header    string
	field     core.HeaderField // header's, set with the request's ID
	trust     bool
	maxLen    int
	generator func() string
	prefix    string
	counter   atomic.Uint64
}

// RequestID returns middleware giving every request an ID, or an error for
// an invalid option.
func RequestID(opts ...RequestIDOption) (core.Handler, error) {
	cfg := requestIDConfig{header: "X-Request-Id", trust: true, maxLen: 64}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: RequestID: nil option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("middleware: RequestID: %w", err)
	}
	m := &requestID{header: cfg.header, field: core.NewHeaderField(cfg.header), trust: cfg.trust, maxLen: cfg.maxLen, generator: cfg.generator,
		prefix: base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])}
	return m.serve, nil
}

// MustRequestID is RequestID that panics on an invalid option.
func MustRequestID(opts ...RequestIDOption) core.Handler {
	h, err := RequestID(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// serve reads the incoming ID and sets the response's through the
// Context (RequestHeaderValues, SetResponseHeaders with the field whose
// name RequestID made canonical): the fast engine then builds no
// *http.Request and keeps reusing its header map.
func (m *requestID) serve(ctx core.Context) {
	in := ctx.RequestHeaderValues(m.header)
	var hdr []string
	if m.trust && len(in) > 0 && m.valid(in[0]) {
		hdr = in[:1:1] // shared: append on either side copies
	} else {
		arr := new([1]string)
		arr[0] = m.generate()
		hdr = arr[:]
	}
	ctx.SetResponseHeaders(m.field.WithValues(hdr...))
	ctx.Values().Set(core.RequestIDKey, &hdr[0])
	ctx.Next()
}

func (m *requestID) valid(id string) bool {
	if id == "" || len(id) > m.maxLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == ':' || c == '+' || c == '=' || c == '/') {
			return false
		}
	}
	return true
}

func (m *requestID) generate() string {
	if m.generator != nil {
		return m.generator()
	}
	var buf [40]byte
	b := append(buf[:0], m.prefix...)
	b = append(b, '-')
	b = strconv.AppendUint(b, m.counter.Add(1), 36)
	return string(b)
}
