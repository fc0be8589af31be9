// JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1).
//
// Schema holds the keywords a Go type and its struct tags can say. Types is
// a list because 3.1 spells a nullable value as a type list
// (["string", "null"]); it marshals as a single string when it has one
// element. Numbers that are absent must stay absent (a minimum of 0 is a
// real bound), so the bounds are pointers.

package openapi

import "encoding/json"

// Schema is a JSON Schema.
type Schema struct {
	Ref         string    `json:"$ref,omitempty"`
	Types       []string  `json:"-"` // "type": one or more of string, number, integer, boolean, array, object, null
	Format      string    `json:"format,omitempty"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"`
	Enum        []any     `json:"enum,omitempty"`
	Default     any       `json:"default,omitempty"`
	Examples    []any     `json:"examples,omitempty"`
	Deprecated  bool      `json:"deprecated,omitempty"`
	ReadOnly    bool      `json:"readOnly,omitempty"`
	AnyOf       []*Schema `json:"anyOf,omitempty"`

	// objects
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	MinProperties        *int               `json:"minProperties,omitempty"`
	MaxProperties        *int               `json:"maxProperties,omitempty"`

	// arrays
	Items    *Schema `json:"items,omitempty"`
	MinItems *int    `json:"minItems,omitempty"`
	MaxItems *int    `json:"maxItems,omitempty"`

	// strings
	MinLength       *int   `json:"minLength,omitempty"`
	MaxLength       *int   `json:"maxLength,omitempty"`
	Pattern         string `json:"pattern,omitempty"`
	ContentEncoding string `json:"contentEncoding,omitempty"`

	// numbers
	Minimum          *float64 `json:"minimum,omitempty"`
	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMinimum *float64 `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum *float64 `json:"exclusiveMaximum,omitempty"`
}

// schemaJSON is Schema without its methods, with Types as "type".
type schemaJSON Schema

// MarshalJSON writes Types as "type": a string for one type, a list for
// more.
func (s *Schema) MarshalJSON() ([]byte, error) {
	type withType struct {
		Type any `json:"type,omitempty"`
		*schemaJSON
	}
	v := withType{schemaJSON: (*schemaJSON)(s)}
	switch len(s.Types) {
	case 0:
	case 1:
		v.Type = s.Types[0]
	default:
		v.Type = s.Types
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads "type" as a string or a list into Types.
func (s *Schema) UnmarshalJSON(b []byte) error {
	var v struct {
		Type json.RawMessage `json:"type"`
		*schemaJSON
	}
	v.schemaJSON = (*schemaJSON)(s)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.Types = nil
	if len(v.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(v.Type, &one) == nil {
		s.Types = []string{one}
		return nil
	}
	return json.Unmarshal(v.Type, &s.Types)
}

// Nullable returns a schema that also admits null: the type list gets
// "null", or a reference becomes anyOf the reference and null.
func Nullable(s *Schema) *Schema {
	if s.Ref != "" {
		return &Schema{AnyOf: []*Schema{s, {Types: []string{"null"}}}}
	}
	if len(s.Types) == 0 {
		return s // no type: null is admitted already
	}
	for _, t := range s.Types {
		if t == "null" {
			return s
		}
	}
	c := *s
	c.Types = append(append([]string(nil), s.Types...), "null")
	return &c
}
