// Typed input binding.
//
// A typed handler's input is a struct whose fields say where their values
// come from: `path:"id"`, `query:"page"`, `header:"X-Tenant"` and
// `cookie:"session"` name a parameter; every other exported field is part
// of the body, decoded as JSON (or as a form, by Content-Type) into the
// whole struct. newBinder walks the struct once, at registration, into a
// list of boundFields: the field's offset in the struct, where its value
// comes from, and a setter chosen for the field's kind that parses a string
// and stores it through an unsafe.Pointer with a typed store (so the
// garbage collector's write barriers apply as for any assignment). A
// request then costs, beyond the body decoding of encoding/json, one
// lookup and one parse per bound field and no reflection; a path parameter
// is found by its index in the route's parameters, known at registration.
//
// Order: the body is decoded first and the parameters are set after it, so
// a body cannot override a path, query or header value; a parameter that
// is absent gets its `default:"..."` or the zero value. Then the
// application's Validator checks the whole struct. A parameter that does
// not parse is reported, with every other one, in one *ValidationError
// keyed by the parameter's name.
//
// Allocations per request: none for the binding of path parameters,
// strings, numbers and booleans; one url.Values map for the first query
// lookup (as Query); one new value for a pointer field that is present;
// the slice of a repeated parameter; the *ValidationError of a bad
// request.

package core

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// source is where a bound field's value comes from.
type source uint8

const (
	fromPath source = iota
	fromQuery
	fromHeader
	fromCookie
)

// sourceTags are the struct tags of the sources, in source order.
var sourceTags = [...]string{"path", "query", "header", "cookie"}

// String returns the OpenAPI "in" of the source.
func (s source) String() string { return sourceTags[s] }

// setter parses s and stores it in the field at p; its error is the reason
// for the client.
type setter func(p unsafe.Pointer, s string) error

// boundField is one parameter field of an input struct.
type boundField struct {
	name   string // the parameter's name (canonical header name for headers)
	src    source
	offset uintptr
	index  int // fromPath: the parameter's index in the route's parameters
	set    setter
	reset  func(p unsafe.Pointer) // stores the zero value
	multi  bool                   // a slice: set appends each value
	def    string
	hasDef bool
	field  reflect.StructField // for the document
}

// binder is the input plan of a typed handler.
type binder struct {
	typ    reflect.Type
	fields []boundField
	body   bool // the struct has body fields
	// mayRefuse: a request can be refused with 400 before validation (a
	// body, a query, header or cookie value, a path value whose pattern
	// type does not guarantee the field's parse); validated: a field has a
	// validate tag, which a Validator may refuse.
	mayRefuse, validated bool
}

// bodyless reports whether requests of method carry no body a handler
// reads.
func bodyless(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodDelete, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// Binder binds a struct from a request by its tags, as typed handlers do;
// mvc binds the body parameters of controller methods with it.
type Binder struct {
	b   *binder
	ptr reflect.Type
}

// NewBinder plans the binding of struct type t for the routes of method
// whose pattern has params. Requests of a method without a body (GET,
// HEAD, DELETE, OPTIONS, TRACE) leave the body fields zero.
func NewBinder(t reflect.Type, method string, params []RouteParam) (*Binder, error) {
	b, err := newBinder(t, method, params)
	if err != nil {
		return nil, err
	}
	return &Binder{b: b, ptr: reflect.PointerTo(t)}, nil
}

// Bind fills v, a non-nil pointer to a value of the planned type, from
// ctx's request and validates it with the application's Validator. Its
// errors are those of a typed handler's input (400, 413, 415).
func (b *Binder) Bind(ctx Context, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Type() != b.ptr || rv.IsNil() {
		return &HTTPError{Code: http.StatusInternalServerError, Err: fmt.Errorf("vireo: Binder.Bind needs a non-nil %s, got %T", b.ptr, v)}
	}
	s, pin := ctx.enter()
	if s == nil {
		return ErrContextReleased
	}
	if pin {
		defer s.unpin()
	}
	return b.b.bind(s, rv.UnsafePointer(), v)
}

// newBinder plans the binding of struct type t for a route of method with
// params.
func newBinder(t reflect.Type, method string, params []RouteParam) (*binder, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("typed handler input %s: must be a struct (use struct{} for none)", t)
	}
	b := &binder{typ: t}
	if err := b.walk(t, 0, method, params); err != nil {
		return nil, err
	}
	return b, nil
}

