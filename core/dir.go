// Directories on disk.
//
// os.DirFS follows symbolic links wherever they point, so a link inside a
// served directory to a file or directory outside it would be served. Dir
// opens every name with os.OpenInRoot, which resolves the name one
// component at a time inside the directory and refuses a link (or "..")
// that leads out of it, atomically: a link swapped by someone who can write
// into the directory between a check and the open cannot escape either.
// (It replaces a check of our own, filepath.EvalSymlinks on the root and
// the name, then a prefix comparison and an open, which left that race
// open.) A refused name is reported as fs.ErrNotExist. HandleDir applies
// Dir to an os.DirFS root by itself.

package core

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
)

// Dir returns a file system for the directory dir that serves nothing
// outside it: a name whose path, symbolic links resolved, leaves dir is
// refused as if it did not exist. Links that stay inside dir are followed.
// HandleDir uses it for os.DirFS roots; pass Dir(dir) to use it elsewhere.
func Dir(dir string) fs.FS { return safeDir(dir) }

// safeDir is Dir's file system.
type safeDir string

// Open opens name inside the root, never outside it.
func (d safeDir) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.OpenInRoot(string(d), name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			// os.Root's error for a path that escapes is unexported; to
			// the client such a name does not exist.
			err = fs.ErrNotExist
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
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
