// Static files.
//
// serveFS serves a file of an fs.FS named by a wildcard parameter. The name
// is checked before the file system sees it: encoded slashes, backslashes or
// NUL bytes in the raw path, and any "." or ".." segment in the decoded name,
// are refused with 400. fs.FS itself rejects names that leave its root
// (fs.ValidPath), so the check is belt and braces: nothing outside the root
// is ever opened. Files go through http.ServeContent for ETag,
// Last-Modified, Range and conditional requests.
//
// Validators: a file with a modification time gets the weak ETag
// W/"<modtime>-<size>" and Last-Modified. A file without one (embed.FS,
// fstest.MapFS, most archives) gets a strong ETag derived from its content,
// the first 128 bits of its SHA-256, computed when the file is first served
// and cached per HandleDir by name and size, and no Last-Modified: a
// changed file of the same size after a deploy is never answered 304.

package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"sync"
)

var errBadFilePath = NewHTTPError(http.StatusBadRequest, "invalid file path")

// maxRanges is the largest number of ranges a Range request may ask for;
// a request with more gets the whole file.
const maxRanges = 16

// fileServer serves the files of one fs.FS.
type fileServer struct {
	fsys  fs.FS
	etags sync.Map // name -> contentTag, for files without a modification time
}

// contentTag is the cached content ETag of a file of a given size.
type contentTag struct {
	size int64
	etag string
}

// serveFS returns a handler serving files of fsys named by parameter param.
func serveFS(fsys fs.FS, param string) Handler {
	fsrv := &fileServer{fsys: fsys}
	return stateHandler(func(c *state, _ Context) {
		name, ok := safeFileName(c, param)
		if !ok {
			c.stopWithError(errBadFilePath)
			return
		}
		fsrv.serve(c, name, true)
	})
}

// safeFileName returns the fs.FS name of the requested file, or false when
// the request tries to leave the root or smuggle separators.
func safeFileName(c *state, param string) (string, bool) {
	raw := c.req().URL.EscapedPath()
	lower := strings.ToLower(raw)
	if strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") || strings.Contains(lower, "%00") {
		return "", false
	}
	name := c.params.get(param)
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

// serve serves name; directories serve their index.html.
func (fsrv *fileServer) serve(c *state, name string, allowIndex bool) {
	f, err := fsrv.fsys.Open(name)
	if err != nil {
		c.stopWithError(fsError(err))
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		c.stopWithError(fsError(err))
		return
	}
	if !info.IsDir() && allowIndex && strings.HasSuffix(c.req().URL.Path, "/") {
		// "/index.html/" names a directory that does not exist.
		c.stopWithStatus(http.StatusNotFound)
		return
	}
	if info.IsDir() {
		if !allowIndex {
			c.stopWithStatus(http.StatusNotFound)
			return
		}
		if p := c.req().URL.Path; !strings.HasSuffix(p, "/") {
			c.app.redirect(c, escapePath(p+"/"))
			return
		}
		index := "index.html"
		if name != "." {
			index = name + "/index.html"
		}
		fsrv.serve(c, index, false)
		return
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			c.stopWithError(err)
			return
		}
		content = bytes.NewReader(b)
	}
	w := c.out
	if w.Header().Get("Etag") == "" {
		if mt := info.ModTime(); !mt.IsZero() && mt.Unix() != 0 {
			w.Header().Set("Etag", fmt.Sprintf(`W/"%x-%x"`, mt.UnixNano(), info.Size()))
		} else {
			etag, err := fsrv.contentETag(name, info.Size(), content)
			if err != nil {
				c.stopWithError(err)
				return
			}
			w.Header().Set("Etag", etag)
		}
	}
	// A Range header with more than maxRanges ranges is ignored (the whole
	// file is sent), as nginx's max_ranges does: hundreds of one-byte ranges
	// would turn a small request into a large multipart response.
	if rh := c.req().Header.Get("Range"); rh != "" && strings.Count(rh, ",") >= maxRanges {
		c.req().Header.Del("Range")
	}
	// ServeContent sends Last-Modified only for a real time (not zero,
	// not the Unix epoch).
	http.ServeContent(w, c.req(), info.Name(), info.ModTime(), content)
}

// contentETag returns the strong ETag of a file without a modification
// time, hashing content (and seeking it back to the start) the first time
// the file is served at this size.
func (fsrv *fileServer) contentETag(name string, size int64, content io.ReadSeeker) (string, error) {
	if v, ok := fsrv.etags.Load(name); ok {
		if ct := v.(contentTag); ct.size == size {
			return ct.etag, nil
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, content); err != nil {
		return "", err
	}
	if _, err := content.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	var sum [sha256.Size]byte
	etag := `"` + hex.EncodeToString(h.Sum(sum[:0])[:16]) + `"`
	fsrv.etags.Store(name, contentTag{size: size, etag: etag})
	return etag, nil
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

// ServeFile serves the named file from the local file system with
// http.ServeContent (conditional requests, ranges, Content-Type by
// extension). A missing file or a directory is a 404 and an unreadable one
// a 403, both through the application's error pages. name is trusted:
// never build it from request input; use HandleDir for that.
func (c Context) ServeFile(name string) {
	run(c, func(s *state) {
		s.serveFile(name)
	})
}

func (c *state) serveFile(name string) {
	f, err := os.Open(name)
	if err != nil {
		c.stopWithError(fsError(err))
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		c.stopWithError(fsError(err))
		return
	}
	if fi.IsDir() {
		c.stopWithError(NewHTTPError(http.StatusNotFound, ""))
		return
	}
	http.ServeContent(c.out, c.req(), fi.Name(), fi.ModTime(), f)
}