// walk adds the fields of struct type t, found at offset base in the
// input, flattening untagged embedded structs.
func (b *binder) walk(t reflect.Type, base uintptr, method string, params []RouteParam) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		src, name, tagged := fieldSource(f)
		if !tagged {
			if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
				if err := b.walk(f.Type, base+f.Offset, method, params); err != nil {
					return err
				}
				continue
			}
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			if bodyless(method) {
				return fmt.Errorf("typed handler input %s: field %s has no path, query, header or cookie tag, and a %s request has no body (tag it, or give it json:\"-\")", b.typ, f.Name, method)
			}
			b.body, b.mayRefuse = true, true
			b.validated = b.validated || f.Tag.Get("validate") != ""
			continue
		}
		if !f.IsExported() {
			return fmt.Errorf("typed handler input %s: field %s is unexported", b.typ, f.Name)
		}
		if name == "" {
			return fmt.Errorf("typed handler input %s: field %s: empty %s tag", b.typ, f.Name, src)
		}
		bf := boundField{name: name, src: src, offset: base + f.Offset, field: f}
		b.validated = b.validated || f.Tag.Get("validate") != ""
		if src == fromHeader {
			bf.name = http.CanonicalHeaderKey(name)
		}
		if src == fromPath {
			bf.index = -1
			for j, p := range params {
				if p.Name == name {
					bf.index = j
				}
			}
			if bf.index < 0 {
				return fmt.Errorf("typed handler input %s: field %s: the pattern has no parameter {%s}", b.typ, f.Name, name)
			}
			b.mayRefuse = b.mayRefuse || !parseGuaranteed(params[bf.index].Type, f.Type.Kind())
		} else {
			b.mayRefuse = true
		}
		var err error
		bf.set, bf.reset, bf.multi, err = setterFor(f.Type)
		if err != nil {
			return fmt.Errorf("typed handler input %s: field %s: %w", b.typ, f.Name, err)
		}
		if bf.multi && src != fromQuery && src != fromHeader {
			return fmt.Errorf("typed handler input %s: field %s: a slice takes repeated values, which only query parameters and headers have", b.typ, f.Name)
		}
		if def, ok := f.Tag.Lookup("default"); ok {
			if src == fromPath {
				return fmt.Errorf("typed handler input %s: field %s: a path parameter is always present, a default means nothing", b.typ, f.Name)
			}
			scratch := reflect.New(f.Type)
			for _, v := range defaultValues(def, bf.multi) {
				if err := bf.set(scratch.UnsafePointer(), v); err != nil {
					return fmt.Errorf("typed handler input %s: field %s: default %q %v", b.typ, f.Name, def, err)
				}
			}
			bf.def, bf.hasDef = def, true
		}
		b.fields = append(b.fields, bf)
	}
	return nil
}

// parseGuaranteed reports whether every value a pattern parameter of type
// pt matches parses into a field of kind k.
func parseGuaranteed(pt ParamType, k reflect.Kind) bool {
	switch k {
	case reflect.String:
		return true
	case reflect.Int:
		return pt == ParamInt || pt == ParamInt64 && strconv.IntSize == 64
	case reflect.Int64:
		return pt == ParamInt || pt == ParamInt64
	case reflect.Uint:
		return pt == ParamUint || pt == ParamUint64 && strconv.IntSize == 64
	case reflect.Uint64:
		return pt == ParamUint || pt == ParamUint64
	case reflect.Bool:
		return pt == ParamBool
	}
	return false
}

// defaultValues splits the default of a repeated parameter at commas.
func defaultValues(def string, multi bool) []string {
	if multi {
		return strings.Split(def, ",")
	}
	return []string{def}
}

// fieldSource returns the source of f and the parameter's name, or
// tagged false for a body field. A field with two source tags gets the
// first in source order.
func fieldSource(f reflect.StructField) (source, string, bool) {
	for s, tag := range sourceTags {
		if v, ok := f.Tag.Lookup(tag); ok {
			name, _, _ := strings.Cut(v, ",")
			return source(s), name, true
		}
	}
	return 0, "", false
}

