// Package validator checks request values by their `validate` struct tags
// with github.com/go-playground/validator/v10 (the library Gin uses),
// behind Vireo's Validator interface:
//
//	app := vireo.New(vireo.WithValidator(validator.MustNew()))
//
// It is a module of its own, so that an application links the library
// only when it imports this package.
//
// A failed check is a *vireo.ValidationError: one message per field, keyed
// by the field's path in JSON names ("name", "address.city",
// "items[1].price"); a field bound from a parameter (`query:"page"`,
// `path:"id"`, `header:"X-Tenant"`, `cookie:"s"`) or a form (`form:"n"`)
// without a json name is keyed by that name. The messages are English
// sentences written per rule (messages.go); WithMessage replaces one. The
// rules reflected into the OpenAPI schema are listed in package openapi.
//
// The library caches each struct type's parsed tags on first use;
// Validate adds no reflection of its own.
package validator

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	playground "github.com/go-playground/validator/v10"
	"github.com/vireo-go/vireo/core"
)

// Validator checks values by their validate tags. It is safe for
// concurrent use.
type Validator struct {
	v        *playground.Validate
	messages map[string]string // rule -> message template, WithMessage
}

// Option configures a Validator.
type Option func(*Validator) error

// WithRule registers a custom rule under tag, and the message of a field
// that fails it ("%s" is replaced by the rule's parameter).
func WithRule(tag string, fn func(fl playground.FieldLevel) bool, message string) Option {
	return func(v *Validator) error {
		if fn == nil {
			return fmt.Errorf("validator: WithRule(%q): nil function", tag)
		}
		if err := v.v.RegisterValidation(tag, fn); err != nil {
			return fmt.Errorf("validator: WithRule(%q): %w", tag, err)
		}
		v.messages[tag] = message
		return nil
	}
}

// WithMessage sets the message of a field that fails rule ("%s" is
// replaced by the rule's parameter).
func WithMessage(rule, message string) Option {
	return func(v *Validator) error {
		if rule == "" {
			return errors.New("validator: WithMessage: empty rule")
		}
		v.messages[rule] = message
		return nil
	}
}

// New returns a Validator configured by opts.
func New(opts ...Option) (*Validator, error) {
	v := &Validator{v: playground.New(playground.WithRequiredStructEnabled()), messages: map[string]string{}}
	v.v.RegisterTagNameFunc(fieldName)
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("validator: nil Option")
		}
		if err := opt(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// MustNew is New that panics on an error, for a program's setup.
func MustNew(opts ...Option) *Validator {
	v, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return v
}

// Engine returns the underlying go-playground validator, for what this
// package does not wrap (struct-level rules, aliases). Configure it before
// the application serves.
func (v *Validator) Engine() *playground.Validate { return v.v }

// Validate checks x, a struct or a pointer to one; other values (a map, a
// slice decoded from a body) pass. A failed check is a
// *core.ValidationError.
func (v *Validator) Validate(x any) error {
	rv := reflect.ValueOf(x)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil
	}
	err := v.v.Struct(x)
	if err == nil {
		return nil
	}
	var fes playground.ValidationErrors
	if !errors.As(err, &fes) {
		return err
	}
	fields := make(map[string]string, len(fes))
	for _, fe := range fes {
		key := fieldPath(fe.Namespace())
		if _, seen := fields[key]; !seen {
			fields[key] = v.message(fe)
		}
	}
	return &core.ValidationError{Fields: fields}
}

// fieldPath drops the struct's type name from a namespace
// ("CreateItem.address.city" -> "address.city").
func fieldPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
}

// fieldName is the name a field is reported by: its json name, else the
// name of the parameter or form field it is bound from, else its Go name.
func fieldName(f reflect.StructField) string {
	for _, tag := range [...]string{"json", "path", "query", "header", "cookie", "form"} {
		v, ok := f.Tag.Lookup(tag)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(v, ",")
		if name == "-" && tag == "json" {
			continue // not in the body: maybe a parameter
		}
		if name != "" && name != "-" {
			return name
		}
	}
	return f.Name
}
