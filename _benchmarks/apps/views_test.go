package apps_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestViewsProduceCanonicalPage guards the template files of the engines Go
// cannot run against drift from expected/templates.html, even where node or
// dotnet is missing: substituting the title and the page for the layout's
// only two dynamic expressions must give the canonical page byte for byte,
// and no other template syntax may appear (which could emit or eat
// whitespace). TestExpressApps and TestDotnetApps check the real rendering.
func TestViewsProduceCanonicalPage(t *testing.T) {
	root, c := benchtest.MustContract(t)
	want := c.Comparisons["templates"].Body
	tests := []struct {
		name         string
		layout, page string // relative to apps/
		title, body  string // the layout's title and body expressions
		syntax       string // what marks template syntax in this engine
		start        string // content that may precede the page (Razor's _ViewStart)
	}{
		{
			name:   "razor",
			layout: "netcore-mvc-templates/Views/Shared/_Layout.cshtml",
			page:   "netcore-mvc-templates/Views/Home/Index.cshtml",
			title:  `@ViewData["Title"]`, body: "@RenderBody()", syntax: "@",
			start: "netcore-mvc-templates/Views/_ViewStart.cshtml",
		},
		{
			name:   "ejs",
			layout: "expressjs-templates/views/layout.ejs",
			page:   "expressjs-templates/views/index.ejs",
			title:  "<%= title %>", body: "<%- body %>", syntax: "<%",
		},
	}
	read := func(t *testing.T, name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, "apps", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			layout, page := read(t, tt.layout), read(t, tt.page)
			if n := strings.Count(layout, tt.syntax); n != 2 || strings.Count(layout, tt.title) != 1 || strings.Count(layout, tt.body) != 1 {
				t.Fatalf("%s: want exactly the expressions %q and %q, found %d uses of %q", tt.layout, tt.title, tt.body, n, tt.syntax)
			}
			if strings.Contains(page, tt.syntax) {
				t.Fatalf("%s: the page must be static, found %q", tt.page, tt.syntax)
			}
			if tt.start != "" {
				// _ViewStart runs into the page's buffer: it must end with
				// its code block, so that it emits no text, not even a newline.
				if start := read(t, tt.start); !strings.HasSuffix(start, "}") || strings.Count(start, "@") != 1 {
					t.Fatalf("%s must be one code block with nothing after it, got %q", tt.start, start)
				}
			}
			got := strings.Replace(strings.Replace(layout, tt.title, "Home Page", 1), tt.body, page, 1)
			if d := benchtest.Diff(want, []byte(got)); d != "" {
				t.Errorf("%s + %s differ from expected/templates.html: %s", tt.layout, tt.page, d)
			}
		})
	}
}
