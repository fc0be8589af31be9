package view

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/flosch/pongo2/v6"
)

// djangoFS is a small Django site: a layout extended by pages, includes,
// and an engine layout (frame.html) that prints {{ content }}.
func djangoFS() fstest.MapFS {
	return fstest.MapFS{
		"layout.html":     {Data: []byte(`<title>{{ Title }}</title><main>{% block content %}default{% endblock %}</main>`)},
		"index.html":      {Data: []byte(`{% extends "layout.html" %}{% block content %}<h1>{{ Title }}</h1>{% include "shared/nav.html" %}{% endblock %}`)},
		"empty.html":      {Data: []byte(`{% extends "layout.html" %}`)},
		"users/show.html": {Data: []byte(`{% extends "layout.html" %}{% block content %}{% include "../shared/nav.html" %}{% endblock %}`)},
		"shared/nav.html": {Data: []byte(`<nav>{{ Title }}</nav>`)},
		"shared/rel.html": {Data: []byte(`rel:{% include "./nav.html" %}`)},
		"frame.html":      {Data: []byte(`<frame>{{ content }}|{{ Title }}</frame>`)},
		"inner.html":      {Data: []byte(`inner={{ Title }}`)},
		"safe.html":       {Data: []byte(`{{ Title|safe }}`)},
		"filter.html":     {Data: []byte(`{{ Title|vireotest_shout }}`)},
		"global.html":     {Data: []byte(`{{ Site }}/{{ Title }}`)},
		"dynamic.html":    {Data: []byte(`{% include Part %}`)},
		"call.html":       {Data: []byte(`before {{ Fn() }} after`)},
		"struct.html":     {Data: []byte(`{{ Title }}|{{ renamed }}|{{ Hidden }}|{{ Base }}|{{ Count }}`)},
		"notes.txt":       {Data: []byte(`{% not parsed: wrong extension`)},
	}
}

var (
	djangoShared     *DjangoEngine
	djangoSharedOnce sync.Once
	djangoSharedErr  error
)

// sharedDjango returns one loaded engine with the custom filter: pongo2
// filters are process-global, so only one engine may own the name.
func sharedDjango(t *testing.T) *DjangoEngine {
	t.Helper()
	djangoSharedOnce.Do(func() {
		djangoShared, djangoSharedErr = NewDjango(djangoFS(), ".html",
			WithFilter("vireotest_shout", func(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
				return pongo2.AsValue(strings.ToUpper(in.String()) + "!"), nil
			}),
			WithGlobals(pongo2.Context{"Site": "vireo", "Title": "global title"}))
	})
	if djangoSharedErr != nil {
		t.Fatalf("NewDjango: %v", djangoSharedErr)
	}
	return djangoShared
}

type djangoBase struct{ Base string }

type djangoPage struct {
	djangoBase
	Title   string
	Renamed string `view:"renamed"`
	Hidden  string `view:"-"`
	Count   int
	private string
}

