// Template files and the snapshot cache shared by the engines.
//
// listFiles walks an fs.FS and stamps every template file with its size and
// modification time. A parsed template set is stored together with the stamps
// taken before its files were read, in a snapshot behind an atomic pointer:
// renders load the pointer without any lock. In Reload mode a render stamps
// the files again and compares; only when something changed does it take the
// rebuild mutex, stamp once more (another render may have rebuilt meanwhile)
// and parse a fresh set. Renders that saw no change never wait.

package view

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fileStamp identifies the version of one template file.
type fileStamp struct {
	name string
	size int64
	mod  time.Time
}

// listFiles returns the stamps of the files under the root of fsys whose name
// ends with ext, in lexical order. Entries whose name starts with a dot are
// skipped, and so are directories with such a name.
func listFiles(fsys fs.FS, ext string) ([]fileStamp, error) {
	var files []fileStamp
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ext) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			// Stamp the target, whose changes are the ones that matter.
			if info, err = fs.Stat(fsys, name); err != nil {
				return err
			}
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		files = append(files, fileStamp{name: name, size: info.Size(), mod: info.ModTime()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("view: list templates: %w", err)
	}
	return files, nil
}

// sameFiles reports whether two listings describe the same file versions.
func sameFiles(a, b []fileStamp) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || a[i].size != b[i].size || !a[i].mod.Equal(b[i].mod) {
			return false
		}
	}
	return true
}

// normalizeExt turns "html" into ".html" and leaves "" (every file) alone.
func normalizeExt(ext string) string {
	if ext != "" && !strings.HasPrefix(ext, ".") {
		return "." + ext
	}
	return ext
}

// snapshot is one parsed template set and the file versions it was built
// from. It is never modified once stored.
type snapshot[T any] struct {
	files []fileStamp
	set   T
	err   error // a failed rebuild in Reload mode, returned until files change
}

// builder parses a fresh template set from the listed files. Engines
// implement it, so passing one around allocates nothing.
type builder[T any] interface {
	build(files []fileStamp) (T, error)
}

// snapshots holds the current snapshot of an engine and rebuilds it.
type snapshots[T any] struct {
	cur atomic.Pointer[snapshot[T]]
	mu  sync.Mutex // serializes rebuilds only, never plain renders
}

// load parses a fresh set and makes it current. Unless force is set, a
// current snapshot built without error from the same file versions is kept
// as it is. A failed parse leaves the previous snapshot, if any, in place.
func (s *snapshots[T]) load(fsys fs.FS, ext string, b builder[T], force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	files, err := listFiles(fsys, ext)
	if err != nil {
		return err
	}
	if cur := s.cur.Load(); !force && cur != nil && cur.err == nil && sameFiles(files, cur.files) {
		return nil
	}
	set, err := b.build(files)
	if err != nil {
		return err
	}
	s.cur.Store(&snapshot[T]{files: files, set: set})
	return nil
}

// get returns the current set. With reload it first checks the files and
// rebuilds the set when they changed.
func (s *snapshots[T]) get(reload bool, fsys fs.FS, ext string, b builder[T]) (T, error) {
	snap := s.cur.Load()
	if snap == nil {
		var zero T
		return zero, errNotLoaded
	}
	if !reload {
		return snap.set, snap.err
	}
	files, err := listFiles(fsys, ext)
	if err != nil {
		var zero T
		return zero, err
	}
	if sameFiles(files, snap.files) {
		return snap.set, snap.err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// Stamp again under the lock: a render that stamped earlier must not
	// install an older listing over a rebuild that happened meanwhile.
	if files, err = listFiles(fsys, ext); err != nil {
		var zero T
		return zero, err
	}
	if snap = s.cur.Load(); sameFiles(files, snap.files) {
		return snap.set, snap.err
	}
	set, err := b.build(files)
	s.cur.Store(&snapshot[T]{files: files, set: set, err: err})
	return set, err
}
