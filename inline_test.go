package vireo_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// compilerDecisions builds pkg (a package path relative to the module)
// with -gcflags=-m and returns what the compiler printed.
func compilerDecisions(t *testing.T, pkg string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", os.DevNull, "-gcflags=-m", pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m %s: %v\n%s", pkg, err, out)
	}
	return string(out)
}

// TestFacadeInlines checks inline.go: every method of core's exported
// types that the compiler can inline is inlined in the facade, so that
// its body reaches an application that imports the facade alone; and
// such an application (testdata/inlineuser) gets the parameter reads
// inlined.
func TestFacadeInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds core and the facade again with -gcflags=-m")
	}
	canInline := regexp.MustCompile(`can inline ((\(\*)?[A-Z]\w*\)?\.[A-Z]\w*)$`)
	var inlinable []string
	for _, line := range strings.Split(compilerDecisions(t, "./core"), "\n") {
		if m := canInline.FindStringSubmatch(line); m != nil && !slices.Contains(inlinable, m[1]) {
			inlinable = append(inlinable, m[1])
		}
	}
	if len(inlinable) < 20 {
		t.Fatalf("only %d inlinable methods found in core: %q", len(inlinable), inlinable)
	}
	facade := compilerDecisions(t, ".")
	for _, m := range inlinable {
		if !strings.Contains(facade, "inlining call to core."+m+"\n") {
			t.Errorf("%s is inlinable in core but not inlined in inline.go: an application importing the facade would call it", m)
		}
	}
	user := compilerDecisions(t, "./testdata/inlineuser")
	for _, m := range []string{"Context.Param", "Context.Params", "Params.Len", "Params.At"} {
		if !strings.Contains(user, "inlining call to core."+m+"\n") {
			t.Errorf("testdata/inlineuser: core.%s not inlined through the facade", m)
		}
	}
}