// isForm reports whether contentType is a form media type. It compares
// the type before any parameter without parsing the parameters (which
// mime.ParseMediaType would allocate a map for): the readers parse it.
func isForm(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.TrimSpace(mt)
	return strings.EqualFold(mt, "application/x-www-form-urlencoded") || strings.EqualFold(mt, "multipart/form-data")
}

// bind fills the input at p (v is the same pointer, for the decoders) from
// c's request and validates it.
func (b *binder) bind(c *state, p unsafe.Pointer, v any) error {
	if b.body && !bodyless(c.x.Method()) {
		var err error
		if isForm(c.x.Header("Content-Type")) {
			err = c.decodeForm(v)
		} else {
			err = c.decodeJSON(v)
		}
		if err != nil {
			return err
		}
	}
	var bad map[string]string
	for i := range b.fields {
		f := &b.fields[i]
		fp := unsafe.Add(p, f.offset)
		if err := f.bind(c, fp); err != nil {
			if bad == nil {
				bad = map[string]string{}
			}
			bad[f.name] = err.Error()
		}
	}
	if bad != nil {
		return &ValidationError{Fields: bad}
	}
	return c.validate(v)
}

// bind sets the field at fp from c's request.
func (f *boundField) bind(c *state, fp unsafe.Pointer) error {
	var (
		value string
		found bool
		all   []string
	)
	switch f.src {
	case fromPath:
		if f.index < len(c.params) {
			value, found = c.params[f.index].Value, true
		}
	case fromQuery:
		if c.query == nil {
			c.query = parseQuery(c.x.RawQuery())
		}
		all = c.query[f.name]
	case fromHeader:
		all = c.x.HeaderValues(f.name)
	case fromCookie:
		if ck, err := c.req().Cookie(f.name); err == nil {
			value, found = ck.Value, true
		}
	}
	if all != nil {
		value, found = all[0], true
	}
	if !found {
		f.reset(fp)
		if !f.hasDef {
			return nil
		}
		all = defaultValues(f.def, f.multi)
		value = all[0]
	}
	if !f.multi {
		return f.set(fp, value)
	}
	f.reset(fp)
	for _, v := range all {
		if err := f.set(fp, v); err != nil {
			return err
		}
	}
	return nil
}

// setterFor returns the setter and zeroing function of a field of type t;
// multi is set for a slice, whose setter appends.
func setterFor(t reflect.Type) (set setter, reset func(unsafe.Pointer), multi bool, err error) {
	switch t.Kind() {
	case reflect.Pointer:
		inner, _, m, err := setterFor(t.Elem())
		if err != nil || m {
			return nil, nil, false, errors.Join(err, fmt.Errorf("unsupported type %s", t))
		}
		set, err := pointerSetter(t.Elem(), inner)
		return set, zeroer[unsafe.Pointer](), false, err
	case reflect.Slice:
		inner, _, m, err := setterFor(t.Elem())
		if err != nil || m {
			return nil, nil, false, errors.Join(err, fmt.Errorf("unsupported type %s", t))
		}
		set, err := sliceSetter(t.Elem(), inner)
		return set, zeroer[[]byte](), true, err // every slice header has the same layout
	}
	set = scalarSetter(t.Kind())
	if set == nil {
		return nil, nil, false, fmt.Errorf("unsupported type %s (a parameter is a string, bool, integer or float, a pointer to one, or a slice of them)", t)
	}
	return set, scalarZeroer(t.Kind()), false, nil
}

// scalarSetter returns the setter for a kind, or nil. Named types share
// their kind's setter: the representation is the same.
func scalarSetter(k reflect.Kind) setter {
	switch k {
	case reflect.String:
		return func(p unsafe.Pointer, s string) error { *(*string)(p) = s; return nil }
	case reflect.Bool:
		return func(p unsafe.Pointer, s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return errors.New("must be true or false")
			}
			*(*bool)(p) = v
			return nil
		}
	case reflect.Int:
		return intSetter[int](strconv.IntSize)
	case reflect.Int8:
		return intSetter[int8](8)
	case reflect.Int16:
		return intSetter[int16](16)
	case reflect.Int32:
		return intSetter[int32](32)
	case reflect.Int64:
		return intSetter[int64](64)
	case reflect.Uint:
		return uintSetter[uint](strconv.IntSize)
	case reflect.Uint8:
		return uintSetter[uint8](8)
	case reflect.Uint16:
		return uintSetter[uint16](16)
	case reflect.Uint32:
		return uintSetter[uint32](32)
	case reflect.Uint64:
		return uintSetter[uint64](64)
	case reflect.Float32:
		return floatSetter[float32](32)
	case reflect.Float64:
		return floatSetter[float64](64)
	}
	return nil
}