func TestDjangoRender(t *testing.T) {
	e := sharedDjango(t)
	framed := mustDjango(t, djangoFS(), "html", WithLayout("frame.html"))

	tests := []struct {
		name   string
		engine *DjangoEngine
		page   string
		layout string
		data   any
		want   string
	}{
		{"extends and include", e, "index.html", "", pongo2.Context{"Title": "Home"},
			`<title>Home</title><main><h1>Home</h1><nav>Home</nav></main>`},
		{"block default", e, "empty.html", "", map[string]any{"Title": "E"},
			`<title>E</title><main>default</main>`},
		{"relative include from a subdirectory", e, "users/show.html", "", map[string]any{"Title": "U"},
			`<title>U</title><main><nav>U</nav></main>`},
		{"relative include ./", e, "shared/rel.html", "", map[string]any{"Title": "R"},
			`rel:<nav>R</nav>`},
		{"computed include", e, "dynamic.html", "", map[string]any{"Title": "D", "Part": "shared/nav.html"},
			`<nav>D</nav>`},
		{"engine layout override", e, "inner.html", "frame.html", map[string]any{"Title": "F"},
			`<frame>inner=F|F</frame>`},
		{"default engine layout", framed, "inner.html", "", map[string]any{"Title": "G"},
			`<frame>inner=G|G</frame>`},
		{"no layout overrides default", framed, "inner.html", NoLayout, map[string]any{"Title": "N"},
			`inner=N`},
		{"escaping", e, "inner.html", "", map[string]any{"Title": "<script>alert(1)</script>"},
			`inner=&lt;script&gt;alert(1)&lt;/script&gt;`},
		{"escaping in the engine layout, page output kept", e, "inner.html", "frame.html", map[string]any{"Title": "<b>"},
			`<frame>inner=&lt;b&gt;|&lt;b&gt;</frame>`},
		{"safe filter", e, "safe.html", "", map[string]any{"Title": "<em>ok</em>"},
			`<em>ok</em>`},
		{"AsSafeValue", e, "inner.html", "", map[string]any{"Title": pongo2.AsSafeValue("<em>ok</em>")},
			`inner=<em>ok</em>`},
		{"custom filter", e, "filter.html", "", map[string]any{"Title": "hey"},
			`HEY!`},
		{"globals, data wins", e, "global.html", "", map[string]any{"Title": "mine"},
			`vireo/mine`},
		{"globals alone", e, "global.html", "", nil,
			`vireo/global title`},
		{"map with string values", e, "inner.html", "", map[string]string{"Title": "ms"},
			`inner=ms`},
		{"struct", e, "struct.html", "", djangoPage{djangoBase{"b"}, "t", "r", "h", 3, "p"},
			`t|r||b|3`},
		{"pointer to struct", e, "struct.html", "", &djangoPage{Title: "pt"},
			`pt||||0`},
		{"nil pointer", e, "global.html", "", (*djangoPage)(nil),
			`vireo/global title`},
		{"function in data", e, "call.html", "", map[string]any{"Fn": func() string { return "<called>" }},
			`before &lt;called&gt; after`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(tt.engine, tt.page, tt.layout, tt.data)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}

	t.Run("data map not modified by engine layout", func(t *testing.T) {
		data := map[string]any{"Title": "x"}
		if _, err := render(e, "inner.html", "frame.html", data); err != nil {
			t.Fatal(err)
		}
		if len(data) != 1 {
			t.Fatalf("data = %v, want it untouched", data)
		}
	})
}

func TestDjangoFilters(t *testing.T) {
	sharedDjango(t) // owns vireotest_shout
	shout := func(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) { return in, nil }
	tests := []struct {
		name   string
		filter string
		fn     pongo2.FilterFunction
		want   string
	}{
		{"owned by another engine", "vireotest_shout", shout, "already exists"},
		{"pongo2 builtin", "upper", shout, "already exists"},
		{"nil function", "vireotest_nil", nil, "nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewDjango(djangoFS(), ".html", WithFilter(tt.filter, tt.fn))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewDjango = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	t.Run("same engine loads again", func(t *testing.T) {
		if err := sharedDjango(t).Load(); err != nil {
			t.Fatalf("second Load: %v", err)
		}
	})
}

func TestDjangoLoadErrors(t *testing.T) {
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		layout string
		want   []string
	}{
		{"parse error names file and line",
			fstest.MapFS{"ok.html": {Data: []byte(`ok`)}, "dir/bad.html": {Data: []byte("line 1\n{% if %}")}},
			"", []string{"dir/bad.html", "Line 2"}},
		{"unknown tag",
			fstest.MapFS{"bad.html": {Data: []byte("\n\n{% nope %}")}},
			"", []string{"bad.html", "Line 3"}},
		{"unknown filter",
			fstest.MapFS{"bad.html": {Data: []byte("{{ x|vireotest_unknown }}")}},
			"", []string{"bad.html", "vireotest_unknown"}},
		{"missing include",
			fstest.MapFS{"p.html": {Data: []byte("x\n{% include \"missing.html\" %}")}},
			"", []string{"p.html", "missing.html"}},
		{"missing parent",
			fstest.MapFS{"p.html": {Data: []byte(`{% extends "base.html" %}`)}},
			"", []string{"p.html", "base.html"}},
		{"include outside the root",
			fstest.MapFS{"p.html": {Data: []byte(`{% include "../../etc/passwd" %}`)}},
			"", []string{"p.html", "passwd"}},
		{"missing default layout",
			fstest.MapFS{"p.html": {Data: []byte(`p`)}},
			"frame.html", []string{"frame.html", "not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewDjango(tt.fsys, ".html", WithLayout(tt.layout))
			if err == nil {
				t.Fatal("NewDjango succeeded, want an error")
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

func TestDjangoRenderErrors(t *testing.T) {
	e := sharedDjango(t)
	tests := []struct {
		name, page, layout string
		data               any
		notFound           bool
		want               []string
	}{
		{"missing page", "nope.html", "", nil, true, []string{"nope.html"}},
		{"missing layout", "inner.html", "nope.html", nil, true, []string{"nope.html"}},
		{"function error", "call.html", "", map[string]any{"Fn": func() (string, error) { return "", errors.New("fn failed") }},
			false, []string{"call.html", "fn failed"}},
		{"computed include missing", "dynamic.html", "", map[string]any{"Part": "ghost.html"}, false, []string{"dynamic.html", "ghost.html"}},
		{"unsupported data", "inner.html", "", 42, false, []string{"inner.html", "int"}},
		{"map with other keys", "inner.html", "", map[int]string{1: "x"}, false, []string{"inner.html", "map[int]string"}},
		{"invalid identifier", "inner.html", "", map[string]any{"not-valid": 1}, false, []string{"inner.html", "not-valid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := render(e, tt.page, tt.layout, tt.data)
			if err == nil {
				t.Fatal("render succeeded, want an error")
			}
			if got := errors.Is(err, ErrNotFound); got != tt.notFound {
				t.Errorf("errors.Is(err, ErrNotFound) = %v, want %v (err: %v)", got, tt.notFound, err)
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
	t.Run("not loaded", func(t *testing.T) {
		if _, err := render(new(DjangoEngine), "inner.html", "", nil); !errors.Is(err, errNotLoaded) {
			t.Fatalf("err = %v, want errNotLoaded", err)
		}
	})
	// The engine adds no recover of its own (the core's View recovers):
	// panics of functions, filters and writers reach the caller.
	panics := []struct {
		name, layout string
		w            io.Writer
		data         any
		want         string
	}{
		{"panicking writer", "", panicWriter{}, nil, "writer exploded"},
		{"function panic", "", io.Discard, map[string]any{"Fn": func() string { panic("fn panicked") }}, "fn panicked"},
		{"function panic inside the engine layout", "frame.html", io.Discard, map[string]any{"Fn": func() string { panic("fn panicked") }}, "fn panicked"},
	}
	for _, tt := range panics {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != tt.want {
					t.Fatalf("recovered %v, want %q", r, tt.want)
				}
			}()
			page := "call.html"
			if tt.data == nil {
				page = "inner.html"
			}
			_ = e.ExecuteWriter(tt.w, page, tt.layout, tt.data)
			t.Fatal("ExecuteWriter returned, want a panic")
		})
	}
}

func TestDjangoEngineInfo(t *testing.T) {
	e, err := NewDjangoDir("testdata/bench/django", "html")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "django" || e.Ext() != ".html" {
		t.Fatalf("Name, Ext = %q, %q", e.Name(), e.Ext())
	}
	var _ Engine = e
}

func TestFSLoaderAbs(t *testing.T) {
	l := fsLoader{fsys: fstest.MapFS{}}
	tests := []struct{ base, name, want string }{
		{"", "index.html", "index.html"},
		{"users/show.html", "layout.html", "layout.html"},
		{"users/show.html", "shared/nav.html", "shared/nav.html"},
		{"users/show.html", "./row.html", "users/row.html"},
		{"users/show.html", "../shared/nav.html", "shared/nav.html"},
		{"index.html", "../secret.html", "../secret.html"},
		{"", "a/./b/../c.html", "a/c.html"},
	}
	for _, tt := range tests {
		if got := l.Abs(tt.base, tt.name); got != tt.want {
			t.Errorf("Abs(%q, %q) = %q, want %q", tt.base, tt.name, got, tt.want)
		}
	}
	if _, err := l.Get("../secret.html"); err == nil {
		t.Error("Get of a path outside the root succeeded")
	}
}
