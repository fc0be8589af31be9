package core

import (
	"io"
	"strings"
	"testing"
)

// pageEngine is a ViewEngine that writes a fixed page, so that the
// benchmark measures View's own cost: the buffer, the recover, the write.
type pageEngine struct{ page string }

func (e pageEngine) Name() string { return "page" }
func (e pageEngine) Load() error  { return nil }
func (e pageEngine) ExecuteWriter(w io.Writer, _, _ string, _ any) error {
	_, err := io.WriteString(w, e.page)
	return err
}

// BenchmarkView renders a 1.5 KiB page through Context.View.
func BenchmarkView(b *testing.B) {
	app := New()
	if err := app.RegisterView(pageEngine{page: strings.Repeat("<p>vireo</p>", 128)}); err != nil {
		b.Fatal(err)
	}
	app.Get("/", func(ctx Context) { ctx.View("index.html", nil) })
	if err := app.Build(); err != nil {
		b.Fatal(err)
	}
	benchRequest(b, app, "GET", "/")
}
