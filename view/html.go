// The HTML engine: html/template with layouts, partials, funcs, delimiters
// and reload.
//
// Load parses every template file into one html/template set named by path,
// rewrites constant partials into {{ template }} calls, and compiles one
// template per (layout, page) pair in which the layout's yield is a call of
// the page (see html_rewrite.go). A page's entry holds its template alone,
// in the default layout and in every layout, so a render in the default
// layout or in none is one lookup by the page's name and one Execute (an
// explicit layout adds a lookup in the entry). The set is immutable once
// built, so renders share no mutable state.

package view

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
)

// errYieldOutsideLayout is returned by a yield that was not compiled into a
// layout render: a layout rendered on its own, or yield in a pipeline or a
// {{ define }} block.
var errYieldOutsideLayout = errors.New("yield called outside a layout render (use {{ yield . }} as a whole action in the layout file)")

// reservedFuncs are the template functions the engine defines itself.
var reservedFuncs = [...]string{"yield", "partial", "render"}

// HTMLEngine renders html/template templates. Create it with NewHTML or
// NewHTMLDir; its configuration never changes afterwards.
//
// An HTMLEngine is safe for concurrent use.
type HTMLEngine struct {
	fsys fs.FS
	ext  string

	layout      string           // the default layout, "" for none
	funcs       template.FuncMap // never modified once the engine is built
	left, right string
	reload      bool

	sets snapshots[*htmlSet]
}

// htmlSet is one parsed, immutable template set.
type htmlSet struct {
	root *template.Template
	// pages maps a file's name to its compiled renders.
	pages map[string]*htmlPage
	// layouts holds the names of the files that call yield.
	layouts map[string]bool
}

// htmlPage holds every compiled render of one page, so that a render finds
// its template with one lookup by the page's name.
type htmlPage struct {
	alone     *template.Template            // the page without a layout
	inDefault *template.Template            // in the default layout (alone without one)
	layouts   map[string]*template.Template // in each layout, by the layout's name
}

// NewHTML returns an engine rendering the templates in fsys whose name ends
// with ext (such as ".html"; "" loads every file), parsed before it returns.
// Template names are paths relative to the root of fsys, extension included.
// Use it with an embed.FS, an os.DirFS or a testing/fstest.MapFS. The error
// names the option that does not apply to the HTML engine (WithGlobals,
// WithFilter), or the file and line of a parse error, a partial naming a
// missing template or a default layout that does not exist or never yields.
func NewHTML(fsys fs.FS, ext string, opts ...Option) (*HTMLEngine, error) {
	o, err := applyOptions("html", htmlOptions, opts)
	if err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, errNilFS("html")
	}
	for _, name := range reservedFuncs {
		if _, ok := o.funcs[name]; ok {
			return nil, fmt.Errorf("view: html: function %q is reserved by the engine", name)
		}
	}
	e := &HTMLEngine{
		fsys:   fsys,
		ext:    normalizeExt(ext),
		layout: o.layout,
		funcs:  o.funcs,
		left:   o.left,
		right:  o.right,
		reload: o.reload,
	}
	if err := e.load(true); err != nil {
		return nil, err
	}
	return e, nil
}

// MustNewHTML is like NewHTML but panics if it fails. It is meant for
// templates embedded in the program, whose errors are the program's bugs.
func MustNewHTML(fsys fs.FS, ext string, opts ...Option) *HTMLEngine {
	e, err := NewHTML(fsys, ext, opts...)
	if err != nil {
		panic(err)
	}
	return e
}

// NewHTMLDir returns an engine rendering the templates under the directory
// dir: NewHTML(os.DirFS(dir), ext, opts...).
func NewHTMLDir(dir, ext string, opts ...Option) (*HTMLEngine, error) {
	return NewHTML(os.DirFS(dir), ext, opts...)
}

// Name returns "html".
func (e *HTMLEngine) Name() string { return "html" }

// Ext returns the extension of the files the engine loads.
func (e *HTMLEngine) Ext() string { return e.ext }

// Load brings the templates up to date with their files: NewHTML parsed
// them, and Load parses them again when a file changed, was added or was
// removed since (the core's RegisterView calls it, and finds nothing to
// do). A new set replaces the current one only when it parses; renders
// running meanwhile keep the set they started with. Parse errors name the
// file and line, and so do partials naming a template that does not exist.
// A default layout that is missing or never calls yield is an error too.
func (e *HTMLEngine) Load() error { return e.load(false) }

// load parses the templates, even unchanged ones when force is set.
func (e *HTMLEngine) load(force bool) error {
	if err := e.sets.load(e.fsys, e.ext, e, force); err != nil {
		return err
	}
	if e.layout != "" {
		if set := e.sets.cur.Load().set; !set.layouts[e.layout] {
			return set.missing("", e.layout)
		}
	}
	return nil
}

