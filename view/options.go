// Engine options.
//
// Every option is a function that records one setting in an options value
// and marks it as given. The constructors apply the options in order (a
// later WithLayout replaces an earlier one; WithFuncs, WithGlobals and
// WithFilter add to what earlier ones gave), then check that each given
// option applies to the engine being built: an option for the other engine
// is an error from the constructor, never silently ignored. The result is
// copied into the engine, which never changes it afterwards.

package view

import (
	"errors"
	"fmt"
	"html/template"

	"github.com/flosch/pongo2/v6"
)

// Option configures an engine built by NewHTML or NewDjango.
type Option func(*options)

// optionKind names one option, for the check that it applies to an engine.
type optionKind uint8

const (
	optLayout optionKind = 1 << iota
	optReload
	optFuncs
	optDelims
	optGlobals
	optFilter
)

// htmlOptions and djangoOptions are the options each engine accepts.
const (
	htmlOptions   = optLayout | optReload | optFuncs | optDelims
	djangoOptions = optLayout | optReload | optGlobals | optFilter
)

// optionNames names the options in errors.
var optionNames = map[optionKind]string{
	optLayout:  "WithLayout",
	optReload:  "WithReload",
	optFuncs:   "WithFuncs",
	optDelims:  "WithDelims",
	optGlobals: "WithGlobals",
	optFilter:  "WithFilter",
}

// options is the configuration options build up.
type options struct {
	given optionKind

	layout      string
	reload      bool
	funcs       template.FuncMap
	left, right string
	globals     pongo2.Context
	filters     map[string]pongo2.FilterFunction
	errs        []error
}

// WithLayout sets the default layout, by template name, that pages render
// in when ExecuteWriter is given no layout ("" means none, the default).
// For the HTML engine the layout calls {{ yield . }} where the page goes;
// for the Django engine the page is rendered first and the layout gets it
// as {{ content }} (see the package documentation).
func WithLayout(name string) Option {
	return func(o *options) {
		o.given |= optLayout
		o.layout = name
	}
}

// WithReload turns development mode on: every render first checks whether
// a template file changed and re-parses the set if so. It costs a walk of
// the template directory per render.
func WithReload(enabled bool) Option {
	return func(o *options) {
		o.given |= optReload
		o.reload = enabled
	}
}

// WithFuncs adds template functions to the HTML engine, as
// template.Template.Funcs does. The names yield, partial and render are the
// engine's own; defining one of them is an error from NewHTML.
func WithFuncs(funcs template.FuncMap) Option {
	return func(o *options) {
		o.given |= optFuncs
		if o.funcs == nil {
			o.funcs = make(template.FuncMap, len(funcs))
		}
		for name, fn := range funcs {
			o.funcs[name] = fn
		}
	}
}

// WithDelims sets the action delimiters of the HTML engine, as
// template.Template.Delims does; "" keeps the default "{{" or "}}".
func WithDelims(left, right string) Option {
	return func(o *options) {
		o.given |= optDelims
		o.left, o.right = left, right
	}
}

// WithGlobals adds variables every template of the Django engine sees;
// render data with the same name wins.
func WithGlobals(globals map[string]any) Option {
	return func(o *options) {
		o.given |= optGlobals
		if o.globals == nil {
			o.globals = make(pongo2.Context, len(globals))
		}
		o.globals.Update(globals)
	}
}

// WithFilter adds a custom filter to the Django engine, used as
// {{ value|name }} or {{ value|name:arg }}. pongo2 keeps filters in one
// table for the whole process: NewDjango registers the filter there and
// fails if pongo2 already has a filter of that name, so pick a distinctive
// one.
func WithFilter(name string, fn pongo2.FilterFunction) Option {
	return func(o *options) {
		o.given |= optFilter
		if fn == nil {
			o.errs = append(o.errs, fmt.Errorf("WithFilter(%q): nil filter function", name))
			return
		}
		if o.filters == nil {
			o.filters = make(map[string]pongo2.FilterFunction)
		}
		o.filters[name] = fn
	}
}

// applyOptions runs opts in order and checks that every option given is one
// of accepted, the options of the engine called engine.
func applyOptions(engine string, accepted optionKind, opts []Option) (options, error) {
	var o options
	for _, opt := range opts {
		if opt == nil {
			o.errs = append(o.errs, errors.New("nil Option"))
			continue
		}
		opt(&o)
	}
	for kind := optLayout; kind <= optFilter; kind <<= 1 {
		if o.given&kind != 0 && accepted&kind == 0 {
			o.errs = append(o.errs, fmt.Errorf("%s does not apply to the %s engine", optionNames[kind], engine))
		}
	}
	if len(o.errs) > 0 {
		return o, fmt.Errorf("view: %s: %w", engine, errors.Join(o.errs...))
	}
	return o, nil
}
