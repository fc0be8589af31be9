// Deploy sizes: what a build ships (the Go binary; the .NET publish folder
// without debug symbols, or the Native AOT executable; the Node app with its
// node_modules) and the runtime it needs installed apart (the .NET shared
// framework and dotnet host; the node executable), as the footprint report
// states them.
package stack

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// Deploy is the publish folder without debug symbols (*.pdb, *.dbg), and
// for a framework-dependent app the shared framework it needs.
func (Dotnet) Deploy(ctx context.Context, a *App) (report.Deploy, error) {
	var d report.Deploy
	dir := filepath.Dir(a.Argv[len(a.Argv)-1])
	n, files, err := dirSize(dir, ".pdb", ".dbg")
	if err != nil {
		return d, err
	}
	d.Bytes, d.Files = n, files
	if aotProject(a.Dir) != "" {
		d.What = "Native AOT executable, runtime included"
		return d, nil
	}
	d.What = "framework-dependent publish folder"
	rt, err := dotnetSharedFramework(ctx)
	d.Runtime, d.RuntimeBytes = rt.name, rt.bytes
	return d, err
}

// Deploy is the app's directory with its node_modules, and the node
// executable.
func (Node) Deploy(ctx context.Context, a *App) (report.Deploy, error) {
	var d report.Deploy
	n, files, err := dirSize(a.Dir)
	if err != nil {
		return d, err
	}
	d.What, d.Bytes, d.Files = "app with node_modules", n, files
	rt, err := nodeRuntime(ctx)
	d.Runtime, d.RuntimeBytes = rt.name, rt.bytes
	return d, err
}

// runtimeSize is a runtime installed apart from the app.
type runtimeSize struct {
	name  string
	bytes int64
}

// dotnetSharedFramework is what a framework-dependent ASP.NET Core app
// needs installed: the newest Microsoft.NETCore.App and
// Microsoft.AspNetCore.App that `dotnet --list-runtimes` lists (the ones a
// net10.0 app rolls forward to) and the dotnet host (the dotnet executable
// and host/fxr).
func dotnetSharedFramework(ctx context.Context) (runtimeSize, error) {
	out, err := exec.CommandContext(ctx, "dotnet", "--list-runtimes").Output()
	if err != nil {
		return runtimeSize{}, fmt.Errorf("dotnet --list-runtimes: %w", err)
	}
	newest := map[string][2]string{} // name -> version, directory
	for _, line := range strings.Split(string(out), "\n") {
		// Microsoft.AspNetCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.AspNetCore.App]
		f := strings.Fields(line)
		if len(f) != 3 || !strings.HasPrefix(f[2], "[") {
			continue
		}
		if cur, ok := newest[f[0]]; !ok || versionLess(cur[0], f[1]) {
			newest[f[0]] = [2]string{f[1], filepath.Join(strings.Trim(f[2], "[]"), f[1])}
		}
	}
	var rt runtimeSize
	var names []string
	for _, name := range []string{"Microsoft.NETCore.App", "Microsoft.AspNetCore.App"} {
		fw, ok := newest[name]
		if !ok {
			return rt, fmt.Errorf("dotnet --list-runtimes lists no %s", name)
		}
		n, _, err := dirSize(fw[1])
		if err != nil {
			return rt, err
		}
		rt.bytes += n
		names = append(names, name+" "+fw[0])
		if name == "Microsoft.NETCore.App" {
			// <root>/shared/Microsoft.NETCore.App/<version>: the host is
			// <root>/dotnet and <root>/host.
			root := filepath.Dir(filepath.Dir(filepath.Dir(fw[1])))
			if st, err := os.Stat(filepath.Join(root, "dotnet")); err == nil {
				rt.bytes += st.Size()
			}
			if n, _, err := dirSize(filepath.Join(root, "host")); err == nil {
				rt.bytes += n
			}
		}
	}
	rt.name = "shared framework (" + strings.Join(names, " + ") + ", dotnet host)"
	return rt, nil
}

// nodeRuntime is the node executable the Node apps run on.
func nodeRuntime(ctx context.Context) (runtimeSize, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		return runtimeSize{}, err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	st, err := os.Stat(path)
	if err != nil {
		return runtimeSize{}, err
	}
	return runtimeSize{name: "node " + ToolVersion(ctx, "node", "--version") + " executable", bytes: st.Size()}, nil
}

// versionLess compares dotted numeric versions (10.0.9 < 10.0.12).
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx != nil || erry != nil {
			if as[i] != bs[i] {
				return as[i] < bs[i]
			}
			continue
		}
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

// dirSize returns the bytes and number of the regular files under dir,
// leaving out files whose names end in one of skip.
func dirSize(dir string, skip ...string) (int64, int, error) {
	var n int64
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || slices.ContainsFunc(skip, func(ext string) bool { return strings.HasSuffix(path, ext) }) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += info.Size()
		files++
		return nil
	})
	return n, files, err
}
