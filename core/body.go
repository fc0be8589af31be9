// Request bodies.
//
// Every request body is wrapped, at reset, in a bodyReader that bounds it
// by size (the body limit, WithBodyLimit) and by data rate (the minimum
// request body rate, WithMinRequestBodyRate; see deadline.go), so a client
// can neither make the server buffer an unbounded body nor hold a handler
// by trickling one. Errors are HTTPErrors a handler can pass straight to
// StopWithError: 413 when the limit is exceeded, 408 when the body arrives
// too slowly, 415 for a body of the wrong media type, 400 with the reason
// for malformed input.
//
// Early answers. A request whose Content-Length is over the limit is
// refused at its first read, before a byte of the body is read, with 413
// and Connection: close, so a client that sent Expect: 100-continue never
// gets the 100 and never sends the body. The wrapper is put on the
// server's own http.Request, and net/http looks at that request's Body
// after the handler to decide whether to read the rest of an unread body,
// to close the connection or to send 100 Continue; so at the end of the
// request the server's body goes back in place, and a handler that
// ignores the body is answered at once, as on plain net/http. BodyLimit
// sets a route's limit, as middleware.
//
// Memory: ReadBody and ReadJSON read the body into chunks allocated as
// data arrives, 16 KiB first, then each as large as the bytes received
// before it, never past the announced Content-Length (a length over the
// limit is refused before anything is read), and then into one buffer of
// the body's size. A client that announces 4 MiB and sends one byte costs
// 16 KiB, not 4 MiB: memory follows the bytes received, at most twice
// them. A JSON document then costs about twice its size plus what it
// decodes to; json.Unmarshal decodes from that buffer without copying it
// again (a json.Decoder would keep its own, doubling, copy).

package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// bodyReader bounds a request body by size and data rate. One is made per
// request with a body (a handler may keep Request().Body past its request;
// a pooled reader would then read the next request's body).
type bodyReader struct {
	r      io.ReadCloser           // the server's body
	w      http.ResponseWriter     // the server's writer, for Connection: close
	length int64                   // the announced Content-Length, -1 when unknown
	rc     http.ResponseController // the server's writer, for read deadlines (a value: no allocation of its own)
	limit  int64                   // 0: none
	read   int64                   // bytes returned so far
	rate   DataRate                // the minimum rate; zero: none
	spent  time.Duration           // time spent waiting in Read, the rate's clock
	eof    bool
	err    error // sticky: the limit or rate error
}

// Read reads from the body within the limit and the rate. The rate's
// clock runs only while a Read waits: time a handler spends between reads
// is not the client's fault.
func (b *bodyReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.limit > 0 && b.length > b.limit {
		// Refused before a byte is read: net/http sends no 100 Continue.
		return 0, b.refuse()
	}
	if b.limit > 0 && int64(len(p)) > b.limit-b.read+1 {
		p = p[:b.limit-b.read+1] // one byte past the limit tells it is exceeded
	}
	var start time.Time
	if b.rate.BytesPerSecond > 0 && !b.eof {
		start = time.Now()
		_ = b.rc.SetReadDeadline(start.Add(b.rate.allowance(b.read) - b.spent))
	}
	n, err := b.r.Read(p)
	if !start.IsZero() {
		b.spent += time.Since(start)
		if err == io.EOF {
			// net/http starts reading the connection in the background at
			// the end of the body; a deadline left behind would end it.
			_ = b.rc.SetReadDeadline(time.Time{})
		} else if err != nil && isTimeout(err) {
			b.err = &slowBodyError{rate: b.rate.BytesPerSecond}
			return n, b.err
		}
	}
	if err == io.EOF {
		b.eof = true
	}
	b.read += int64(n)
	if b.limit > 0 && b.read > b.limit {
		n -= int(b.read - b.limit)
		b.read = b.limit
		return n, b.refuse()
	}
	return n, err
}

// refuse makes the body fail for its size from now on; the connection
// closes after the answer, since the rest of the body is not read.
func (b *bodyReader) refuse() error {
	closeAfterRefusal(b.w)
	b.err = &http.MaxBytesError{Limit: b.limit}
	return b.err
}

