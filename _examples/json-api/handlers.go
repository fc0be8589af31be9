// The HTTP handlers of the album API: decode, validate, call the store,
// answer JSON. Every error response is JSON too: validation errors are
// written here with the field that failed, other errors (malformed JSON,
// unknown IDs, wrong methods) go through the JSON error handler of
// errors.go.

package main

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo"
)

// albumInput is the body of POST and PUT. Pointers would tell "missing"
// from "zero"; here zero values are invalid anyway, so plain fields do.
type albumInput struct {
	Title  string `json:"title"`
	Artist string `json:"artist"`
	Year   int    `json:"year"`
}

// validationError is the 400 body for a well-formed request whose content
// is not acceptable: one message per offending field.
type validationError struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields"`
}

// validate returns the problems of in, by JSON field name, or nil.
func (in *albumInput) validate() map[string]string {
	problems := map[string]string{}
	in.Title = strings.TrimSpace(in.Title)
	in.Artist = strings.TrimSpace(in.Artist)
	switch {
	case in.Title == "":
		problems["title"] = "is required"
	case len(in.Title) > 200:
		problems["title"] = "must be at most 200 bytes"
	}
	if in.Artist == "" {
		problems["artist"] = "is required"
	}
	if last := maxYear(); in.Year < 1900 || in.Year > last {
		problems["year"] = "must be between 1900 and " + strconv.Itoa(last)
	}
	if len(problems) == 0 {
		return nil
	}
	return problems
}

// api holds the handlers' dependencies.
type api struct{ albums *store }

func (h *api) list(ctx vireo.Context) {
	ctx.JSON(h.albums.list())
}

func (h *api) get(ctx vireo.Context) {
	id, _ := ctx.Params().Int("id") // {id:int} guarantees an int
	a, ok := h.albums.get(id)
	if !ok {
		ctx.StopWithError(vireo.NewHTTPError(http.StatusNotFound, "album "+strconv.Itoa(id)+" not found"))
		return
	}
	ctx.JSON(a)
}

func (h *api) create(ctx vireo.Context) {
	in, ok := readAlbum(ctx)
	if !ok {
		return
	}
	a := h.albums.create(Album{Title: in.Title, Artist: in.Artist, Year: in.Year})
	ctx.SetResponseHeader("Location", "/albums/"+strconv.Itoa(a.ID))
	ctx.SetStatus(http.StatusCreated)
	ctx.JSON(a)
}

func (h *api) update(ctx vireo.Context) {
	id, _ := ctx.Params().Int("id")
	in, ok := readAlbum(ctx)
	if !ok {
		return
	}
	a, found := h.albums.update(id, Album{Title: in.Title, Artist: in.Artist, Year: in.Year})
	if !found {
		ctx.StopWithError(vireo.NewHTTPError(http.StatusNotFound, "album "+strconv.Itoa(id)+" not found"))
		return
	}
	ctx.JSON(a)
}

func (h *api) delete(ctx vireo.Context) {
	id, _ := ctx.Params().Int("id")
	if !h.albums.remove(id) {
		ctx.StopWithError(vireo.NewHTTPError(http.StatusNotFound, "album "+strconv.Itoa(id)+" not found"))
		return
	}
	ctx.SetStatus(http.StatusNoContent)
}

// readAlbum decodes and validates the body. On failure it has answered
// the request (400 or 413) and returns false.
func readAlbum(ctx vireo.Context) (albumInput, bool) {
	var in albumInput
	if err := ctx.ReadJSON(&in); err != nil {
		// A *vireo.HTTPError with 400 (malformed) or 413 (too large).
		ctx.StopWithError(err)
		return in, false
	}
	if problems := in.validate(); problems != nil {
		ctx.SetStatus(http.StatusBadRequest)
		ctx.JSON(validationError{Error: "validation failed", Fields: problems})
		ctx.Stop()
		return in, false
	}
	return in, true
}

// maxYear is the latest release year accepted: next year, for announced
// albums.
func maxYear() int { return time.Now().Year() + 1 }
