// Static files.
//
// serveFS serves a file of an fs.FS named by a wildcard parameter. The name
// is checked before the file system sees it: encoded slashes, backslashes or
// NUL bytes in the raw path, and any "." or ".." segment in the decoded name,
// are refused with 400. fs.FS itself rejects names that leave its root
// (fs.ValidPath), so the check is belt and braces: nothing outside the root
// is ever opened. Files go through http.ServeContent for ETag,
// Last-Modified, Range and conditional requests.

package core

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
)

var errBadFilePath = NewHTTPError(http.StatusBadRequest, "invalid file path")

// serveFS returns a handler serving files of fsys named by parameter param.
func serveFS(fsys fs.FS, param string) Handler {
	return func(c *Context) {
		name, ok := safeFileName(c, param)
		if !ok {
			c.StopWithError(errBadFilePath)
			return
		}
		serveFSFile(c, fsys, name, true)
	}
}

// safeFileName returns the fs.FS name of the requested file, or false when
// the request tries to leave the root or smuggle separators.
func safeFileName(c *Context, param string) (string, bool) {
	raw := c.request.URL.EscapedPath()
	lower := strings.ToLower(raw)
	if strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") || strings.Contains(lower, "%00") {
		return "", false
	}
	name := c.params.Get(param)
	if strings.ContainsAny(name, "\\\x00") {
		return "", false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "." || seg == ".." {
			return "", false
		}
	}
	name = strings.TrimSuffix(name, "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		return "", false
	}
	return name, true
}

// serveFSFile serves name from fsys; directories serve their index.html.
func serveFSFile(c *Context, fsys fs.FS, name string, allowIndex bool) {
	f, err := fsys.Open(name)
	if err != nil {
		c.StopWithError(fsError(err))
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		c.StopWithError(fsError(err))
		return
	}
	if info.IsDir() {
		if !allowIndex {
			c.StopWithStatus(http.StatusNotFound)
			return
		}
		if p := c.request.URL.Path; !strings.HasSuffix(p, "/") {
			c.app.redirect(c, escapePath(p+"/"))
			return
		}
		index := "index.html"
		if name != "." {
			index = name + "/index.html"
		}
		serveFSFile(c, fsys, index, false)
		return
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			c.StopWithError(err)
			return
		}
		content = bytes.NewReader(b)
	}
	w := c.out
	if w.Header().Get("Etag") == "" {
		w.Header().Set("Etag", fmt.Sprintf(`W/"%x-%x"`, info.ModTime().UnixNano(), info.Size()))
	}
	http.ServeContent(w, c.request, info.Name(), info.ModTime(), content)
}

func fsError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return NewHTTPError(http.StatusNotFound, "")
	case errors.Is(err, fs.ErrPermission):
		return NewHTTPError(http.StatusForbidden, "")
	}
	return err
}

// ServeFile serves the named file from the local file system through
// http.ServeFile. name is trusted: never build it from request input; use
// HandleDir for that.
func (c *Context) ServeFile(name string) {
	c.check()
	http.ServeFile(c.out, c.request, name)
}