// ExecuteWriter renders the template name into w, in layout ("" for the
// default layout, NoLayout for none). An error names the template; w may then
// hold part of the page, which callers must not send. A panic in a template
// function is returned as an error by html/template.
func (e *HTMLEngine) ExecuteWriter(w io.Writer, name, layout string, data any) error {
	set, err := e.sets.get(e.reload, e.fsys, e.ext, e)
	if err != nil {
		return err
	}
	var t *template.Template
	if p := set.pages[name]; p != nil {
		switch layout {
		case "":
			t = p.inDefault
		case NoLayout:
			t = p.alone
		default:
			t = p.layouts[layout]
		}
	}
	layout = chooseLayout(layout, e.layout)
	if t == nil {
		return set.missing(name, layout)
	}
	if err := t.Execute(w, data); err != nil {
		return fmt.Errorf("view: html: render %s: %w", describe(name, layout), err)
	}
	return nil
}

// missing explains why no template renders name in layout: the page or the
// layout does not exist, or the layout never yields.
func (s *htmlSet) missing(name, layout string) error {
	if layout != "" {
		if s.pages[layout] == nil {
			return fmt.Errorf("view: html: layout %q: %w", layout, ErrNotFound)
		}
		if !s.layouts[layout] {
			return fmt.Errorf("view: html: layout %q never calls {{ yield . }}", layout)
		}
		if name == layout {
			return fmt.Errorf("view: html: %q cannot be rendered in itself", name)
		}
	}
	return fmt.Errorf("view: html: %q: %w", name, ErrNotFound)
}

// build parses the listed files into a new set (see builder).
func (e *HTMLEngine) build(files []fileStamp) (*htmlSet, error) {
	set := &htmlSet{
		pages:   make(map[string]*htmlPage, len(files)),
		layouts: make(map[string]bool),
	}
	root := template.New("").Delims(e.left, e.right).Funcs(template.FuncMap{
		"yield":   yieldOutsideLayout,
		"partial": set.partial,
		"render":  set.partial,
	}).Funcs(e.funcs)
	set.root = root

	for _, f := range files {
		src, err := fs.ReadFile(e.fsys, f.name)
		if err != nil {
			return nil, fmt.Errorf("view: html: read %s: %w", f.name, err)
		}
		if _, err := root.New(f.name).Parse(string(src)); err != nil {
			return nil, fmt.Errorf("view: html: %w", err) // "template: FILE:LINE: ..."
		}
	}

	exists := func(name string) bool {
		t := root.Lookup(name)
		return t != nil && t.Tree != nil
	}
	// Partials first, in every template of the set ({{ define }}d ones
	// included), so that the layout copies below inherit the rewrite.
	var layouts []string
	for _, t := range root.Templates() {
		if t.Tree == nil {
			continue
		}
		rw := rewriter{tree: t.Tree, exists: exists}
		rw.list(t.Tree.Root)
		if rw.err != nil {
			return nil, rw.err
		}
		if rw.found {
			layouts = append(layouts, t.Name())
		}
	}
	for _, f := range files {
		t := root.Lookup(f.name)
		set.pages[f.name] = &htmlPage{alone: t, layouts: map[string]*template.Template{}}
	}

	for _, l := range layouts {
		lp := set.pages[l]
		if lp == nil {
			continue // a {{ define }}d template: yield there stays a runtime error
		}
		lt := lp.alone
		set.layouts[l] = true
		for _, f := range files {
			if f.name == l {
				continue
			}
			tree := lt.Tree.Copy()
			rw := rewriter{tree: tree, page: f.name}
			rw.list(tree.Root)
			if rw.err != nil {
				return nil, rw.err
			}
			name := l + "|" + f.name
			if root.Lookup(name) != nil {
				return nil, fmt.Errorf("view: html: template name %q is used by the engine for %q in layout %q", name, f.name, l)
			}
			t, err := root.AddParseTree(name, tree)
			if err != nil {
				return nil, fmt.Errorf("view: html: compile %q in layout %q: %w", f.name, l, err)
			}
			set.pages[f.name].layouts[l] = t
		}
	}
	for _, p := range set.pages {
		if e.layout == "" {
			p.inDefault = p.alone
		} else {
			p.inDefault = p.layouts[e.layout]
		}
	}
	return set, nil
}

// yieldOutsideLayout is the yield function: every yield the engine could
// compile was replaced by a template call, so reaching it is an error.
func yieldOutsideLayout(...any) (template.HTML, error) {
	return "", errYieldOutsideLayout
}

// partial renders the template name with data into a string. It runs only
// for partials whose name is computed at render time.
func (s *htmlSet) partial(name string, data ...any) (template.HTML, error) {
	if len(data) > 1 {
		return "", fmt.Errorf("partial %q: takes at most one argument", name)
	}
	t := s.root.Lookup(name)
	if t == nil || t.Tree == nil {
		return "", fmt.Errorf("partial %q: %w", name, ErrNotFound)
	}
	var d any
	if len(data) == 1 {
		d = data[0]
	}
	buf := renderBuffers.Get()
	defer renderBuffers.Put(buf)
	if err := t.Execute(buf, d); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}
