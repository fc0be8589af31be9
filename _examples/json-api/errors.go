// The JSON error handler: error statuses set without a body (by
// StopWithError, StopWithStatus or the router's own 404 and 405) get a
// JSON body instead of the default plain text, so API clients always
// parse the same shape: {"error": "Not Found", "message": "..."}.

package main

import (
	"errors"
	"net/http"

	"github.com/vireo-go/vireo"
)

// errorBody is the JSON shape of every error response but validation.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// jsonError writes the current status as an errorBody. The message of a
// *vireo.HTTPError is meant for clients; any other error's text is only
// shown for 4xx statuses, as internal errors may leak details.
func jsonError(ctx vireo.Context) {
	code := ctx.Status()
	body := errorBody{Error: http.StatusText(code)}
	var he *vireo.HTTPError
	if err := ctx.StopError(); errors.As(err, &he) {
		body.Message = he.Message
	} else if err != nil && code < 500 {
		body.Message = err.Error()
	}
	ctx.JSON(body)
}

// jsonErrorCodes are the statuses answered by jsonError.
var jsonErrorCodes = []int{
	http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed,
	http.StatusRequestEntityTooLarge, http.StatusInternalServerError,
}
