// Validation tags as JSON Schema keywords.
//
// The `validate` tag is go-playground/validator's syntax (the library of
// the validator module, and Gin's): comma-separated rules, each a name and
// an optional =parameter. The rules with a JSON Schema equivalent are
// reflected into the field's schema; the others constrain nothing the
// schema can say and are left out (the server still checks them):
//
//	required                  the field is in the object's required list
//	min, max, len             minLength/maxLength on strings, minItems/maxItems on
//	                          slices and arrays, minProperties/maxProperties on maps,
//	                          minimum/maximum on numbers
//	gt, gte, lt, lte          exclusiveMinimum, minimum, exclusiveMaximum, maximum
//	                          (on strings and collections: lengths, gt=n as n+1)
//	oneof=a b c               enum, typed as the field
//	email, uuid (uuid4...), url, uri, hostname, ipv4, ipv6, datetime
//	                          format
//	alpha, alphanum, numeric  pattern
//	dive                      the rules after it apply to the elements
//
// A rule with alternatives (a|b) says nothing the schema can hold simply
// and is skipped whole.

package openapi

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// applyValidate adds the keywords of tag to s, the schema of a value of
// type t, and reports whether the tag makes the field required.
func applyValidate(s *Schema, tag string, t reflect.Type) (required bool, err error) {
	if tag == "" || tag == "-" {
		return false, nil
	}
	rules := strings.Split(tag, ",")
	for i := 0; i < len(rules); i++ {
		rule := rules[i]
		name, param, _ := strings.Cut(rule, "=")
		if strings.Contains(rule, "|") {
			continue
		}
		if name == "dive" {
			et := t
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			var items *Schema
			switch {
			case s.Items != nil:
				items = s.Items
			case s.AdditionalProperties != nil:
				items = s.AdditionalProperties
			default:
				return required, nil
			}
			_, err := applyValidate(items, strings.Join(rules[i+1:], ","), et.Elem())
			return required, err
		}
		if name == "required" {
			required = true
			continue
		}
		if err := applyRule(s, name, param, t); err != nil {
			return required, fmt.Errorf("validate tag %q: %w", tag, err)
		}
	}
	return required, nil
}

// lengthKind says what min and max count for a value of type t.
func lengthKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map:
		return "map"
	case reflect.Struct:
		return "struct"
	}
	return "number"
}

// applyRule adds the keywords of one rule to s.
func applyRule(s *Schema, name, param string, t reflect.Type) error {
	kind := lengthKind(t)
	switch name {
	case "min", "max", "len", "gt", "gte", "lt", "lte":
		if kind == "struct" {
			return nil // time.Time and friends: the validator compares with now
		}
		n, err := strconv.ParseFloat(param, 64)
		if err != nil {
			return fmt.Errorf("%s needs a number, got %q", name, param)
		}
		setBound(s, kind, name, n)
	case "oneof":
		for _, w := range strings.Fields(param) {
			v, err := enumValue(w, t)
			if err != nil {
				return err
			}
			s.Enum = append(s.Enum, v)
		}
	case "email":
		s.Format = "email"
	case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122":
		s.Format = "uuid"
	case "url", "uri", "http_url":
		s.Format = "uri"
	case "hostname", "hostname_rfc1123":
		s.Format = "hostname"
	case "ipv4", "ip4_addr":
		s.Format = "ipv4"
	case "ipv6", "ip6_addr":
		s.Format = "ipv6"
	case "datetime":
		if param == "2006-01-02T15:04:05Z07:00" {
			s.Format = "date-time"
		} else if param == "2006-01-02" {
			s.Format = "date"
		}
	case "alpha":
		s.Pattern = "^[a-zA-Z]*$"
	case "alphanum":
		s.Pattern = "^[a-zA-Z0-9]*$"
	case "numeric":
		s.Pattern = "^[-+]?[0-9]+(\\.[0-9]+)?$"
	}
	return nil
}

// setBound sets the keyword that rule name with bound n means for kind.
func setBound(s *Schema, kind, name string, n float64) {
	if kind == "number" {
		switch name {
		case "min", "gte":
			s.Minimum = ptr(n)
		case "max", "lte":
			s.Maximum = ptr(n)
		case "len":
			s.Minimum, s.Maximum = ptr(n), ptr(n)
		case "gt":
			s.ExclusiveMinimum = ptr(n)
		case "lt":
			s.ExclusiveMaximum = ptr(n)
		}
		return
	}
	lo, hi := &s.MinLength, &s.MaxLength
	switch kind {
	case "array":
		lo, hi = &s.MinItems, &s.MaxItems
	case "map":
		lo, hi = &s.MinProperties, &s.MaxProperties
	}
	c := int(n)
	switch name {
	case "min", "gte":
		*lo = ptr(c)
	case "max", "lte":
		*hi = ptr(c)
	case "len":
		*lo, *hi = ptr(c), ptr(c)
	case "gt":
		*lo = ptr(c + 1)
	case "lt":
		*hi = ptr(max(c-1, 0))
	}
}

// enumValue returns word as a value of t's JSON type.
func enumValue(word string, t reflect.Type) (any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(word, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("oneof value %q is not an integer", word)
		}
		return n, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(word, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("oneof value %q is not an unsigned integer", word)
		}
		return n, nil
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(word, 64)
		if err != nil {
			return nil, fmt.Errorf("oneof value %q is not a number", word)
		}
		return n, nil
	}
	return strings.Trim(word, "'"), nil
}
