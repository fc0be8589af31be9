// Schemas from Go types.
//
// A Generator walks a reflect.Type once and answers the JSON Schema of its
// encoding/json form: struct fields by their json names (embedded structs
// flattened, "-" and unexported fields left out), pointers as nullable,
// slices and arrays as arrays ([]byte as a base64 string), maps as objects
// with additionalProperties, time.Time as a date-time string, types that
// marshal themselves as text as strings and as JSON as any value. A named
// struct type becomes one entry of components/schemas, referenced by $ref
// wherever it is used, so a recursive type terminates: its entry is
// reserved before its fields are walked. Two named types with the same name
// from different packages get their package's name as a prefix.
//
// Validation tags (`validate:"..."`) add their keywords to the field's
// schema; validate.go reads them.

package openapi

import (
	"encoding"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"
	"time"
)

// Generator turns Go types into schemas and collects the named ones.
// The zero value is not ready: use NewGenerator.
type Generator struct {
	// Skip, when set, leaves out the struct fields it reports (for
	// example fields bound from the path or the query, not the body).
	Skip func(reflect.StructField) bool

	schemas map[string]*Schema
	names   map[reflect.Type]string
	taken   map[string]reflect.Type
}

// NewGenerator returns a Generator with no schemas yet.
func NewGenerator() *Generator {
	return &Generator{schemas: map[string]*Schema{}, names: map[reflect.Type]string{}, taken: map[string]reflect.Type{}}
}

var (
	typeTime          = reflect.TypeFor[time.Time]()
	typeRawMessage    = reflect.TypeFor[json.RawMessage]()
	typeJSONMarshaler = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// Components returns the named schemas collected so far.
func (g *Generator) Components() map[string]*Schema { return g.schemas }

// Schema returns the schema of t: a $ref for a named struct type (whose
// schema is then in Components), the schema itself otherwise. Channels,
// functions, complex numbers and unsafe pointers have none: an error.
func (g *Generator) Schema(t reflect.Type) (*Schema, error) {
	return g.schema(t, "")
}

func (g *Generator) schema(t reflect.Type, where string) (*Schema, error) {
	switch {
	case t == typeTime:
		return &Schema{Types: []string{"string"}, Format: "date-time"}, nil
	case t == typeRawMessage:
		return &Schema{}, nil
	case t.Kind() != reflect.Pointer && (t.Implements(typeJSONMarshaler) || reflect.PointerTo(t).Implements(typeJSONMarshaler)):
		return &Schema{}, nil // marshals itself: any JSON value
	case t.Kind() != reflect.Pointer && (t.Implements(typeTextMarshaler) || reflect.PointerTo(t).Implements(typeTextMarshaler)):
		return &Schema{Types: []string{"string"}}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &Schema{Types: []string{"boolean"}}, nil
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return &Schema{Types: []string{"integer"}, Format: "int32"}, nil
	case reflect.Int, reflect.Int64:
		return &Schema{Types: []string{"integer"}, Format: "int64"}, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return &Schema{Types: []string{"integer"}, Format: "int32", Minimum: ptr(0.0)}, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return &Schema{Types: []string{"integer"}, Format: "int64", Minimum: ptr(0.0)}, nil
	case reflect.Float32:
		return &Schema{Types: []string{"number"}, Format: "float"}, nil
	case reflect.Float64:
		return &Schema{Types: []string{"number"}, Format: "double"}, nil
	case reflect.String:
		return &Schema{Types: []string{"string"}}, nil
	case reflect.Interface:
		return &Schema{}, nil
	case reflect.Pointer:
		s, err := g.schema(t.Elem(), where)
		if err != nil {
			return nil, err
		}
		return Nullable(s), nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &Schema{Types: []string{"string"}, ContentEncoding: "base64"}, nil
		}
		items, err := g.schema(t.Elem(), where)
		if err != nil {
			return nil, err
		}
		s := &Schema{Types: []string{"array"}, Items: items}
		if t.Kind() == reflect.Slice {
			s.Types = []string{"array", "null"} // a nil slice is null
		} else {
			s.MinItems, s.MaxItems = ptr(t.Len()), ptr(t.Len())
		}
		return s, nil
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			if !t.Key().Implements(typeTextMarshaler) {
				return nil, fmt.Errorf("%s%s: map keys of type %s have no JSON form", where, t, t.Key())
			}
		}
		v, err := g.schema(t.Elem(), where)
		if err != nil {
			return nil, err
		}
		return &Schema{Types: []string{"object", "null"}, AdditionalProperties: v}, nil
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t, where)
		}
		return g.named(t)
	}
	return nil, fmt.Errorf("%s%s: a %s has no JSON form", where, t, t.Kind())
}

