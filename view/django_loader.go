// A pongo2 template loader over fs.FS.
//
// pongo2's own FSLoader resolves names relative to the including template's
// directory with filepath (backslashes on Windows, which fs.FS rejects). This
// loader follows Django: {% extends "layout.html" %} and {% include %} name
// templates relative to the root, and only names starting with "./" or "../"
// are relative to the including template. Names that would leave the root are
// refused by Get.

package view

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
)

// fsLoader implements pongo2.TemplateLoader over an fs.FS.
type fsLoader struct {
	fsys fs.FS
}

// Abs resolves name, found in the template base, to a path in the FS.
func (l fsLoader) Abs(base, name string) string {
	if strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") {
		return path.Join(path.Dir(base), name)
	}
	return path.Clean(name)
}

// Get reads the template at name.
func (l fsLoader) Get(name string) (io.Reader, error) {
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("view: django: invalid template path %q (names are relative to the root and stay inside it)", name)
	}
	src, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(src), nil
}
