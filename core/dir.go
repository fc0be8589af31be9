// Directories on disk.
//
// os.DirFS follows symbolic links wherever they point, so a link inside a
// served directory to a file or directory outside it would be served. Dir
// resolves every name it opens with filepath.EvalSymlinks and refuses, as
// fs.ErrNotExist, a name whose resolved path is not inside the resolved
// root; it then opens the resolved path. (A link swapped between the check
// and the open by someone who can write into the directory is not covered;
// os.Root, Go 1.24, closes that race, and the module still builds with Go
// 1.23.) HandleDir applies it to an os.DirFS root by itself.

package core

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Dir returns a file system for the directory dir that serves nothing
// outside it: a name whose path, symbolic links resolved, leaves dir is
// refused as if it did not exist. Links that stay inside dir are followed.
// HandleDir uses it for os.DirFS roots; pass Dir(dir) to use it elsewhere.
func Dir(dir string) fs.FS { return safeDir(dir) }

// safeDir is Dir's file system.
type safeDir string

// Open opens name if its resolved path lies inside the resolved root.
func (d safeDir) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := filepath.EvalSymlinks(string(d))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if !within(root, real) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.Open(real)
}

// within reports whether path is root or below it; both are resolved.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// confine returns fsys, or Dir of its directory when fsys is an os.DirFS,
// recognised by its type: the os package's unexported dirFS, a string
// holding the directory.
func confine(fsys fs.FS) fs.FS {
	t := reflect.TypeOf(fsys)
	if t.PkgPath() == "os" && t.Name() == "dirFS" && t.Kind() == reflect.String {
		return Dir(reflect.ValueOf(fsys).String())
	}
	return fsys
}
