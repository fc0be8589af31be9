// Request bodies.
//
// Every body reader goes through http.MaxBytesReader with the application's
// limit, so a client cannot make the server buffer an unbounded body. Errors
// are HTTPErrors a handler can pass straight to StopWithError: 413 when the
// limit is exceeded, 400 with the reason for malformed input.

package core

import (
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

func (c *Context) limitBody() {
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

// ReadBody reads the whole request body, up to the body limit.
func (c *Context) ReadBody() ([]byte, error) {
	c.check()
	if c.request.Body == nil {
		return nil, nil
	}
	c.limitBody()
	b, err := io.ReadAll(c.request.Body)
	if err != nil {
		return nil, bodyError(err, "reading body")
	}
	return b, nil
}

// ReadJSON decodes the JSON request body into v, then validates it (see
// WithValidator). Unknown fields are
// ignored; an empty body, malformed JSON, a type mismatch or trailing data
// give a 400 naming the problem, an oversized body a 413.
func (c *Context) ReadJSON(v any) error {
	c.check()
	if c.request.Body == nil || c.request.Body == http.NoBody {
		return NewHTTPError(http.StatusBadRequest, "empty request body, JSON expected")
	}
	c.limitBody()
	dec := json.NewDecoder(c.request.Body)
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return NewHTTPError(http.StatusBadRequest, "empty request body, JSON expected")
		case errors.As(err, &se):
			return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("malformed JSON at offset %d: %v", se.Offset, se), Err: err}
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				field = "(root)"
			}
			return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("JSON field %s: expected %s, got %s", field, te.Type, te.Value), Err: err}
		case errors.Is(err, io.ErrUnexpectedEOF):
			return &HTTPError{Code: http.StatusBadRequest, Message: "malformed JSON: unexpected end of body", Err: err}
		}
		return bodyError(err, "malformed JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return bodyError(err, "malformed JSON")
		}
		return NewHTTPError(http.StatusBadRequest, "malformed JSON: data after the top-level value")
	}
	return c.Validate(v)
}

// ReadForm parses the form body (urlencoded or multipart) and the query
// into the struct pointed to by v, then validates it (see WithValidator).
// Fields are matched by their `form` tag,
// else by name, case-insensitively; a tag of "-" skips the field. Supported
// field types: string, bool, ints, uints, floats and slices of those.
func (c *Context) ReadForm(v any) error {
	c.check()
	c.limitBody()
	r := c.request
	var err error
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		err = r.ParseMultipartForm(c.app.bodyLimit)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return bodyError(err, "malformed form")
	}
	if err := c.app.forms.decode(r.Form, v); err != nil {
		return err
	}
	return c.Validate(v)
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
		return fmt.Errorf("unsupported field type %s", fv.Type())
	}
	return nil
}