// closeAfterRefusal makes the server close the connection after the
// answer to a body it stopped reading, read nothing more of it, and linger
// before it closes. Lingering: net/http sends its FIN and waits half a
// second before it closes, so that a client still sending the body (after
// a 100 Continue, or chunked) reads the answer instead of losing it to the
// reset that closing a socket with unread data sends; net/http lingers so
// for a body cut by http.MaxBytesReader, which is the one public way to
// ask for it: a MaxBytesReader over the server's own writer (found through
// Unwrap) is made to hit its limit. Nothing more: net/http would read up to
// 256 KiB of a chunked body after the handler, looking for its end; a read
// deadline in the past stops that (restoreBody leaves it in place).
func closeAfterRefusal(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	_, _ = http.MaxBytesReader(w, io.NopCloser(strings.NewReader("x")), 0).Read(make([]byte, 1))
}

// Close closes the server's body.
func (b *bodyReader) Close() error { return b.r.Close() }

// isTimeout reports whether err is a deadline's.
func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// slowBodyError is the error of a body that arrived below the minimum rate.
type slowBodyError struct{ rate int64 }

func (e *slowBodyError) Error() string {
	return fmt.Sprintf("request body arrived slower than %d bytes/s", e.rate)
}

// limitBody puts a bodyReader on the request's body, once.
func (c *state) limitBody() {
	r := c.req()
	if c.body != nil || r.Body == nil || r.Body == http.NoBody || (c.bodyLimit <= 0 && c.readRate.BytesPerSecond <= 0) {
		return
	}
	c.body = &bodyReader{r: r.Body, rc: *http.NewResponseController(c.writer.w), w: c.writer.w,
		length: r.ContentLength, limit: c.bodyLimit, rate: c.readRate}
	c.bodyReq = r
	r.Body = c.body
	c.writer.body = c.body
}

// restoreBody gives the server's request its own body back (see the file
// comment) and, when the body was neither read to its end nor refused,
// bounds the time net/http may spend reading what is left of it. Only
// HTTP/1 reads what is left, on the connection, before its next request;
// HTTP/2 resets the stream instead, so it gets no deadline there, where
// setting one would cost a message to the connection's serving goroutine
// and a timer for every request whose body was not read (every GET: an
// HTTP/2 request's Body is never http.NoBody).
func (c *state) restoreBody() {
	b := c.body
	r := c.bodyReq
	r.Body = b.r
	if !b.eof && b.err == nil && b.rate.BytesPerSecond > 0 && r.ProtoMajor < 2 {
		_ = b.rc.SetReadDeadline(time.Now().Add(b.rate.Grace))
	}
	c.body, c.bodyReq = nil, nil
}

// BodyLimit returns middleware that sets the body limit of the routes it
// is installed on, in place of WithBodyLimit's: a larger one for an
// upload, a smaller one for a small JSON API. 0 means no limit; a
// negative size panics.
func BodyLimit(n int64) Handler {
	if n < 0 {
		panic(fmt.Sprintf("vireo: BodyLimit: negative size %d", n))
	}
	return stateHandler(func(c *state, ctx Context) {
		c.bodyLimit = n
		if c.body != nil {
			c.body.limit = n
		} else {
			c.limitBody()
		}
		c.next(ctx)
	})
}

// bodyError classifies a read error: 413 for the size limit, else 400.
func bodyError(err error, what string) *HTTPError {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &HTTPError{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
	}
	var sbe *slowBodyError
	if errors.As(err, &sbe) {
		return &HTTPError{Code: http.StatusRequestTimeout, Message: sbe.Error()}
	}
	return &HTTPError{Code: http.StatusBadRequest, Message: what + ": " + err.Error(), Err: err}
}

// ReadBody reads the whole request body, up to the body limit.
func (c Context) ReadBody() ([]byte, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) ([]byte, error) {
		return s.readBody()
	})
}

func (c *state) readBody() ([]byte, error) {
	return c.readAll("reading body")
}

// readAll reads the body into one buffer; see the file comment.
func (c *state) readAll(what string) ([]byte, error) {
	r := c.req()
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	c.limitBody() // refuses a Content-Length over the limit before reading
	b, err := readGrowing(r.Body, r.ContentLength)
	if err != nil {
		return nil, bodyError(err, what)
	}
	return b, nil
}

