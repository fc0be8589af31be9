package view

import (
	"bytes"
	"errors"
	"html/template"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// htmlFS is a small site: two layouts, pages, partials of every kind.
func htmlFS() fstest.MapFS {
	return fstest.MapFS{
		"layouts/main.html": {Data: []byte(`<title>{{ .Title }}</title><main>{{ yield . }}</main>`)},
		"layouts/alt.html":  {Data: []byte(`<alt>{{ if .Title }}{{ yield }}{{ end }}</alt>`)},
		"layouts/with.html": {Data: []byte(`{{ with .Inner }}[{{ yield . }}]{{ end }}`)},
		"index.html":        {Data: []byte(`<h1>{{ .Title }}</h1>{{ partial "shared/nav.html" . }}`)},
		"about.html":        {Data: []byte(`about {{ render "shared/nav.html" }}`)},
		"inner.html":        {Data: []byte(`inner={{ .Title }}`)},
		"dynamic.html":      {Data: []byte(`{{ partial .Part . }}`)},
		"std.html":          {Data: []byte(`{{ template "shared/nav.html" . }}`)},
		"defines.html":      {Data: []byte(`{{ define "box" }}<b>{{ . }}</b>{{ end }}{{ partial "box" .Title }}`)},
		"upper.html":        {Data: []byte(`{{ upper .Title }}`)},
		"shared/nav.html":   {Data: []byte(`<nav>{{ .Title }}</nav>`)},
		"notes.txt":         {Data: []byte(`{{ not parsed: wrong extension`)},
		".git/x.html":       {Data: []byte(`{{ not parsed: hidden directory`)},
	}
}

// render runs ExecuteWriter into a fresh buffer.
func render(e Engine, name, layout string, data any) (string, error) {
	var buf bytes.Buffer
	err := e.ExecuteWriter(&buf, name, layout, data)
	return buf.String(), err
}

// mustHTML returns a new HTML engine or fails the test.
func mustHTML(t testing.TB, fsys fs.FS, ext string, opts ...Option) *HTMLEngine {
	t.Helper()
	e, err := NewHTML(fsys, ext, opts...)
	if err != nil {
		t.Fatalf("NewHTML: %v", err)
	}
	return e
}

// mustDjango returns a new Django engine or fails the test.
func mustDjango(t testing.TB, fsys fs.FS, ext string, opts ...Option) *DjangoEngine {
	t.Helper()
	e, err := NewDjango(fsys, ext, opts...)
	if err != nil {
		t.Fatalf("NewDjango: %v", err)
	}
	return e
}

func TestHTMLRender(t *testing.T) {
	upper := template.FuncMap{"upper": strings.ToUpper}
	def := mustHTML(t, htmlFS(), ".html", WithLayout("layouts/main.html"), WithFuncs(upper))
	plain := mustHTML(t, htmlFS(), "html", WithFuncs(upper)) // extension without the dot

	type page struct{ Title string }
	tests := []struct {
		name   string
		engine *HTMLEngine
		page   string
		layout string
		data   any
		want   string
	}{
		{"default layout", def, "index.html", "", map[string]any{"Title": "Home"},
			`<title>Home</title><main><h1>Home</h1><nav>Home</nav></main>`},
		{"struct data", def, "index.html", "", page{Title: "S"},
			`<title>S</title><main><h1>S</h1><nav>S</nav></main>`},
		{"override layout", def, "index.html", "layouts/alt.html", page{Title: "A"},
			`<alt><h1>A</h1><nav>A</nav></alt>`},
		{"yield inside with", def, "inner.html", "layouts/with.html", map[string]any{"Inner": page{Title: "in"}},
			`[inner=in]`},
		{"no layout", def, "index.html", NoLayout, page{Title: "N"},
			`<h1>N</h1><nav>N</nav>`},
		{"no default layout", plain, "index.html", "", page{Title: "P"},
			`<h1>P</h1><nav>P</nav>`},
		{"render alias, no argument passes dot", plain, "about.html", "", page{Title: "B"},
			`about <nav>B</nav>`},
		{"computed partial name", plain, "dynamic.html", "", map[string]any{"Part": "shared/nav.html", "Title": "D"},
			`<nav>D</nav>`},
		{"standard template action", plain, "std.html", "", page{Title: "T"},
			`<nav>T</nav>`},
		{"partial of a define block", plain, "defines.html", "", page{Title: "x"},
			`<b>x</b>`},
		{"custom func", plain, "upper.html", "", page{Title: "shout"},
			`SHOUT`},
		{"custom func in layout", def, "upper.html", "layouts/alt.html", page{Title: "up"},
			`<alt>UP</alt>`},
		{"escaping", plain, "inner.html", "", page{Title: "<script>alert(1)</script>"},
			`inner=&lt;script&gt;alert(1)&lt;/script&gt;`},
		{"escaping through layout", def, "inner.html", "", page{Title: "<script>"},
			`<title>&lt;script&gt;</title><main>inner=&lt;script&gt;</main>`},
		{"trusted HTML", plain, "inner.html", "", map[string]any{"Title": template.HTML("<em>ok</em>")},
			`inner=<em>ok</em>`},
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
}

func TestHTMLDelims(t *testing.T) {
	fsys := fstest.MapFS{
		"layout.tmpl": {Data: []byte(`<p>[[ .Title ]]|[[ yield . ]]</p>`)},
		"page.tmpl":   {Data: []byte(`{{ literal }} [[ partial "part.tmpl" . ]]`)},
		"part.tmpl":   {Data: []byte(`[[ .Title ]]!`)},
	}
	e := mustHTML(t, fsys, ".tmpl", WithDelims("[[", "]]"), WithLayout("layout.tmpl"))
	got, err := render(e, "page.tmpl", "", map[string]string{"Title": "d"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `<p>d|{{ literal }} d!</p>`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHTMLLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		opts []Option
		want []string // substrings of the error
	}{
		{"parse error names file and line",
			fstest.MapFS{"ok.html": {Data: []byte(`fine`)}, "dir/bad.html": {Data: []byte("line 1\n{{ .Title ")}},
			nil,
			[]string{"dir/bad.html:2"}},
		{"unknown function names file and line",
			fstest.MapFS{"bad.html": {Data: []byte("\n\n{{ nope . }}")}},
			nil,
			[]string{"bad.html:3", "nope"}},
		{"missing partial names file and line",
			fstest.MapFS{"p.html": {Data: []byte("x\n  {{ partial \"missing.html\" . }}")}},
			nil,
			[]string{"p.html:2", "missing.html", "not found"}},
		{"partial with too many arguments",
			fstest.MapFS{"p.html": {Data: []byte(`{{ partial "p.html" . . }}`)}},
			nil,
			[]string{"p.html:1", "at most one argument"}},
		{"yield with too many arguments",
			fstest.MapFS{"l.html": {Data: []byte(`{{ yield . . }}`)}, "p.html": {Data: []byte(`p`)}},
			nil,
			[]string{"l.html:1", "yield"}},
		{"missing default layout",
			fstest.MapFS{"p.html": {Data: []byte(`p`)}},
			[]Option{WithLayout("nope.html")},
			[]string{"nope.html", "not found"}},
		{"default layout without yield",
			fstest.MapFS{"p.html": {Data: []byte(`p`)}, "l.html": {Data: []byte(`l`)}},
			[]Option{WithLayout("l.html")},
			[]string{"l.html", "yield"}},
		{"reserved function name",
			fstest.MapFS{"p.html": {Data: []byte(`p`)}},
			[]Option{WithFuncs(template.FuncMap{"partial": func() string { return "" }})},
			[]string{"partial", "reserved"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewHTML(tt.fsys, ".html", tt.opts...)
			if err == nil {
				t.Fatal("NewHTML succeeded, want an error")
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

// panicWriter panics on the first write, as a broken writer might.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("writer exploded") }

func TestHTMLRenderErrors(t *testing.T) {
	fsys := htmlFS()
	fsys["fail.html"] = &fstest.MapFile{Data: []byte(`before {{ fail }} after`)}
	fsys["boom.html"] = &fstest.MapFile{Data: []byte(`before {{ boom }} after`)}
	fsys["field.html"] = &fstest.MapFile{Data: []byte(`before {{ .Title.Missing }} after`)}
	fsys["plain.html"] = &fstest.MapFile{Data: []byte(`no yield here`)}
	e := mustHTML(t, fsys, ".html", WithLayout("layouts/main.html"), WithFuncs(template.FuncMap{
		"upper": strings.ToUpper,
		"fail":  func() (string, error) { return "", errors.New("fail func failed") },
		"boom":  func() string { panic("boom func panicked") },
	}))

	tests := []struct {
		name, page, layout string
		data               any
		notFound           bool
		want               []string
	}{
		{"missing page", "nope.html", "", nil, true, []string{"nope.html"}},
		{"missing page without layout", "nope.html", NoLayout, nil, true, []string{"nope.html"}},
		{"missing layout", "index.html", "layouts/nope.html", nil, true, []string{"layouts/nope.html"}},
		{"layout without yield", "index.html", "plain.html", nil, false, []string{"plain.html", "yield"}},
		{"page in itself", "layouts/main.html", "layouts/main.html", nil, false, []string{"layouts/main.html"}},
		{"yield outside layout", "layouts/main.html", NoLayout, map[string]any{"Title": "x"}, false, []string{"layouts/main.html", "yield"}},
		{"func error", "fail.html", "", nil, false, []string{"fail.html", "fail func failed"}},
		{"func panic", "boom.html", "", nil, false, []string{"boom.html", "boom func panicked"}},
		{"execution error", "field.html", NoLayout, map[string]any{"Title": "s"}, false, []string{"field.html", "Missing"}},
		{"computed partial missing", "dynamic.html", NoLayout, map[string]any{"Part": "ghost.html"}, true, []string{"dynamic.html", "ghost.html"}},
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

	t.Run("panicking writer propagates", func(t *testing.T) {
		// The engine adds no recover of its own: the core's View recovers.
		defer func() {
			if r := recover(); r != "writer exploded" {
				t.Fatalf("recovered %v, want the writer's panic", r)
			}
		}()
		_ = e.ExecuteWriter(panicWriter{}, "index.html", "", map[string]any{"Title": "x"})
		t.Fatal("ExecuteWriter returned, want the writer's panic")
	})
	t.Run("not loaded", func(t *testing.T) {
		if _, err := render(new(HTMLEngine), "index.html", "", nil); !errors.Is(err, errNotLoaded) {
			t.Fatalf("err = %v, want errNotLoaded", err)
		}
	})
	t.Run("engine still renders after errors", func(t *testing.T) {
		got, err := render(e, "inner.html", NoLayout, map[string]any{"Title": "ok"})
		if err != nil || got != "inner=ok" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
}

func TestHTMLEngineInfo(t *testing.T) {
	e, err := NewHTMLDir("testdata/bench/html", "html")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "html" || e.Ext() != ".html" {
		t.Fatalf("Name, Ext = %q, %q", e.Name(), e.Ext())
	}
	var _ Engine = e
}
