// Conversion of render data to a pongo2.Context.
//
// pongo2 looks names up in a map. pongo2.Context and map[string]any are
// used as they are (pongo2 copies them, never writes them). Other maps with
// string keys are copied. A struct, or a pointer to one, becomes a context
// with one entry per exported field, named as the field is declared (Title
// stays Title) unless a `view:"name"` tag renames it; `view:"-"` leaves it
// out. Fields promoted from embedded structs are included like their own. The
// field list of each struct type is computed once and cached.

package view

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/flosch/pongo2/v6"
)

// structField is one context entry taken from a struct field.
type structField struct {
	name  string
	index []int
}

// structFields caches []structField by reflect.Type.
var structFields sync.Map

// toContext converts render data to a pongo2.Context; nil gives nil.
func toContext(data any) (pongo2.Context, error) {
	switch d := data.(type) {
	case nil:
		return nil, nil
	case pongo2.Context:
		return d, nil
	case map[string]any:
		return pongo2.Context(d), nil
	}
	v := reflect.ValueOf(data)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("data of type %T: map keys must be strings", data)
		}
		ctx := make(pongo2.Context, v.Len())
		for it := v.MapRange(); it.Next(); {
			ctx[it.Key().String()] = it.Value().Interface()
		}
		return ctx, nil
	case reflect.Struct:
		fields := fieldsOf(v.Type())
		ctx := make(pongo2.Context, len(fields))
		for _, f := range fields {
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil || !fv.CanInterface() {
				continue // promoted through a nil pointer or an unexported embedded struct
			}
			ctx[f.name] = fv.Interface()
		}
		return ctx, nil
	}
	return nil, fmt.Errorf("data of type %T: want pongo2.Context, a map with string keys or a struct", data)
}

// fieldsOf returns the context entries of struct type t.
func fieldsOf(t reflect.Type) []structField {
	if f, ok := structFields.Load(t); ok {
		return f.([]structField)
	}
	var fields []structField
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("view"); ok {
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		fields = append(fields, structField{name: name, index: f.Index})
	}
	structFields.Store(t, fields)
	return fields
}
