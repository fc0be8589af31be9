package view

import (
	"html/template"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flosch/pongo2/v6"
)

func TestOptionsThatDoNotApply(t *testing.T) {
	fsys := fstest.MapFS{"p.html": {Data: []byte(`p`)}}
	filter := func(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) { return in, nil }
	tests := []struct {
		name   string
		django bool
		opts   []Option
		want   []string
	}{
		{"html: WithGlobals", false, []Option{WithGlobals(map[string]any{"x": 1})}, []string{"WithGlobals", "html"}},
		{"html: WithFilter", false, []Option{WithFilter("vireotest_opt", filter)}, []string{"WithFilter", "html"}},
		{"html: both, both named", false, []Option{WithGlobals(nil), WithFilter("vireotest_opt", filter)}, []string{"WithGlobals", "WithFilter"}},
		{"django: WithFuncs", true, []Option{WithFuncs(template.FuncMap{"f": strings.ToUpper})}, []string{"WithFuncs", "django"}},
		{"django: WithDelims", true, []Option{WithDelims("[[", "]]")}, []string{"WithDelims", "django"}},
		{"html: nil option", false, []Option{nil}, []string{"nil Option"}},
		{"django: nil option", true, []Option{WithLayout(""), nil}, []string{"nil Option"}},
		{"django: nil filter", true, []Option{WithFilter("vireotest_nilfn", nil)}, []string{"vireotest_nilfn", "nil filter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.django {
				_, err = NewDjango(fsys, ".html", tt.opts...)
			} else {
				_, err = NewHTML(fsys, ".html", tt.opts...)
			}
			if err == nil {
				t.Fatal("constructor succeeded, want an error")
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

func TestOptionsAccumulate(t *testing.T) {
	fsys := fstest.MapFS{
		"a.html":  {Data: []byte(`{{ one }}{{ two }}`)},
		"l1.html": {Data: []byte(`1{{ yield }}`)},
		"l2.html": {Data: []byte(`2{{ yield }}`)},
	}
	e := mustHTML(t, fsys, ".html",
		WithFuncs(template.FuncMap{"one": func() string { return "a" }}),
		WithFuncs(template.FuncMap{"two": func() string { return "b" }}),
		WithLayout("l1.html"), WithLayout("l2.html")) // the last layout wins
	if got, err := render(e, "a.html", "", nil); err != nil || got != "2ab" {
		t.Fatalf("got %q, %v; want %q", got, err, "2ab")
	}

	d := mustDjango(t, fstest.MapFS{"g.html": {Data: []byte(`{{ a }}{{ b }}`)}}, ".html",
		WithGlobals(map[string]any{"a": "x", "b": "y"}),
		WithGlobals(pongo2.Context{"b": "z"}))
	if got, err := render(d, "g.html", "", nil); err != nil || got != "xz" {
		t.Fatalf("got %q, %v; want %q", got, err, "xz")
	}
}

func TestNilFS(t *testing.T) {
	if _, err := NewHTML(nil, ".html"); err == nil || !strings.Contains(err.Error(), "nil fs.FS") {
		t.Errorf("NewHTML(nil) = %v", err)
	}
	if _, err := NewDjango(nil, ".html"); err == nil || !strings.Contains(err.Error(), "nil fs.FS") {
		t.Errorf("NewDjango(nil) = %v", err)
	}
}

func TestMustNewPanics(t *testing.T) {
	bad := fstest.MapFS{"bad.html": {Data: []byte(`{{ if }}`)}}
	for name, mustNew := range map[string]func(){
		"MustNewHTML":   func() { MustNewHTML(bad, ".html") },
		"MustNewDjango": func() { MustNewDjango(fstest.MapFS{"bad.html": {Data: []byte(`{% if %}`)}}, ".html") },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				err, ok := recover().(error)
				if !ok || !strings.Contains(err.Error(), "bad.html") {
					t.Fatalf("recovered %v, want the error naming bad.html", err)
				}
			}()
			mustNew()
			t.Fatal("did not panic")
		})
	}
}
