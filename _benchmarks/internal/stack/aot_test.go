package stack

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestAOTProject(t *testing.T) {
	tests := []struct {
		name    string
		csproj  string // "" for no project file
		wantAOT bool
	}{
		{"native AOT", "<Project><PropertyGroup><PublishAot>true</PublishAot></PropertyGroup></Project>", true},
		{"spaced", "<Project><PropertyGroup><PublishAot> true </PublishAot></PropertyGroup></Project>", true},
		{"off", "<Project><PropertyGroup><PublishAot>false</PublishAot></PropertyGroup></Project>", false},
		{"framework-dependent", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>", false},
		{"no project", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "App.csproj")
			if tt.csproj != "" {
				if err := os.WriteFile(path, []byte(tt.csproj), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := aotProject(dir) != ""; got != tt.wantAOT {
				t.Errorf("aotProject: AOT %v, want %v", got, tt.wantAOT)
			}
			var want []string
			if tt.wantAOT {
				want = []string{"-r", dotnetRID()}
			}
			if got := aotPublishArgs(path); !reflect.DeepEqual(got, want) {
				t.Errorf("aotPublishArgs = %q, want %q", got, want)
			}
		})
	}
}

// TestAOTSkipReason plays machines with and without the C toolchain: only
// a Native AOT app is skipped, with the toolchain's reason.
func TestAOTSkipReason(t *testing.T) {
	if dotnetRID() == "" {
		t.Skip("no .NET runtime identifier for this platform")
	}
	aot, plain := t.TempDir(), t.TempDir()
	write := func(dir, content string) {
		if err := os.WriteFile(filepath.Join(dir, "App.csproj"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(aot, "<Project><PropertyGroup><PublishAot>true</PublishAot></PropertyGroup></Project>")
	write(plain, "<Project></Project>")

	saved := lookAOTToolchain
	t.Cleanup(func() { lookAOTToolchain = saved })
	const missing = "Native AOT needs clang, which is not installed"
	for _, tt := range []struct {
		toolchain, dir, want string
	}{
		{missing, aot, missing},
		{missing, plain, ""},
		{"", aot, ""},
	} {
		lookAOTToolchain = func() string { return tt.toolchain }
		if got := aotSkipReason(tt.dir); got != tt.want {
			t.Errorf("toolchain %q, dir %s: aotSkipReason = %q, want %q", tt.toolchain, tt.dir, got, tt.want)
		}
	}
}
