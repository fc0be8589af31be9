// Error answers in the OpenAPI document.
//
// This file is the one place where the document says what an error answer
// looks like, and it follows what the default error page writes
// (problem.go): an RFC 9457 Problem Details document,
// application/problem+json, for a client that prefers JSON, with the
// invalid fields of a ValidationError under "errors" by their JSON names,
// and "Status Text: detail" as text/plain for the others. An application
// whose own error handlers (OnError, OnErrorCode) write another format
// documents it with Returns on its routes.

package core

import (
	"github.com/vireo-go/vireo/openapi"
)

// problemDetailsName is the component of a Problem Details document.
const problemDetailsName = "ProblemDetails"

// errorSchemas are the components the error answers refer to.
func errorSchemas() map[string]*openapi.Schema {
	str := func(format, desc string) *openapi.Schema {
		return &openapi.Schema{Types: []string{"string"}, Format: format, Description: desc}
	}
	return map[string]*openapi.Schema{
		problemDetailsName: {
			Types:       []string{"object"},
			Description: "An error, as RFC 9457 Problem Details.",
			Properties: map[string]*openapi.Schema{
				"type":      str("uri-reference", "A URI reference that identifies the problem type."),
				"title":     str("", "The status text."),
				"status":    {Types: []string{"integer"}, Description: "The HTTP status code."},
				"detail":    str("", "What went wrong with this request."),
				"instance":  str("uri-reference", "The path of the request."),
				"requestId": str("", "The request's ID, to find it in the server's log."),
				"errors": {
					Types:                []string{"object"},
					Description:          "The invalid fields of the request, by JSON name, and why.",
					AdditionalProperties: &openapi.Schema{Types: []string{"string"}},
				},
			},
			Required: []string{"type", "title", "status", "requestId"},
		},
	}
}

// errorContent is the content of an error answer: Problem Details for a
// client that prefers JSON, text otherwise.
func errorContent(int) map[string]*openapi.MediaType {
	return map[string]*openapi.MediaType{
		ProblemJSON:  {Schema: &openapi.Schema{Ref: "#/components/schemas/" + problemDetailsName}},
		"text/plain": {Schema: &openapi.Schema{Types: []string{"string"}, Description: "Status Text, or Status Text: detail."}},
	}
}
