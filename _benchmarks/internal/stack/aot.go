// Native AOT apps (netcore-aot): an ASP.NET Core project whose .csproj sets
// <PublishAot>true</PublishAot> is published for this machine's runtime
// identifier (`dotnet publish -c Release -r linux-x64`), which compiles it
// ahead of time into one native executable. That compilation links with the
// platform's C toolchain: .NET's ILCompiler calls clang and links zlib, so
// without clang on PATH or without zlib's development library (Debian:
// clang zlib1g-dev) the app is skipped with that reason instead of failing
// its build.
package stack

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

var publishAot = regexp.MustCompile(`<PublishAot>\s*true\s*</PublishAot>`)

// isAOTProject reports whether the .csproj at path asks for Native AOT.
func isAOTProject(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && publishAot.Match(data)
}

// aotProject returns the Native AOT project of the app in dir, or "" when
// the app has no single .csproj or it does not set PublishAot.
func aotProject(dir string) string {
	projects, _ := filepath.Glob(filepath.Join(dir, "*.csproj"))
	if len(projects) == 1 && isAOTProject(projects[0]) {
		return projects[0]
	}
	return ""
}

// dotnetRID is the .NET runtime identifier of this machine (linux-x64,
// linux-arm64), or "" where .NET has none the suite knows.
func dotnetRID() string {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || arch == "" {
		return ""
	}
	return "linux-" + arch
}

// lookAOTToolchain reports what Native AOT compilation lacks on this
// machine, or "" when clang and zlib's library are there; tests replace it
// to play a machine without them.
var lookAOTToolchain = func() string {
	clang, err := exec.LookPath("clang")
	if err != nil {
		return "Native AOT needs clang, which is not installed (Debian: apt-get install -y clang zlib1g-dev)"
	}
	// clang prints the full path of a library it can link, and the bare
	// name when it finds none.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, clang, "-print-file-name=libz.so").Output()
	if lib := strings.TrimSpace(string(out)); err != nil || !filepath.IsAbs(lib) {
		return "Native AOT links zlib, whose development library clang cannot find (Debian: apt-get install -y zlib1g-dev)"
	}
	return ""
}

// aotSkipReason returns why the Native AOT app in dir cannot be built on
// this machine, or "" when it can (or is no Native AOT app).
func aotSkipReason(dir string) string {
	if aotProject(dir) == "" {
		return ""
	}
	if dotnetRID() == "" {
		return "Native AOT: no .NET runtime identifier for " + runtime.GOOS + "/" + runtime.GOARCH
	}
	return lookAOTToolchain()
}

// aotPublishArgs returns the arguments `dotnet publish` needs beyond -c
// Release for the project at path: the runtime identifier for a Native AOT
// project, nothing for any other.
func aotPublishArgs(path string) []string {
	if !isAOTProject(path) {
		return nil
	}
	return []string{"-r", dotnetRID()}
}
