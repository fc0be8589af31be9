// The Django engine: pongo2/v6 templates with extends, include, filters,
// globals, optional engine layouts and reload.
//
// Load parses every template file into its own pongo2.TemplateSet (never
// pongo2's global default set), through an fs.FS loader, and keeps the parsed
// templates in an immutable map. pongo2 templates are safe to execute
// concurrently, so a render is a map lookup, a data conversion and one
// Execute; with an engine layout, the page is rendered into a pooled buffer
// first and handed to the layout as the safe variable content.

package view

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/flosch/pongo2/v6"
	"github.com/valyala/bytebufferpool"
)

// DjangoContentKey is the variable that holds the rendered page, marked safe,
// when a Django page renders in an engine layout.
const DjangoContentKey = "content"

// DjangoEngine renders Django-syntax templates with pongo2/v6. Create it with
// Django or DjangoDir, configure it with its chainable methods, then Load it
// (the core's RegisterView does). Options set after Load take effect at the
// next Load.
//
// Autoescaping is on (pongo2's default; pongo2.SetAutoescape(false) would turn
// it off for the whole process). Render data may be a pongo2.Context, a map
// with string keys or a struct; see "Data in the Django engine" in the package
// documentation.
//
// A DjangoEngine is safe for concurrent use once loaded.
type DjangoEngine struct {
	fsys fs.FS
	ext  string

	mu  sync.Mutex // guards cfg
	cfg djangoConfig

	run  atomic.Pointer[djangoConfig] // the configuration of the last Load
	sets snapshots[*djangoSet]
}

// djangoConfig is the configuration a DjangoEngine is loaded with. Its maps
// are copied on write and never mutated once shared.
type djangoConfig struct {
	layout  string
	globals pongo2.Context
	filters map[string]pongo2.FilterFunction
	reload  bool
}

// djangoSet is one parsed, immutable set of templates by name.
type djangoSet struct {
	tpls map[string]*pongo2.Template
}

// Django returns an engine loading the templates in fsys whose name ends with
// ext (such as ".html"; "" loads every file). Template names, in the engine's
// API and in {% extends %} and {% include %}, are paths relative to the root
// of fsys; names starting with "./" or "../" are relative to the template
// that uses them.
func Django(fsys fs.FS, ext string) *DjangoEngine {
	return &DjangoEngine{fsys: fsys, ext: normalizeExt(ext)}
}

// DjangoDir returns an engine loading the templates under the directory dir:
// Django(os.DirFS(dir), ext).
func DjangoDir(dir, ext string) *DjangoEngine {
	return Django(os.DirFS(dir), ext)
}

// Layout sets the default engine layout: pages are rendered first and their
// output is given to the layout as {{ content }}. "" (the default) means
// none, which is what pages that {% extends %} their layout want.
func (e *DjangoEngine) Layout(name string) *DjangoEngine {
	e.mu.Lock()
	e.cfg.layout = name
	e.mu.Unlock()
	return e
}

// Globals adds variables every template of the engine sees (render data
// with the same name wins).
func (e *DjangoEngine) Globals(globals pongo2.Context) *DjangoEngine {
	e.mu.Lock()
	merged := make(pongo2.Context, len(e.cfg.globals)+len(globals))
	merged.Update(e.cfg.globals)
	merged.Update(globals)
	e.cfg.globals = merged
	e.mu.Unlock()
	return e
}

// Filter adds a custom filter, used as {{ value|name }} or
// {{ value|name:arg }}. pongo2 filters are global to the process: Load
// registers it in pongo2 and fails if pongo2 already has a filter of that
// name (builtin or registered elsewhere), so pick a distinctive name.
func (e *DjangoEngine) Filter(name string, fn pongo2.FilterFunction) *DjangoEngine {
	e.mu.Lock()
	merged := make(map[string]pongo2.FilterFunction, len(e.cfg.filters)+1)
	for k, v := range e.cfg.filters {
		merged[k] = v
	}
	merged[name] = fn
	e.cfg.filters = merged
	e.mu.Unlock()
	return e
}

// Reload turns development mode on or off: when on, every render first
// checks whether a template file changed and re-parses the set if so.
func (e *DjangoEngine) Reload(enabled bool) *DjangoEngine {
	e.mu.Lock()
	e.cfg.reload = enabled
	e.mu.Unlock()
	return e
}

// Name returns "django".
func (e *DjangoEngine) Name() string { return "django" }

// Ext returns the extension of the files the engine loads.
func (e *DjangoEngine) Ext() string { return e.ext }

// Load registers the engine's filters and parses the templates. Parse errors
// name the file, line and column. A missing default layout is an error.
func (e *DjangoEngine) Load() error {
	e.mu.Lock()
	cfg := e.cfg
	e.mu.Unlock()
	if err := registerFilters(e, cfg.filters); err != nil {
		return err
	}
	e.run.Store(&cfg)
	if err := e.sets.load(e.fsys, e.ext, e); err != nil {
		return err
	}
	if cfg.layout != "" && e.sets.cur.Load().set.tpls[cfg.layout] == nil {
		return fmt.Errorf("view: django: layout %q: %w", cfg.layout, ErrNotFound)
	}
	return nil
}

// ExecuteWriter renders the template name into w, in the engine layout
// layout ("" for the default, NoLayout for none). An error names the
// template; w may then hold part of the page, which callers must not send.
// A panic while rendering is returned as an error.
func (e *DjangoEngine) ExecuteWriter(w io.Writer, name, layout string, data any) (err error) {
	cfg := e.run.Load()
	if cfg == nil {
		return ErrNotLoaded
	}
	set, err := e.sets.get(cfg.reload, e.fsys, e.ext, e)
	if err != nil {
		return err
	}
	layout = chooseLayout(layout, cfg.layout)
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

	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("view: django: render %s: panic: %v", describe(name, layout), r)
		}
	}()
	if lt == nil {
		if err := t.ExecuteWriterUnbuffered(ctx, w); err != nil {
			return fmt.Errorf("view: django: render %q: %w", name, err)
		}
		return nil
	}

	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
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
	cfg := e.run.Load()
	ts := pongo2.NewSet("vireo", fsLoader{fsys: e.fsys})
	ts.Globals.Update(cfg.globals)

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
