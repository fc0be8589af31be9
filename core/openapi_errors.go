// Error answers in the OpenAPI document.
//
// This file is the one place where the document says what an error answer
// looks like, and it follows what the default error handler writes
// (errors.go, validate.go): a *ValidationError as application/json
// {"errors": {"field": "reason"}}, with the fields' JSON names, and every
// other error as text/plain "Status Text: reason". When the error model
// changes (Problem Details, issue 21), this file changes with it. An
// application whose own error handlers write another format documents it
// with Returns on its routes.

package core

import (
	"net/http"

	"github.com/vireo-go/vireo/openapi"
)

// validationErrorsName is the component of a ValidationError's body.
const validationErrorsName = "ValidationErrors"

// errorSchemas are the components the error answers refer to.
func errorSchemas() map[string]*openapi.Schema {
	return map[string]*openapi.Schema{
		validationErrorsName: {
			Types:       []string{"object"},
			Description: "The fields of a request that failed validation, by JSON name, and why.",
			Properties: map[string]*openapi.Schema{
				"errors": {Types: []string{"object"}, AdditionalProperties: &openapi.Schema{Types: []string{"string"}}},
			},
			Required: []string{"errors"},
		},
	}
}

// errorContent is the content of an error answer with status code.
func errorContent(code int) map[string]*openapi.MediaType {
	text := &openapi.MediaType{Schema: &openapi.Schema{Types: []string{"string"}, Description: "The status text, and the reason for a client error."}}
	if code == http.StatusBadRequest {
		return map[string]*openapi.MediaType{
			MIMEJSON:     {Schema: &openapi.Schema{Ref: "#/components/schemas/" + validationErrorsName}},
			"text/plain": text,
		}
	}
	return map[string]*openapi.MediaType{"text/plain": text}
}
