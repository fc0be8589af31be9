package apps_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// TestTechEmpowerAppsShareTheirDatabaseCode keeps the database access of
// the TechEmpower apps of one runtime byte-identical: each app holds its
// own copy (self-contained, counted in its lines of code), and the same
// queries, batching and pool in every copy mean the comparison prices the
// framework, not a different use of the driver.
func TestTechEmpowerAppsShareTheirDatabaseCode(t *testing.T) {
	root, _ := benchtest.MustContract(t)
	for file, apps := range map[string][]string{
		"db.go": {"tfb-vireo", "tfb-vireo-fast", "tfb-nethttp", "tfb-gin", "tfb-echo", "tfb-chi", "tfb-fiber"},
		"db.js": {"tfb-expressjs", "tfb-nodehttp"},
	} {
		want, err := os.ReadFile(filepath.Join(root, "apps", apps[0], file))
		if err != nil {
			t.Fatal(err)
		}
		for _, app := range apps[1:] {
			got, err := os.ReadFile(filepath.Join(root, "apps", app, file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("apps/%s/%s differs from apps/%s/%s", app, file, apps[0], file)
			}
		}
	}
}
