// Request bodies.
//
// Every body reader goes through http.MaxBytesReader with the application's
// limit, so a client cannot make the server buffer an unbounded body. Errors
// are HTTPErrors a handler can pass straight to StopWithError: 413 when the
// limit is exceeded, 415 for a body of the wrong media type, 400 with the
// reason for malformed input.
//
// Memory: ReadBody and ReadJSON read the body into one buffer. When the
// request announces its Content-Length the buffer is allocated once at that
// size (a length over the limit is refused before anything is read), so a
// JSON document costs its own size plus what it decodes to, at most about
// twice the body for text-heavy documents; a body of unknown length grows
// its buffer as io.ReadAll does. json.Unmarshal then decodes from that
// buffer without copying it again (a json.Decoder would keep its own,
// doubling, copy).

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
)

func (c *state) limitBody() {
	if !c.bodyLimited && c.request.Body != nil && c.app.bodyLimit > 0 {
		c.request.Body = http.MaxBytesReader(c.out, c.request.Body, c.app.bodyLimit)
		c.bodyLimited = true
	}
}

// bodyError classifies a read error: 413 for the size limit, else 400.
func bodyError(err error, what string) *HTTPError {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &HTTPError{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
	}
	return &HTTPError{Code: http.StatusBadRequest, Message: what + ": " + err.Error(), Err: err}
}

func (c *state) ReadBody() ([]byte, error) {
	return c.readAll("reading body")
}

// readAll reads the body into one buffer; see the file comment.
func (c *state) readAll(what string) ([]byte, error) {
	r := c.request
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	// The announced length sizes the buffer only under a limit: without one
	// a client could make the server allocate whatever it announces.
	if n, limit := r.ContentLength, c.app.bodyLimit; n > 0 && limit > 0 {
		if n > limit {
			return nil, &HTTPError{Code: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body larger than %d bytes", limit)}
		}
		c.limitBody()
		b := make([]byte, n)
		if _, err := io.ReadFull(r.Body, b); err != nil {
			return nil, bodyError(err, what)
		}
		return b, nil
	}
	c.limitBody()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, bodyError(err, what)
	}
	return b, nil
}

// isJSON reports whether the media type of contentType is application/json
// or a +json type (application/problem+json...).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func (c *state) ReadJSON(v any) error {
	if err := c.decodeJSON(v); err != nil {
		return err
	}
	return c.Validate(v)
}

// decodeJSON is ReadJSON without the validation (typed handlers validate
// once their parameters are set too).
func (c *state) decodeJSON(v any) error {
	if ct := c.request.Header.Get("Content-Type"); !isJSON(ct) {
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

func (c *state) ReadForm(v any) error {
	if err := c.decodeForm(v); err != nil {
		return err
	}
	return c.Validate(v)
}

// decodeForm is ReadForm without the validation (typed handlers validate
// once their parameters are set too).
func (c *state) decodeForm(v any) error {
	r := c.request
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if hasBody(r) && ct != "application/x-www-form-urlencoded" && ct != "multipart/form-data" {
		return NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be a form (Content-Type: application/x-www-form-urlencoded or multipart/form-data), got %q", r.Header.Get("Content-Type")))
	}
	if err := c.parseForm(); err != nil {
		return err
	}
	return c.app.forms.decode(r.Form, v)
}

// hasBody reports whether r comes with a body (announced or chunked).
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// parseForm parses the query and the form body (urlencoded, or multipart
// within the body limit) into r.Form: 413 past the limit, 400 when
// malformed.
func (c *state) parseForm() error {
	c.limitBody()
	r := c.request
	var err error
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		limit := c.app.bodyLimit
		if limit <= 0 {
			limit = DefaultBodyLimit
		}
		err = r.ParseMultipartForm(limit)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
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