// firstBodyChunk is the most a body read allocates before data arrives.
const firstBodyChunk = 16 << 10

// readGrowing reads r to its end. Data goes into chunks, the first of
// firstBodyChunk bytes (or the announced length n when smaller), each next
// one as large as all before it, so a chunk is allocated only once the
// bytes before it have arrived, and never past the announced length. A
// body that fits its first chunk is returned as it is; a longer one is
// copied once into a buffer of its exact size, so the peak is twice the
// bytes received: a client pays for what it sends, not for what it
// announces.
func readGrowing(r io.Reader, n int64) ([]byte, error) {
	size := int64(firstBodyChunk)
	if n > 0 && n < size {
		size = n
	}
	var full [][]byte // the filled chunks before cur
	var total int64   // their bytes
	cur := make([]byte, 0, size)
	for {
		if len(cur) == cap(cur) {
			full = append(full, cur)
			total += int64(len(cur))
			next := total
			if n > total && next > n-total {
				next = n - total
			}
			if n > 0 && total >= n {
				next = 512 // the announced length is in: only the end may follow
			}
			cur = make([]byte, 0, next)
		}
		m, err := r.Read(cur[len(cur):cap(cur)])
		cur = cur[:len(cur)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(full) == 0 {
		return cur, nil
	}
	if len(cur) == 0 && len(full) == 1 {
		return full[0], nil
	}
	b := make([]byte, 0, total+int64(len(cur)))
	for _, c := range full {
		b = append(b, c...)
	}
	return append(b, cur...), nil
}

// isJSON reports whether the media type of contentType is application/json
// or a +json type (application/problem+json...).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// ReadJSON decodes the JSON request body into v, then validates it (see
// WithValidator). The request must say it is JSON (Content-Type
// application/json or a +json type), else 415: a cross-site HTML form can
// post text/plain but not JSON. Unknown fields are ignored; an empty body,
// malformed JSON, a type mismatch or trailing data give a 400 naming the
// problem, an oversized body a 413.
func (c Context) ReadJSON(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.readJSON(v)
	})
}

func (c *state) readJSON(v any) error {
	if err := c.decodeJSON(v); err != nil {
		return err
	}
	return c.validate(v)
}

// decodeJSON is readJSON without the validation (typed handlers validate
// once their parameters are set too).
func (c *state) decodeJSON(v any) error {
	if ct := c.req().Header.Get("Content-Type"); !isJSON(ct) {
		return NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be JSON (Content-Type: application/json), got %q", ct))
	}
	body, err := c.readAll("malformed JSON")
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return NewHTTPError(http.StatusBadRequest, "empty request body, JSON expected")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return jsonError(err)
	}
	return nil
}

// jsonError turns a json.Unmarshal error into a 400 naming the problem.
func jsonError(err error) *HTTPError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ie *json.InvalidUnmarshalError
	switch {
	case errors.As(err, &ie): // a nil or non-pointer target: the handler's bug
		return &HTTPError{Code: http.StatusInternalServerError, Err: fmt.Errorf("vireo: ReadJSON: %w", err)}
	case errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value"):
		return &HTTPError{Code: http.StatusBadRequest, Message: "malformed JSON: data after the top-level value", Err: err}
	case errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end of JSON input"):
		return &HTTPError{Code: http.StatusBadRequest, Message: "malformed JSON: unexpected end of body", Err: err}
	case errors.As(err, &se):
		return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("malformed JSON at offset %d: %v", se.Offset, se), Err: err}
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "(root)"
		}
		return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("JSON field %s: expected %s, got %s", field, te.Type, te.Value), Err: err}
	}
	return &HTTPError{Code: http.StatusBadRequest, Message: "malformed JSON: " + err.Error(), Err: err}
}

// ReadForm parses the form body (urlencoded or multipart) and the query
// into the struct pointed to by v, then validates it (see WithValidator).
// Fields are matched by their `form` tag,
// else by name, case-insensitively; a tag of "-" skips the field. Supported
// field types: string, bool, ints, uints, floats and slices of those.
func (c Context) ReadForm(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.readForm(v)
	})
}

func (c *state) readForm(v any) error {
	if err := c.decodeForm(v); err != nil {
		return err
	}
	return c.validate(v)
}

