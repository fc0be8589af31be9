// Package view renders named templates for Vireo applications.
//
// An Engine owns a set of templates loaded from a directory or any fs.FS and
// renders one of them, optionally wrapped in a layout, into an io.Writer. The
// core calls ExecuteWriter with a pooled buffer and copies the buffer to the
// client only when rendering succeeded, so an engine never has to worry about
// half-written responses: it only has to return an error. Engines in this
// package write straight into the writer they are given and may have written
// part of a page when they return an error; callers that send the output
// anywhere must buffer it as the core does.
//
// Two engines ship with the package: HTML, on html/template, and Django, on
// github.com/flosch/pongo2/v6.
//
// # Template names
//
// Both engines load every file under the root of their fs.FS whose name ends
// with the engine's extension (files and directories whose name starts with a
// dot are skipped). A template's name is its slash-separated path relative to
// the root, extension included: "index.html", "users/show.html",
// "layouts/main.html". Names are exact; a missing template is an error that
// wraps ErrNotFound.
//
// # Layouts in the HTML engine
//
// A layout is an ordinary template that calls yield where the page goes:
//
//	<title>{{ .Title }}</title>
//	<main>{{ yield . }}</main>
//
// yield renders the page with the value given to it ({{ yield }} alone passes
// the dot). The engine's default layout is set with WithLayout; the
// layout argument of ExecuteWriter overrides it for one render ("" keeps the
// default, NoLayout renders the page alone). yield must be a whole action,
// {{ yield . }}, in the layout file's own body (not in a {{ define }} or {{ block }}
// and not in a pipeline); anywhere else it fails with an error at render time.
//
// partial includes another template by name with the value given to it:
// {{ partial "shared/nav.html" . }}. render is an alias of partial for those
// coming from Iris, and the standard {{ template "shared/nav.html" . }} works
// too since every file is a named template of one set. A partial with a
// constant name is checked at Load (a missing one is a Load error naming the
// file and line) and costs nothing at render time; a computed name
// ({{ partial .Widget . }}) is looked up when it runs.
//
// yield and partial are not functions rebound for each render: at Load the
// engine compiles, for every layout and page, a template whose yield action is
// replaced by a call of that page, so concurrent renders share nothing
// mutable and never see each other's pages.
//
// # Layouts in the Django engine
//
// Django pages usually extend their layout with {% extends "layout.html" %}
// and fill its {% block %}s; that needs no layout argument and is the fastest
// way. An engine layout (WithLayout or the layout argument of
// ExecuteWriter) is supported as well: the page is rendered first, then the
// layout is rendered with the same data plus the page's output in the
// variable content, marked safe ({{ content }}).
//
// Custom filters (WithFilter) are registered in pongo2 by NewDjango.
// pongo2 keeps filters in one table for the whole process, so a filter name
// must be unique: a name pongo2 already has (a builtin, or one registered by
// other code or another engine) makes NewDjango fail instead of replacing it.
// Globals (WithGlobals) belong to the engine's own pongo2
// TemplateSet; the engine never uses pongo2's default set. A computed
// {% include name %} is parsed by pongo2 when it runs.
//
// # Data in the Django engine
//
// pongo2 looks variables up by name. A pongo2.Context or a map[string]any is
// used as it is (never modified); other maps with string keys are copied. A
// struct, or a pointer to one, gives one variable per exported field, named
// as declared ({{ Title }} for the field Title), or as its `view:"name"` tag
// says; `view:"-"` leaves a field out and fields promoted from embedded
// structs are included. nil renders with the globals only; any other type is
// an error.
//
// # Data: prefer a struct
//
// Pass a struct (or a pointer to one) as the HTML engine's data rather than
// a map[string]any. html/template reaches a struct field by its index, while
// a map costs the map itself (2 to 3 allocations per render when built per
// request) and a hashed lookup per {{ .Key }}: measured on the templates
// benchmark, about 1.7K instructions per render more than the same page
// with a struct. Data the layout needs on every page fits in a struct that
// each page's struct embeds. The Django engine looks variables up in a map
// anyway (it converts a struct into one per render), so there a struct buys
// typed, documented data rather than speed.
//
// # Escaping
//
// Both engines escape data by default: a "<script>" string in data comes out
// as "&lt;script&gt;". To output trusted HTML, pass a template.HTML value to
// the HTML engine, and in Django use the safe filter ({{ body|safe }}) or pass
// a pongo2.AsSafeValue(html) value. Only ever mark HTML as trusted when no
// user input reached it unescaped.
//
// # Reload
//
// With WithReload(true) an engine checks the size and modification time of its
// files before each render and re-parses the whole set when one changed (a
// file added or removed counts too). Renders never wait for each other: they
// read the current parsed set without a lock, and only the renders that saw a
// change wait for the one rebuild. Reload costs a directory walk per render
// and is meant for development; without it, templates are parsed once, by
// the constructor.
//
// # Panics
//
// The engines do not recover panics. html/template already returns a panic
// in a template function as an error; a panic inside pongo2 or a Django
// filter propagates to the caller of ExecuteWriter, and the core's View
// recovers it into a 500 that names the template.
//
// # DESIGN notes: configuration by functional options
//
// Engines are configured once, by the options given to their constructor,
// and never change afterwards:
//
//	engine, err := view.NewHTML(views, ".html",
//		view.WithLayout("layouts/main.html"),
//		view.WithFuncs(template.FuncMap{"upper": strings.ToUpper}))
//
// Functional options are the one configuration style of the whole framework
// (core.New, sessions.New, the middleware constructors) because they let a
// constructor see every setting at once: it validates the combination,
// reports a problem as an error where the engine is made (an option that
// does not apply to the engine, a reserved function name, a missing layout,
// a parse error), and hands back a value that is complete and immutable.
// The chained setters they replace (engine.Layout(x).Funcs(y)) mutated a
// shared engine, needed a mutex on every setter and a second copy of the
// configuration for renders, and could only report errors at a later Load.
// A Config struct would also be seen at once, but its zero values cannot
// tell "not set" from "set to the zero value", and new settings change a
// type users build by hand; an option adds one function and keeps every
// existing call compiling.
package view

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// NoLayout is the layout name that renders a template without any layout,
// overriding an engine's default layout for one render.
const NoLayout = "vireo.view.nolayout"

