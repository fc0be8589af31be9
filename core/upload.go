// Uploads: multipart/form-data bodies with limits.
//
// MultipartForm parses the body once per request with net/http's
// ParseMultipartForm, reading it through the upload gate (partgate.go),
// which checks the limits (WithUploadLimits, UploadLimits) while the body
// is parsed, so a form is refused at the first byte past one of them:
//
//   - the total size is the body limit (WithBodyLimit, or a route's
//     BodyLimit): the body reader stops at it, so nothing past it is read
//     or stored;
//   - memory: file parts past UploadLimits.Memory bytes go to temporary
//     files in os.TempDir (net/http's own, named by it, never by the
//     client);
//   - file size: a file is refused at its UploadLimits.FileSize+1st byte;
//   - parts: a form is refused at its UploadLimits.Parts+1st part (files
//     and values), once that part's headers are read; a part's headers
//     may take 16 KiB.
//
// Every limit answers 413 through the error model, a body that is not
// multipart 415, a malformed one 400. The temporary files are removed when
// the request ends, whatever the handler did with them. SaveFile copies an
// uploaded file to a path the server chooses: the client's file name is
// only ever data (see FileHeader.Filename), never part of a path. FormValue,
// PostValue and ReadForm parse a multipart body the same way.

package core

import (
	"errors"
	"fmt"
	"io"
	"mime"
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
	r := c.request
	if r.MultipartForm != nil {
		return r.MultipartForm, nil
	}
	c.limitBody()
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	boundary := params["boundary"]
	if mt != "multipart/form-data" || boundary == "" || r.Body == nil || r.Body == http.NoBody {
		return nil, NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("request body must be multipart/form-data, got %q", r.Header.Get("Content-Type")))
	}
	lim := c.app.uploads
	fileSize := lim.FileSize
	if fileSize <= 0 {
		fileSize = c.bodyLimit
	}
	body := r.Body
	gate := newPartGate(body, boundary, fileSize, lim.Parts)
	r.Body = io.NopCloser(gate) // what net/http's parser reads, for this call only
	err := r.ParseMultipartForm(lim.Memory)
	r.Body = body
	if gate.err != nil {
		err = gate.err // the limit's error, or the client body's, as the gate saw it
	}
	if err != nil {
		closeAfterRefusal(c.writer.w) // the rest of the body is not read
		if c.body != nil && c.body.err == nil {
			c.body.err = err // nor read by anyone else
		}
	}
	var he *HTTPError
	switch {
	case err == nil:
		return r.MultipartForm, nil
	case errors.As(err, &he):
		return nil, he
	case errors.Is(err, multipart.ErrMessageTooLarge):
		return nil, NewHTTPError(http.StatusRequestEntityTooLarge, "multipart form with too many parts or headers")
	default:
		return nil, bodyError(err, "malformed multipart form")
	}
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
	if f := c.request.MultipartForm; f != nil {
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
