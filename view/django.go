// The Django engine: pongo2/v6 templates with extends, include, filters,
// globals, optional engine layouts and reload.
//
// Load parses every template file into its own pongo2.TemplateSet (never
// pongo2's global default set), through an fs.FS loader, and keeps the parsed
// templates in an immutable map. pongo2 templates are safe to execute
// concurrently, so a render is a map lookup, a data conversion and one
// Execute; with an engine layout, the page is rendered into a pooled buffer
// first and handed to the layout as the safe variable content.
//
// File access stays inside the engine's fs.FS: the tags that name files
// (extends, include, import) read through the loader, which refuses names
// that leave the root (fs.ValidPath), and {% ssi %}, which pongo2 reads
// from the operating system's file system wherever the name points, is
// banned (a template using it fails to load). No filter reads files.

package view

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/flosch/pongo2/v6"
)

// DjangoContentKey is the variable that holds the rendered page, marked safe,
// when a Django page renders in an engine layout.
const DjangoContentKey = "content"

// DjangoEngine renders Django-syntax templates with pongo2/v6. Create it
// with NewDjango or NewDjangoDir; its configuration never changes
// afterwards.
//
// Autoescaping is on (pongo2's default; pongo2.SetAutoescape(false) would turn
// it off for the whole process). Render data may be a pongo2.Context, a map
// with string keys or a struct; see "Data in the Django engine" in the package
// documentation.
//
// A DjangoEngine is safe for concurrent use.
type DjangoEngine struct {
	fsys fs.FS
	ext  string

	layout  string         // the default engine layout, "" for none
	globals pongo2.Context // never modified once the engine is built
	reload  bool

	sets snapshots[*djangoSet]
}

// djangoSet is one parsed, immutable set of templates by name.
type djangoSet struct {
	tpls map[string]*pongo2.Template
}

// NewDjango returns an engine rendering the templates in fsys whose name
// ends with ext (such as ".html"; "" loads every file), parsed before it
// returns. Template names, in the engine's API and in {% extends %} and
// {% include %}, are paths relative to the root of fsys; names starting
// with "./" or "../" are relative to the template that uses them. The error
// names the option that does not apply to the Django engine (WithFuncs,
// WithDelims), a filter pongo2 already has, the file, line and column of a
// parse error, or a default layout that does not exist.
func NewDjango(fsys fs.FS, ext string, opts ...Option) (*DjangoEngine, error) {
	o, err := applyOptions("django", djangoOptions, opts)
	if err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, errNilFS("django")
	}
	e := &DjangoEngine{
		fsys:    fsys,
		ext:     normalizeExt(ext),
		layout:  o.layout,
		globals: o.globals,
		reload:  o.reload,
	}
	if err := registerFilters(e, o.filters); err != nil {
		return nil, err
	}
	if err := e.load(true); err != nil {
		return nil, err
	}
	return e, nil
}

// MustNewDjango is like NewDjango but panics if it fails. It is meant for
// templates embedded in the program, whose errors are the program's bugs.
func MustNewDjango(fsys fs.FS, ext string, opts ...Option) *DjangoEngine {
	e, err := NewDjango(fsys, ext, opts...)
	if err != nil {
		panic(err)
	}
	return e
}

// NewDjangoDir returns an engine rendering the templates under the
// directory dir: NewDjango(os.DirFS(dir), ext, opts...).
func NewDjangoDir(dir, ext string, opts ...Option) (*DjangoEngine, error) {
	return NewDjango(os.DirFS(dir), ext, opts...)
}

// Name returns "django".
func (e *DjangoEngine) Name() string { return "django" }

// Ext returns the extension of the files the engine loads.
func (e *DjangoEngine) Ext() string { return e.ext }

// Load brings the templates up to date with their files: NewDjango parsed
// them, and Load parses them again when a file changed, was added or was
// removed since (the core's RegisterView calls it, and finds nothing to
// do). A new set replaces the current one only when it parses; renders
// running meanwhile keep the set they started with. Parse errors name the
// file, line and column. A missing default layout is an error.
func (e *DjangoEngine) Load() error { return e.load(false) }

// load parses the templates, even unchanged ones when force is set.
func (e *DjangoEngine) load(force bool) error {
	if err := e.sets.load(e.fsys, e.ext, e, force); err != nil {
		return err
	}
	if e.layout != "" && e.sets.cur.Load().set.tpls[e.layout] == nil {
		return fmt.Errorf("view: django: layout %q: %w", e.layout, ErrNotFound)
	}
	return nil
}

// ExecuteWriter renders the template name into w, in the engine layout
// layout ("" for the default, NoLayout for none). An error names the
// template; w may then hold part of the page, which callers must not send.
// A panic in pongo2 or in a filter is not recovered here: the core's View
// recovers it into a 500.
func (e *DjangoEngine) ExecuteWriter(w io.Writer, name, layout string, data any) error {
	set, err := e.sets.get(e.reload, e.fsys, e.ext, e)
	if err != nil {
		return err
	}
	layout = chooseLayout(layout, e.layout)
	t := set.tpls[name]
	if t == nil {
		return fmt.Errorf("view: django: %q: %w", name, ErrNotFound)
	}
	var lt *pongo2.Template
	if layout != "" {
		if lt = set.tpls[layout]; lt == nil {
			return fmt.Errorf("view: django: layout %q: %w", layout, ErrNotFound)
		}
	}
	ctx, err := toContext(data)
	if err != nil {
		return fmt.Errorf("view: django: render %s: %w", describe(name, layout), err)
	}
	if lt == nil {
		if err := t.ExecuteWriterUnbuffered(ctx, w); err != nil {
			return fmt.Errorf("view: django: render %q: %w", name, err)
		}
		return nil
	}

	buf := renderBuffers.Get()
	defer renderBuffers.Put(buf)
	if err := t.ExecuteWriterUnbuffered(ctx, buf); err != nil {
		return fmt.Errorf("view: django: render %s: %w", describe(name, layout), err)
	}
	lctx := make(pongo2.Context, len(ctx)+1)
	lctx.Update(ctx)
	lctx[DjangoContentKey] = pongo2.AsSafeValue(buf.String())
	if err := lt.ExecuteWriterUnbuffered(lctx, w); err != nil {
		return fmt.Errorf("view: django: render layout %q of %q: %w", layout, name, err)
	}
	return nil
}

// build parses the listed files into a new set (see builder).
func (e *DjangoEngine) build(files []fileStamp) (*djangoSet, error) {
	ts := pongo2.NewSet("vireo", fsLoader{fsys: e.fsys})
	// {% ssi "file" %} reads any file the process can read with
	// os.ReadFile, past the engine's fs.FS; {% include %} does the same
	// inside it.
	if err := ts.BanTag("ssi"); err != nil {
		return nil, fmt.Errorf("view: django: %w", err)
	}
	ts.Globals.Update(e.globals)

	pongoMu.RLock()
	defer pongoMu.RUnlock()
	set := &djangoSet{tpls: make(map[string]*pongo2.Template, len(files))}
	for _, f := range files {
		t, err := ts.FromFile(f.name)
		if err != nil {
			// pongo2 names the file the error is in (f.name, a parent or an
			// include) with its line; add the template being loaded.
			return nil, fmt.Errorf("view: django: load %s: %w", f.name, err)
		}
		set.tpls[f.name] = t
	}
	return set, nil
}