// Engine is what the engines of this package implement; it satisfies the
// view engine interface the core declares (core.ViewEngine), so an engine is
// registered with app.RegisterView.
//
// Implementations must be safe for concurrent use: many requests render at
// once, and a render must never observe another render's data or layout.
type Engine interface {
	// Name returns a short name of the engine, such as "html" or "django".
	Name() string
	// Ext returns the file extension of the templates the engine loads, such
	// as ".html".
	Ext() string
	// Load brings the parsed templates up to date with their files (the
	// constructors parse them first); parse errors name the file and line.
	Load() error
	// ExecuteWriter renders the template called name into w. layout is the
	// layout to wrap it in: "" selects the engine's default layout (if any),
	// NoLayout selects none.
	ExecuteWriter(w io.Writer, name, layout string, data any) error
}

// ErrNotFound is wrapped by the errors engines return for a template or
// layout that does not exist.
var ErrNotFound = errors.New("view: template not found")

// errNotLoaded is returned by ExecuteWriter of an engine that was not made
// by its constructor (a zero HTMLEngine or DjangoEngine).
var errNotLoaded = errors.New("view: engine not loaded (create it with NewHTML or NewDjango)")

// errNilFS is the constructors' error for a nil fs.FS.
func errNilFS(engine string) error {
	return fmt.Errorf("view: %s: nil fs.FS (use os.DirFS(dir) or NewHTMLDir/NewDjangoDir for a directory)", engine)
}

// chooseLayout resolves the layout argument of ExecuteWriter: "" selects the
// engine's default layout, NoLayout none; the result is "" for no layout.
func chooseLayout(layout, def string) string {
	switch layout {
	case "":
		return def
	case NoLayout:
		return ""
	}
	return layout
}

// describe names a render in error messages: the template, and its layout
// if it has one.
func describe(name, layout string) string {
	if layout == "" {
		return strconv.Quote(name)
	}
	return strconv.Quote(name) + " in layout " + strconv.Quote(layout)
}