// decodeForm is readForm without the validation (typed handlers validate
// once their parameters are set too).
func (c *state) decodeForm(v any) error {
	r := c.req()
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if hasBody(r) && ct != "application/x-www-form-urlencoded" && ct != "multipart/form-data" {
		return NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be a form (Content-Type: application/x-www-form-urlencoded or multipart/form-data), got %q", r.Header.Get("Content-Type")))
	}
	if err := c.parseForm(); err != nil {
		return err
	}
	return c.app.forms.decode(r.Form, v)
}

// noBody reports whether b is http.NoBody. NoBody's type is net/http's own
// empty struct, whose one value is NoBody, so the type alone says it: reset,
// on every request, spares the interface comparison (b == http.NoBody),
// which calls into the runtime whenever the types match, that is for every
// request without a body.
func noBody(b io.ReadCloser) bool { return sameType(b, http.NoBody) }

// sameType reports whether v holds a value of t's type.
func sameType[T any](v any, t T) bool {
	_, ok := v.(T)
	return ok
}

// hasBody reports whether r comes with a body (announced or chunked).
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// parseForm parses the query and the form body (urlencoded, or multipart
// under the upload limits) into r.Form: 413 past a limit, 400 when
// malformed.
func (c *state) parseForm() error {
	c.limitBody()
	r := c.req()
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		_, err := c.multipartForm() // under the upload limits; it fills r.Form
		return err
	}
	if err := r.ParseForm(); err != nil {
		return bodyError(err, "malformed form")
	}
	return nil
}

// formCodec decodes url.Values into structs. Field plans are computed once
// per type and cached for the application's lifetime.
type formCodec struct {
	plans sync.Map // reflect.Type -> []formField
}

type formField struct {
	name  string
	index int
}

func (fc *formCodec) plan(t reflect.Type) []formField {
	if p, ok := fc.plans.Load(t); ok {
		return p.([]formField)
	}
	var fields []formField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("form"); ok {
			if tag == "-" {
				continue
			}
			if n, _, _ := strings.Cut(tag, ","); n != "" {
				name = n
			}
		}
		fields = append(fields, formField{name: name, index: i})
	}
	fc.plans.Store(t, fields)
	return fields
}

func (fc *formCodec) decode(form map[string][]string, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("vireo: ReadForm needs a pointer to a struct, got %T", v)
	}
	rv = rv.Elem()
	for _, f := range fc.plan(rv.Type()) {
		vals, ok := form[f.name]
		if !ok {
			for k, vs := range form {
				if strings.EqualFold(k, f.name) {
					vals, ok = vs, true
					break
				}
			}
		}
		if !ok || len(vals) == 0 {
			continue
		}
		if err := setField(rv.Field(f.index), vals); err != nil {
			var ue unsupportedFieldError
			if errors.As(err, &ue) { // the struct's problem, not the client's
				return &HTTPError{Code: http.StatusInternalServerError, Err: fmt.Errorf("vireo: ReadForm: field %s: %w", f.name, err)}
			}
			return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("form field %s: %v", f.name, err), Err: err}
		}
	}
	return nil
}

func setField(fv reflect.Value, vals []string) error {
	if fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() != reflect.Uint8 {
		s := reflect.MakeSlice(fv.Type(), len(vals), len(vals))
		for i, v := range vals {
			if err := setScalar(s.Index(i), v); err != nil {
				return err
			}
		}
		fv.Set(s)
		return nil
	}
	return setScalar(fv, vals[0])
}

func setScalar(fv reflect.Value, s string) error {
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(s)
	case reflect.Bool:
		if s == "on" { // an HTML checkbox
			s = "true"
		}
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not a boolean", s)
		}
		fv.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, fv.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not an integer of %d bits", s, fv.Type().Bits())
		}
		fv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, fv.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not an unsigned integer of %d bits", s, fv.Type().Bits())
		}
		fv.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(s, fv.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		fv.SetFloat(n)
	default:
		return unsupportedFieldError{fv.Type()}
	}
	return nil
}

// unsupportedFieldError is a form field of a type ReadForm cannot fill.
type unsupportedFieldError struct{ t reflect.Type }

func (e unsupportedFieldError) Error() string { return "unsupported field type " + e.t.String() }
