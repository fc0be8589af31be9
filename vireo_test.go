package vireo_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// exported returns the exported package-level identifiers of the package
// in dir (constants, variables, functions, types and their constructors),
// each as "kind name", test files excluded.
func exported(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if n := e.Name(); !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var names []string
	if len(files) > 0 {
		d, err := doc.NewFromFiles(fset, files, "example.com/"+dir)
		if err != nil {
			t.Fatal(err)
		}
		values := func(vs []*doc.Value) {
			for _, v := range vs {
				for _, s := range v.Decl.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if id.IsExported() {
							names = append(names, v.Decl.Tok.String()+" "+id.Name)
						}
					}
				}
			}
		}
		values(d.Consts)
		values(d.Vars)
		for _, f := range d.Funcs {
			names = append(names, "func "+f.Name)
		}
		for _, ty := range d.Types {
			names = append(names, "type "+ty.Name)
			values(ty.Consts)
			values(ty.Vars)
			for _, f := range ty.Funcs {
				names = append(names, "func "+f.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// notReexported are core identifiers the facade leaves out on purpose.
var notReexported = map[string]string{}

// TestFacadeMatchesCore checks that the facade re-exports every exported
// identifier of core, as the same kind (a core function is a function of
// the facade, not a variable holding it), and nothing else, so the two
// cannot drift apart.
func TestFacadeMatchesCore(t *testing.T) {
	facade, core := exported(t, "."), exported(t, "core")
	for _, name := range core {
		if _, skip := notReexported[name]; skip {
			continue
		}
		if _, found := slices.BinarySearch(facade, name); !found {
			t.Errorf("core's %s is not re-exported by package vireo", name)
		}
	}
	for _, name := range facade {
		if _, found := slices.BinarySearch(core, name); !found {
			t.Errorf("vireo's %s has no counterpart in core", name)
		}
	}
}

// TestFacadeListsEveryContextMethod checks that the facade's Context
// documentation names every exported method of core.Context, so that go
// doc of the facade leads to each of them in one step.
func TestFacadeListsEveryContextMethod(t *testing.T) {
	src, err := os.ReadFile("vireo.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	start := strings.Index(doc, "// Context is a handler's handle")
	end := strings.Index(doc, "Context = core.Context")
	if start < 0 || end < start {
		t.Fatal("no Context documentation in vireo.go")
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(doc[start:end]) {
		words[w] = true
	}
	ct := reflect.TypeFor[core.Context]()
	for i := 0; i < ct.NumMethod(); i++ {
		if name := ct.Method(i).Name; !words[name] {
			t.Errorf("the facade's Context documentation does not list %s", name)
		}
	}
}