// named returns a $ref to the component of the named struct type t,
// generating it the first time.
func (g *Generator) named(t reflect.Type) (*Schema, error) {
	if name, ok := g.names[t]; ok {
		return &Schema{Ref: "#/components/schemas/" + name}, nil
	}
	name := componentName(t, false)
	if other, ok := g.taken[name]; ok && other != t {
		name = componentName(t, true)
	}
	g.names[t], g.taken[name] = name, t
	g.schemas[name] = &Schema{} // reserved: a recursive field refers to it
	s, err := g.object(t, t.String()+".")
	if err != nil {
		delete(g.names, t)
		delete(g.taken, name)
		delete(g.schemas, name)
		return nil, err
	}
	g.schemas[name] = s
	return &Schema{Ref: "#/components/schemas/" + name}, nil
}

// object returns the schema of struct type t with its properties.
func (g *Generator) object(t reflect.Type, where string) (*Schema, error) {
	s := &Schema{Types: []string{"object"}, Properties: map[string]*Schema{}}
	if err := g.fields(t, s, where, 0); err != nil {
		return nil, err
	}
	return s, nil
}

// fields adds the properties of struct type t to s, flattening embedded
// structs as encoding/json does.
func (g *Generator) fields(t reflect.Type, s *Schema, where string, depth int) error {
	if depth > 8 {
		return nil // embedded cycles: encoding/json stops too
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if g.Skip != nil && g.Skip(f) {
			continue
		}
		name, opts, hasName := jsonName(f)
		if name == "-" && !hasName {
			continue
		}
		if f.Anonymous && !hasName {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := g.fields(ft, s, where, depth+1); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		fs, err := g.schema(f.Type, where+f.Name+": ")
		if err != nil {
			return err
		}
		if strings.Contains(opts, ",string") {
			fs = &Schema{Types: []string{"string"}}
		}
		required, err := applyValidate(fs, f.Tag.Get("validate"), f.Type)
		if err != nil {
			return fmt.Errorf("%s%s: %w", where, f.Name, err)
		}
		if d, ok := f.Tag.Lookup("doc"); ok {
			fs = describe(fs, d)
		}
		s.Properties[name] = fs
		if required && !contains(s.Required, name) {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// describe sets a description on s; a $ref gets it beside the reference.
func describe(s *Schema, d string) *Schema {
	c := *s
	c.Description = d
	return &c
}

// jsonName returns the JSON name of f, the tag's options and whether the
// tag gave a name.
func jsonName(f reflect.StructField) (name, opts string, named bool) {
	tag, ok := f.Tag.Lookup("json")
	if !ok {
		return f.Name, "", false
	}
	if tag == "-" {
		return "-", "", false
	}
	name, rest, _ := strings.Cut(tag, ",")
	if name == "" {
		return f.Name, "," + rest, false
	}
	return name, "," + rest, true
}

// componentName names the component of t: its type name, with generic
// arguments reduced to their own names, and with its package's name in
// front when qualified is set.
func componentName(t reflect.Type, qualified bool) string {
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		args := strings.Split(strings.TrimSuffix(n[i+1:], "]"), ",")
		for j, a := range args {
			if k := strings.LastIndexAny(a, "./"); k >= 0 {
				a = a[k+1:]
			}
			args[j] = a
		}
		n = n[:i] + "_" + strings.Join(args, "_")
	}
	if qualified && t.PkgPath() != "" {
		n = path.Base(t.PkgPath()) + "." + n
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, n)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }

// Parameter returns the schema of struct field f as a request parameter:
// its type's schema (a pointer's element: a parameter is absent, never
// null) with its validate and doc tags applied, and whether the validate
// tag makes it required.
func (g *Generator) Parameter(f reflect.StructField) (*Schema, bool, error) {
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := g.schema(t, f.Name+": ")
	if err != nil {
		return nil, false, err
	}
	if t.Kind() == reflect.Slice {
		s.Types = []string{"array"}
	}
	required, err := applyValidate(s, f.Tag.Get("validate"), f.Type)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", f.Name, err)
	}
	if d, ok := f.Tag.Lookup("doc"); ok {
		s = describe(s, d)
	}
	return s, required, nil
}
