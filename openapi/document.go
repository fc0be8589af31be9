// The OpenAPI 3.1 document model.
//
// These types are the parts of an OpenAPI 3.1 document that a generator
// fills from routes: paths with operations, parameters, request bodies,
// responses and the reusable schemas of components. They marshal with
// encoding/json into the document's JSON form; empty parts are left out,
// except the fields OpenAPI requires (openapi, info, a response's
// description).

package openapi

// Version is the OpenAPI version the documents of this package declare.
const Version = "3.1.0"

// Document is an OpenAPI document.
type Document struct {
	OpenAPI    string               `json:"openapi"`
	Info       Info                 `json:"info"`
	Servers    []Server             `json:"servers,omitempty"`
	Paths      map[string]*PathItem `json:"paths"`
	Components *Components          `json:"components,omitempty"`
	Tags       []Tag                `json:"tags,omitempty"`
}

// Info describes the API.
type Info struct {
	Title       string   `json:"title"`
	Version     string   `json:"version"`
	Summary     string   `json:"summary,omitempty"`
	Description string   `json:"description,omitempty"`
	License     *License `json:"license,omitempty"`
}

// License is the API's license: a name and an SPDX identifier or a URL.
type License struct {
	Name       string `json:"name"`
	Identifier string `json:"identifier,omitempty"`
	URL        string `json:"url,omitempty"`
}

// Server is a base URL of the API.
type Server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Tag groups operations.
type Tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// PathItem holds the operations of one path, by method.
type PathItem struct {
	Get     *Operation `json:"get,omitempty"`
	Put     *Operation `json:"put,omitempty"`
	Post    *Operation `json:"post,omitempty"`
	Delete  *Operation `json:"delete,omitempty"`
	Options *Operation `json:"options,omitempty"`
	Head    *Operation `json:"head,omitempty"`
	Patch   *Operation `json:"patch,omitempty"`
	Trace   *Operation `json:"trace,omitempty"`
}

// Operation returns the address of the operation slot of method in the
// path item, or nil for a method OpenAPI cannot express (CONNECT, or one
// that is not standard).
func (p *PathItem) Operation(method string) **Operation {
	switch method {
	case "GET":
		return &p.Get
	case "PUT":
		return &p.Put
	case "POST":
		return &p.Post
	case "DELETE":
		return &p.Delete
	case "OPTIONS":
		return &p.Options
	case "HEAD":
		return &p.Head
	case "PATCH":
		return &p.Patch
	case "TRACE":
		return &p.Trace
	}
	return nil
}

// Operation is one method on one path.
type Operation struct {
	Tags        []string             `json:"tags,omitempty"`
	Summary     string               `json:"summary,omitempty"`
	Description string               `json:"description,omitempty"`
	OperationID string               `json:"operationId,omitempty"`
	Parameters  []*Parameter         `json:"parameters,omitempty"`
	RequestBody *RequestBody         `json:"requestBody,omitempty"`
	Responses   map[string]*Response `json:"responses"`
	Deprecated  bool                 `json:"deprecated,omitempty"`
}

// Parameter is a path, query, header or cookie parameter.
type Parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"` // path, query, header or cookie
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Explode     *bool   `json:"explode,omitempty"`
	Schema      *Schema `json:"schema"`
}

// RequestBody is the body an operation accepts, by media type.
type RequestBody struct {
	Description string                `json:"description,omitempty"`
	Required    bool                  `json:"required,omitempty"`
	Content     map[string]*MediaType `json:"content"`
}

// MediaType is the schema of a body in one media type.
type MediaType struct {
	Schema *Schema `json:"schema,omitempty"`
}

// Response is one answer of an operation; Content is empty for a response
// without a body.
type Response struct {
	Description string                `json:"description"`
	Content     map[string]*MediaType `json:"content,omitempty"`
}

// Components holds the reusable schemas, by name.
type Components struct {
	Schemas map[string]*Schema `json:"schemas,omitempty"`
}
