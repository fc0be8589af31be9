package view_test

// End-to-end tests through the core: a rendered view reaches the client with
// its headers only when rendering succeeded; every failure is a 500 with no
// part of the page on the wire and a log line naming the template.

import (
	"bytes"
	"html/template"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/view"
)

// fragment is written by the failing templates before they fail; it must
// never reach a client.
const fragment = "<p>partial output</p>"

func htmlSite(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"layouts/layout.html": {Data: readFile(t, "testdata/bench/html/layouts/layout.html")},
		"index.html":          {Data: readFile(t, "testdata/bench/html/index.html")},
		"user.html":           {Data: []byte(`<b>{{ .User }}</b>`)},
		"fail.html":           {Data: []byte(fragment + `{{ fail }}`)},
		"panic.html":          {Data: []byte(fragment + `{{ boom }}`)},
		"field.html":          {Data: []byte(fragment + `{{ .Title.Nope }}`)},
	}
}

func djangoSite(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"layout.html": {Data: readFile(t, "testdata/bench/django/layout.html")},
		"index.html":  {Data: readFile(t, "testdata/bench/django/index.html")},
		"user.html":   {Data: []byte(`<b>{{ User }}</b>`)},
		"fail.html":   {Data: []byte(fragment + `{{ Fail() }}`)},
		"panic.html":  {Data: []byte(fragment + `{{ Boom() }}`)},
		"field.html":  {Data: []byte(`{% extends "layout.html" %}{% block content %}` + fragment + `{{ Fail() }}{% endblock %}`)},
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestViewsOverHTTP(t *testing.T) {
	want := string(readFile(t, "testdata/bench/expected.html"))
	funcs := template.FuncMap{
		"fail": func() (string, error) { return "", os.ErrPermission },
		"boom": func() string { panic("boom") },
	}
	engines := []struct {
		name   string
		engine view.Engine
	}{
		{"html", view.MustNewHTML(htmlSite(t), ".html", view.WithLayout("layouts/layout.html"), view.WithFuncs(funcs))},
		{"django", view.MustNewDjango(djangoSite(t), ".html")},
	}
	djangoData := map[string]any{
		"Fail": func() (string, error) { return "", os.ErrPermission },
		"Boom": func() string { panic("boom") },
	}

	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			var logs bytes.Buffer
			app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			if err := app.RegisterView(eng.engine); err != nil {
				t.Fatal(err)
			}
			page := func(name, layout string, data any) core.Handler {
				return func(ctx core.Context) {
					if layout != "" {
						ctx.SetViewLayout(layout)
					}
					ctx.View(name, data)
				}
			}
			app.Get("/", page("index.html", "", map[string]any{"Title": "Home Page"}))
			app.Get("/viewdata", func(ctx core.Context) { ctx.SetViewData("User", "<script>x</script>"); ctx.Next() },
				page("user.html", view.NoLayout, nil))
			app.Get("/missing", page("nope.html", "", nil))
			app.Get("/missing-layout", page("index.html", "layouts/nope.html", map[string]any{"Title": "x"}))
			app.Get("/fail", page("fail.html", view.NoLayout, djangoData))
			app.Get("/panic", page("panic.html", view.NoLayout, djangoData))
			app.Get("/field", page("field.html", "", map[string]any{"Title": "s", "Fail": djangoData["Fail"]}))

			t.Run("page", func(t *testing.T) {
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
				if rec.Code != http.StatusOK || rec.Body.String() != want {
					t.Fatalf("status %d, body:\n%s", rec.Code, rec.Body)
				}
				if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("Content-Type %q", ct)
				}
				// A page this small gets its Content-Length from net/http
				// (core leaves it to net/http below its 2 KiB buffer): check
				// it on the wire.
				srv := httptest.NewServer(app)
				defer srv.Close()
				resp, err := srv.Client().Get(srv.URL + "/")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.ContentLength != int64(len(want)) || len(resp.TransferEncoding) != 0 {
					t.Errorf("Content-Length %d, Transfer-Encoding %v, want Content-Length %d", resp.ContentLength, resp.TransferEncoding, len(want))
				}
			})
			t.Run("view data is escaped", func(t *testing.T) {
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, httptest.NewRequest("GET", "/viewdata", nil))
				if got := rec.Body.String(); rec.Code != 200 || got != "<b>&lt;script&gt;x&lt;/script&gt;</b>" {
					t.Fatalf("status %d, body %q", rec.Code, got)
				}
			})
			for _, path := range []string{"/missing", "/missing-layout", "/fail", "/panic", "/field"} {
				t.Run(path, func(t *testing.T) {
					logs.Reset()
					rec := httptest.NewRecorder()
					app.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
					if rec.Code != http.StatusInternalServerError {
						t.Errorf("status %d, want 500", rec.Code)
					}
					if body := rec.Body.String(); strings.Contains(body, fragment) || strings.Contains(body, "<html") {
						t.Errorf("part of the page reached the client: %q", body)
					}
					if !strings.Contains(logs.String(), "template=") {
						t.Errorf("no log naming the template: %q", logs.String())
					}
				})
			}
		})
	}
}

// The engines are what the core renders through.
var (
	_ core.ViewEngine = (*view.HTMLEngine)(nil)
	_ core.ViewEngine = (*view.DjangoEngine)(nil)
)
