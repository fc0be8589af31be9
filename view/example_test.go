package view_test

import (
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/flosch/pongo2/v6"
	"github.com/vireo-go/vireo/view"
)

// page is the data of the pages below: a struct, which html/template
// reads faster than a map (see the package documentation).
type page struct {
	Title string
	Items []string
}

// A page rendered in a layout: the layout calls {{ yield . }} where the page
// goes, and a partial is included by name. Templates usually come from an
// embed.FS or os.DirFS; a MapFS keeps the example self-contained.
func ExampleNewHTML() {
	views := fstest.MapFS{
		"layouts/main.html": {Data: []byte(`<title>{{ .Title }}</title><main>{{ yield . }}</main>`)},
		"index.html":        {Data: []byte(`<h1>{{ .Title | upper }}</h1>{{ partial "list.html" .Items }}`)},
		"list.html":         {Data: []byte(`<ul>{{ range . }}<li>{{ . }}</li>{{ end }}</ul>`)},
	}
	engine, err := view.NewHTML(views, ".html",
		view.WithLayout("layouts/main.html"),
		view.WithFuncs(map[string]any{"upper": strings.ToUpper}))
	if err != nil {
		fmt.Println(err)
		return
	}
	// In an application: app.RegisterView(engine), then ctx.View("index.html", data).
	data := page{Title: "Birds", Items: []string{"vireo", "<wren>"}}
	if err := engine.ExecuteWriter(os.Stdout, "index.html", "", data); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	// view.NoLayout renders the page alone, for a fragment.
	if err := engine.ExecuteWriter(os.Stdout, "list.html", view.NoLayout, data.Items); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <title>Birds</title><main><h1>BIRDS</h1><ul><li>vireo</li><li>&lt;wren&gt;</li></ul></main>
	// <ul><li>vireo</li><li>&lt;wren&gt;</li></ul>
}

// A Django page extends its base template and fills its blocks; globals
// are seen by every template.
func ExampleNewDjango() {
	views := fstest.MapFS{
		"base.html":  {Data: []byte(`<title>{% block title %}{{ Site }}{% endblock %}</title>{% block content %}{% endblock %}`)},
		"index.html": {Data: []byte(`{% extends "base.html" %}{% block title %}{{ Title }} · {{ block.Super }}{% endblock %}{% block content %}{{ Items|join:", " }}{% endblock %}`)},
	}
	engine, err := view.NewDjango(views, ".html", view.WithGlobals(map[string]any{"Site": "Vireo"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := engine.ExecuteWriter(os.Stdout, "index.html", "", page{Title: "Birds", Items: []string{"vireo", "wren"}}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <title>Birds · Vireo</title>vireo, wren
}

// An option that does not apply to the engine is an error from the
// constructor, not a setting silently ignored.
func ExampleWithFilter() {
	shout := func(in, _ *pongo2.Value) (*pongo2.Value, *pongo2.Error) {
		return pongo2.AsValue(strings.ToUpper(in.String())), nil
	}
	_, err := view.NewHTML(fstest.MapFS{}, ".html", view.WithFilter("shout", shout))
	fmt.Println(err)
	// Output:
	// view: html: WithFilter does not apply to the html engine
}
