// XML bodies and validation.
//
// ReadXML is ReadJSON for XML: the same body limit, the same 400/413/415
// errors. After ReadJSON, ReadXML or ReadForm has filled a value, the
// application's Validator (WithValidator) checks it; mvc binds bodies
// through these readers, so controllers get the same check. A Validator
// reports bad fields with a *ValidationError, which the default error page
// answers as 400 with the JSON body {"errors": {"field": "reason"}}.

package core

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"sort"
	"strings"
)

// Validator checks a value decoded from a request. It returns nil, a
// *ValidationError naming the bad fields, or another error (answered 400
// with its text).
type Validator interface {
	Validate(v any) error
}

// ValidatorFunc adapts a function to a Validator.
type ValidatorFunc func(v any) error

// Validate calls f(v).
func (f ValidatorFunc) Validate(v any) error { return f(v) }

// WithValidator sets the Validator run by ReadJSON, ReadXML, ReadForm and
// mvc body binding.
func WithValidator(v Validator) Option {
	return func(app *Application) { app.validator = v }
}

// ValidationError is a 400 naming each invalid field and why.
type ValidationError struct {
	Fields map[string]string // field name -> reason
}

// Error lists the fields and reasons, sorted by field.
func (e *ValidationError) Error() string {
	names := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("invalid input: ")
	for i, k := range names {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k + ": " + e.Fields[k])
	}
	return b.String()
}

// StatusCode returns 400.
func (e *ValidationError) StatusCode() int { return http.StatusBadRequest }

// Validate runs the application's Validator on v (nil when there is none).
// Errors come back as a *ValidationError or an HTTPError of 400, ready for
// StopWithError.
func (c Context) Validate(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.validate(v)
	})
}

func (c *state) validate(v any) error {
	if c.app.validator == nil {
		return nil
	}
	err := c.app.validator.Validate(v)
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if errors.As(err, &ve) {
		return ve
	}
	var he *HTTPError
	if errors.As(err, &he) {
		return he
	}
	return &HTTPError{Code: http.StatusBadRequest, Message: err.Error(), Err: err}
}

// ReadXML decodes the XML request body into v, then validates it. Like
// ReadJSON it answers a body that does not say it is XML (Content-Type
// application/xml, text/xml or a +xml type) with 415,
// malformed XML or trailing data with 400 and an oversized body with 413.
func (c Context) ReadXML(v any) error {
	return with(c, ErrContextReleased, func(s *state) error {
		return s.readXML(v)
	})
}

func (c *state) readXML(v any) error {
	// A missing Content-Type is refused too: a cross-site page can send a
	// body without one (a Blob with no type) and no CORS preflight.
	ct := c.req().Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !(mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")) {
		return NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be XML (Content-Type: application/xml), got %q", ct))
	}
	if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &HTTPError{Code: http.StatusInternalServerError, Err: fmt.Errorf("vireo: ReadXML needs a non-nil pointer, got %T", v)}
	}
	if c.req().Body == nil || c.req().Body == http.NoBody {
		return NewHTTPError(http.StatusBadRequest, "empty request body, XML expected")
	}
	c.limitBody()
	dec := xml.NewDecoder(c.req().Body)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return NewHTTPError(http.StatusBadRequest, "empty request body, XML expected")
		}
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return &HTTPError{Code: http.StatusBadRequest, Message: fmt.Sprintf("malformed XML at line %d: %s", se.Line, se.Msg), Err: err}
		}
		return bodyError(err, "malformed XML")
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return bodyError(err, "malformed XML")
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(strings.TrimSpace(string(t))) == 0 {
				continue
			}
		case xml.Comment, xml.ProcInst:
			continue
		}
		return NewHTTPError(http.StatusBadRequest, "malformed XML: data after the root element")
	}
	return c.validate(v)
}
