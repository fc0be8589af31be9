// Uploads: multipart/form-data bodies with limits.
//
// MultipartForm parses the body once per request with net/http's
// ParseMultipartForm, under four limits (WithUploadLimits, UploadLimits):
//
//   - the total size is the body limit (WithBodyLimit, or a route's
//     BodyLimit): the body reader stops at it, so nothing past it is read
//     or stored;
//   - memory: file parts past UploadLimits.Memory bytes go to temporary
//     files in os.TempDir (net/http's own, named by it, never by the
//     client);
//   - file size: a file larger than UploadLimits.FileSize fails the form;
//   - parts: a form with more than UploadLimits.Parts parts (files and
//     values) fails; net/http stops any form at 1000 parts as it parses.
//
// Every limit answers 413 through the error model, a body that is not
// multipart 415, a malformed one 400. The temporary files are removed when
// the request ends, whatever the handler did with them. SaveFile copies an
// uploaded file to a path the server chooses: the client's file name is
// only ever data (see FileHeader.Filename), never part of a path.

package core

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
)

// UploadLimits bounds what MultipartForm accepts; see WithUploadLimits.
type UploadLimits struct {
	Memory   int64 // bytes of file parts held in memory before temporary files (default 8 MiB)
	FileSize int64 // the largest file (default: the body limit)
	Parts    int   // the most parts, files and values together (default 100)
}

// Default upload limits; the total is the body limit.
const (
	DefaultUploadMemory = 8 << 20
	DefaultUploadParts  = 100
)

// WithUploadLimits sets the limits of multipart forms. Zero fields keep
// their defaults; a negative one is a registration error.
func WithUploadLimits(l UploadLimits) Option {
	return func(app *Application) {
		if l.Memory < 0 || l.FileSize < 0 || l.Parts < 0 {
			app.recordError("", "", fmt.Errorf("WithUploadLimits: negative limit in %+v", l))
			return
		}
		if l.Memory > 0 {
			app.uploads.Memory = l.Memory
		}
		if l.FileSize > 0 {
			app.uploads.FileSize = l.FileSize
		}
		if l.Parts > 0 {
			app.uploads.Parts = l.Parts
		}
	}
}

func (c *state) multipartForm() (*multipart.Form, error) {
	r := c.req()
	if r.MultipartForm != nil {
		return r.MultipartForm, nil
	}
	c.limitBody()
	lim := c.app.uploads
	err := r.ParseMultipartForm(lim.Memory)
	switch {
	case errors.Is(err, http.ErrNotMultipart), errors.Is(err, http.ErrMissingBoundary):
		return nil, NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be multipart/form-data, got %q", r.Header.Get("Content-Type")))
	case errors.Is(err, multipart.ErrMessageTooLarge):
		return nil, NewHTTPError(http.StatusRequestEntityTooLarge, "multipart form with too many parts or headers")
	case err != nil:
		return nil, bodyError(err, "malformed multipart form")
	}
	form := r.MultipartForm
	parts := 0
	for _, v := range form.Value {
		parts += len(v)
	}
	fileSize := lim.FileSize
	if fileSize <= 0 {
		fileSize = c.bodyLimit
	}
	for _, fhs := range form.File {
		parts += len(fhs)
		for _, fh := range fhs {
			if fileSize > 0 && fh.Size > fileSize {
				return nil, NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("uploaded file larger than %d bytes", fileSize))
			}
		}
	}
	if parts > lim.Parts {
		return nil, NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("multipart form with more than %d parts", lim.Parts))
	}
	return form, nil
}

func (c *state) formFile(name string) (*multipart.FileHeader, error) {
	form, err := c.multipartForm()
	if err != nil {
		return nil, err
	}
	if fhs := form.File[name]; len(fhs) > 0 {
		return fhs[0], nil
	}
	return nil, NewHTTPError(http.StatusBadRequest, fmt.Sprintf("no file in the form field %q", name))
}

// removeUploads removes the temporary files of the request's form.
func (c *state) removeUploads() {
	if f := c.req().MultipartForm; f != nil {
		_ = f.RemoveAll()
	}
}

// SaveFile copies the uploaded file fh to dst, creating or truncating it
// (mode 0644). dst is a path the server chooses; never build it from
// fh.Filename, which the client wrote.
func SaveFile(fh *multipart.FileHeader, dst string) error {
	src, err := fh.Open()
	if err != nil {
		return err
	}
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// MultipartForm parses a multipart/form-data body under the upload limits
// (see WithUploadLimits) and returns it; later calls return the same form.
// Its temporary files are removed when the request ends. Errors are
// HTTPErrors: 413 past a limit, 415 for a body that is not multipart, 400
// for a malformed one.
func (c Context) MultipartForm() (*multipart.Form, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) (*multipart.Form, error) {
		return s.multipartForm()
	})
}

// FormFile returns the first file of the multipart form field name, parsing
// the form as MultipartForm does; a missing file is a 400.
func (c Context) FormFile(name string) (*multipart.FileHeader, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) (*multipart.FileHeader, error) {
		return s.formFile(name)
	})
}