func intSetter[T int | int8 | int16 | int32 | int64](bits int) setter {
	return func(p unsafe.Pointer, s string) error {
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return rangeError(err, "must be an integer", int64(-1)<<(bits-1), int64(1)<<(bits-1)-1)
		}
		*(*T)(p) = T(n)
		return nil
	}
}

func uintSetter[T uint | uint8 | uint16 | uint32 | uint64](bits int) setter {
	return func(p unsafe.Pointer, s string) error {
		n, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			return rangeError(err, "must be a non-negative integer", 0, uint64(1)<<bits-1)
		}
		*(*T)(p) = T(n)
		return nil
	}
}

// rangeError is the reason for a number that does not parse: what it must
// be, and its bounds when it is out of range.
func rangeError(err error, what string, lo, hi any) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("must be an integer between %d and %d", lo, hi)
	}
	return errors.New(what)
}

func floatSetter[T float32 | float64](bits int) setter {
	return func(p unsafe.Pointer, s string) error {
		n, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return errors.New("must be a number")
		}
		*(*T)(p) = T(n)
		return nil
	}
}

// scalarZeroer returns the function storing a kind's zero value.
func scalarZeroer(k reflect.Kind) func(unsafe.Pointer) {
	switch k {
	case reflect.String:
		return zeroer[string]()
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return zeroer[uint8]()
	case reflect.Int16, reflect.Uint16:
		return zeroer[uint16]()
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return zeroer[uint32]()
	case reflect.Int, reflect.Uint:
		return zeroer[uint]()
	}
	return zeroer[uint64]() // int64, uint64, float64
}

func zeroer[T any]() func(unsafe.Pointer) {
	if unsafe.Sizeof(*new(T)) == 0 {
		return func(unsafe.Pointer) {}
	}
	return func(p unsafe.Pointer) { var z T; *(*T)(p) = z }
}

// pointerSetter returns a setter that allocates a new value of elem,
// sets it with inner and stores its address.
func pointerSetter(elem reflect.Type, inner setter) (setter, error) {
	switch elem.Kind() {
	case reflect.String:
		return newAndSet[string](inner), nil
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return newAndSet[uint8](inner), nil
	case reflect.Int16, reflect.Uint16:
		return newAndSet[uint16](inner), nil
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return newAndSet[uint32](inner), nil
	case reflect.Int, reflect.Uint:
		return newAndSet[uint](inner), nil
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		return newAndSet[uint64](inner), nil
	}
	return nil, fmt.Errorf("unsupported type *%s", elem)
}

func newAndSet[T any](inner setter) setter {
	return func(p unsafe.Pointer, s string) error {
		v := new(T)
		if err := inner(unsafe.Pointer(v), s); err != nil {
			return err
		}
		*(**T)(p) = v
		return nil
	}
}

// sliceSetter returns a setter that appends a value of elem set by inner.
func sliceSetter(elem reflect.Type, inner setter) (setter, error) {
	switch elem.Kind() {
	case reflect.String:
		return appendAndSet[string](inner), nil
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return appendAndSet[uint8](inner), nil
	case reflect.Int16, reflect.Uint16:
		return appendAndSet[uint16](inner), nil
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return appendAndSet[uint32](inner), nil
	case reflect.Int, reflect.Uint:
		return appendAndSet[uint](inner), nil
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		return appendAndSet[uint64](inner), nil
	}
	return nil, fmt.Errorf("unsupported type []%s", elem)
}

func appendAndSet[T any](inner setter) setter {
	return func(p unsafe.Pointer, s string) error {
		var v T
		if err := inner(unsafe.Pointer(&v), s); err != nil {
			return err
		}
		sp := (*[]T)(p)
		*sp = append(*sp, v)
		return nil
	}
}
