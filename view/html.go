// The HTML engine: html/template with layouts, partials, funcs, delimiters
// and reload.
//
// Load parses every template file into one html/template set named by path,
// rewrites constant partials into {{ template }} calls, and compiles one
// template per (layout, page) pair in which the layout's yield is a call of
// the page (see html_rewrite.go). Rendering is two map lookups and one
// Execute; the set is immutable once built, so renders share no mutable state.

package view

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/valyala/bytebufferpool"
)

// errYieldOutsideLayout is returned by a yield that was not compiled into a
// layout render: a layout rendered on its own, or yield in a pipeline or a
// {{ define }} block.
var errYieldOutsideLayout = errors.New("yield called outside a layout render (use {{ yield . }} as a whole action in the layout file)")

// reservedFuncs are the template functions the engine defines itself.
var reservedFuncs = [...]string{"yield", "partial", "render"}

// HTMLEngine renders html/template templates. Create it with HTML or
// HTMLDir, configure it with its chainable methods, then Load it (the core's
// RegisterView does). Options set after Load take effect at the next Load.
//
// An HTMLEngine is safe for concurrent use once loaded.
type HTMLEngine struct {
	fsys fs.FS
	ext  string

	mu  sync.Mutex // guards cfg
	cfg htmlConfig

	run  atomic.Pointer[htmlConfig] // the configuration of the last Load
	sets snapshots[*htmlSet]
}

// htmlConfig is the configuration an HTMLEngine is loaded with.
type htmlConfig struct {
	layout      string
	funcs       template.FuncMap // copied on write, never mutated once shared
	left, right string
	reload      bool
}

// htmlSet is one parsed, immutable template set.
type htmlSet struct {
	root *template.Template
	// pages maps a file's name to its template.
	pages map[string]*template.Template
	// layouts maps a layout's name, then a page's name, to the template that
	// renders the page in the layout.
	layouts map[string]map[string]*template.Template
}

// HTML returns an engine loading the templates in fsys whose name ends with
// ext (such as ".html"; "" loads every file). Template names are paths
// relative to the root of fsys, extension included. Use it with an
// embed.FS, an os.DirFS or a testing/fstest.MapFS.
func HTML(fsys fs.FS, ext string) *HTMLEngine {
	return &HTMLEngine{fsys: fsys, ext: normalizeExt(ext)}
}

// HTMLDir returns an engine loading the templates under the directory dir:
// HTML(os.DirFS(dir), ext).
func HTMLDir(dir, ext string) *HTMLEngine {
	return HTML(os.DirFS(dir), ext)
}

// Layout sets the default layout, by template name, that pages render in
// when ExecuteWriter is given no layout. "" (the default) means none.
func (e *HTMLEngine) Layout(name string) *HTMLEngine {
	e.mu.Lock()
	e.cfg.layout = name
	e.mu.Unlock()
	return e
}

// Funcs adds template functions, as template.Template.Funcs does. The names
// yield, partial and render are the engine's own: Load reports an error if
// funcs defines one of them.
func (e *HTMLEngine) Funcs(funcs template.FuncMap) *HTMLEngine {
	e.mu.Lock()
	merged := make(template.FuncMap, len(e.cfg.funcs)+len(funcs))
	for k, v := range e.cfg.funcs {
		merged[k] = v
	}
	for k, v := range funcs {
		merged[k] = v
	}
	e.cfg.funcs = merged
	e.mu.Unlock()
	return e
}

// Delims sets the action delimiters, as template.Template.Delims does; ""
// keeps the default "{{" or "}}".
func (e *HTMLEngine) Delims(left, right string) *HTMLEngine {
	e.mu.Lock()
	e.cfg.left, e.cfg.right = left, right
	e.mu.Unlock()
	return e
}

// Reload turns development mode on or off: when on, every render first
// checks whether a template file changed and re-parses the set if so.
func (e *HTMLEngine) Reload(enabled bool) *HTMLEngine {
	e.mu.Lock()
	e.cfg.reload = enabled
	e.mu.Unlock()
	return e
}

// Name returns "html".
func (e *HTMLEngine) Name() string { return "html" }

// Ext returns the extension of the files the engine loads.
func (e *HTMLEngine) Ext() string { return e.ext }

// Load parses the templates. Parse errors name the file and line, and so do
// partials naming a template that does not exist. A default layout that is
// missing or never calls yield is an error too.
func (e *HTMLEngine) Load() error {
	e.mu.Lock()
	cfg := e.cfg
	e.mu.Unlock()
	for _, name := range reservedFuncs {
		if _, ok := cfg.funcs[name]; ok {
			return fmt.Errorf("view: html: function %q is reserved by the engine", name)
		}
	}
	e.run.Store(&cfg)
	if err := e.sets.load(e.fsys, e.ext, e); err != nil {
		return err
	}
	if cfg.layout != "" {
		if set := e.sets.cur.Load().set; set.layouts[cfg.layout] == nil {
			return set.missing("", cfg.layout)
		}
	}
	return nil
}

// ExecuteWriter renders the template name into w, in layout ("" for the
// default layout, NoLayout for none). An error names the template; w may then
// hold part of the page, which callers must not send. A panic in a template
// function is returned as an error.
func (e *HTMLEngine) ExecuteWriter(w io.Writer, name, layout string, data any) (err error) {
	cfg := e.run.Load()
	if cfg == nil {
		return ErrNotLoaded
	}
	set, err := e.sets.get(cfg.reload, e.fsys, e.ext, e)
	if err != nil {
		return err
	}
	layout = chooseLayout(layout, cfg.layout)
	var t *template.Template
	if layout == "" {
		t = set.pages[name]
	} else {
		t = set.layouts[layout][name]
	}
	if t == nil {
		return set.missing(name, layout)
	}

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("view: html: render %s: panic: %v", describe(name, layout), r)
		}
	}()
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
		if s.layouts[layout] == nil {
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
	cfg := e.run.Load()
	set := &htmlSet{
		pages:   make(map[string]*template.Template, len(files)),
		layouts: make(map[string]map[string]*template.Template),
	}
	root := template.New("").Delims(cfg.left, cfg.right).Funcs(template.FuncMap{
		"yield":   yieldOutsideLayout,
		"partial": set.partial,
		"render":  set.partial,
	}).Funcs(cfg.funcs)
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
		set.pages[f.name] = root.Lookup(f.name)
	}

	for _, l := range layouts {
		lt := set.pages[l]
		if lt == nil {
			continue // a {{ define }}d template: yield there stays a runtime error
		}
		compiled := make(map[string]*template.Template, len(files))
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
			compiled[f.name] = t
		}
		set.layouts[l] = compiled
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
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	if err := t.Execute(buf, d); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}
