// The RealWorld error format, written by the application's error handler.
//
// Every error answer of the API is {"errors": {"body": ["..."]}}: the
// framework's own (router 404/405, a malformed body, BearerAuth's 401) and
// the handlers' alike, because all of them end in app.OnError. A
// *vireo.ValidationError, from the validate tags or from a handler (a
// taken username), becomes 422 with one "field message" line per field,
// sorted, the field named without its wrapper ("email", not
// "user.email"); any other error keeps its status and shows
// ctx.ErrorMessage, which never holds an internal cause.

package main

import (
	"errors"
	"net/http"
	"sort"
	"strings"

	"github.com/vireo-go/vireo"
)

// ErrorBody is the body of every error answer.
type ErrorBody struct {
	Errors ErrorList `json:"errors"`
}

// ErrorList holds the messages of an error answer.
type ErrorList struct {
	Body []string `json:"body"`
}

// writeError is the application's error handler.
func writeError(ctx vireo.Context, err error) {
	var ve *vireo.ValidationError
	if errors.As(err, &ve) {
		msgs := make([]string, 0, len(ve.Fields))
		for field, msg := range ve.Fields {
			if _, rest, ok := strings.Cut(field, "."); ok {
				field = rest // user.email -> email
			}
			msgs = append(msgs, field+" "+msg)
		}
		sort.Strings(msgs)
		ctx.SetStatus(http.StatusUnprocessableEntity)
		ctx.JSON(ErrorBody{ErrorList{msgs}})
		return
	}
	ctx.SetStatus(vireo.StatusOf(err))
	ctx.JSON(ErrorBody{ErrorList{[]string{ctx.ErrorMessage()}}})
}

// invalid returns the 422 of a field that fails a check of the handler.
func invalid(field, msg string) error {
	return &vireo.ValidationError{Fields: map[string]string{field: msg}}
}

var (
	errNotFound  = func(what string) error { return vireo.NewHTTPError(http.StatusNotFound, what+" not found") }
	errForbidden = func(what string) error {
		return vireo.NewHTTPError(http.StatusForbidden, "you are not the author of this "+what)
	}
)

// documented are the options every route's document gets: the error
// answers in the RealWorld format.
func documented(tag, operationID, summary string, codes ...int) []vireo.RouteOption {
	opts := []vireo.RouteOption{vireo.Tags(tag), vireo.OperationID(operationID), vireo.Summary(summary)}
	for _, c := range codes {
		opts = append(opts, vireo.Returns(c, ErrorBody{}))
	}
	return opts
}
