// Routes from method names.
//
// A method name is split into words at upper-case letters, a run of
// capitals being one word unless its last letter starts a lower-case word
// ("GetAPIKeys" is Get, API, Keys; "GetUserID" is Get, User, ID) and
// digits staying with the word before them. The first word must be an HTTP
// method (or Any) or the method is not a route. The words up to the first
// By are path segments, lower-cased. Each By stands for the next path
// parameter of the method, and the words after it, up to the next By or
// the end of the name, are that parameter's name, in lowerCamelCase (as
// an ASP.NET Core route template names it; not path segments, as Iris
// made them); ByWildcard makes the parameter the rest of the path:
//
//	Get                          GET /
//	GetByID(id int)              GET /{id:int}
//	GetProfileByName(n string)   GET /profile/{name}
//	PostLogin                    POST /login
//	GetUserFollowersByUserID(id int64) GET /user/followers/{userID:int64}
//	GetByIDByPostID(a, b int)    GET /{id:int}/{postID:int}
//	GetFilesByWildcard(p string) GET /files/{path...}
//	GetBy(id int)                GET /{param1:int}
//	AnyPing                      every method of core.AnyMethods, /ping
//
// A bare By takes its name from the parameter's type when the type is a
// named one of the program's (type ISBN string: {isbn}), else it is
// param1, param2... in route order; a wildcard is path. A name the group's
// prefix or an earlier parameter already uses gets a number (id2). Static
// segments after a parameter (/{id}/toggle) are declared with
// BeforeRegister's Handle. The routine here only turns a name into words
// and segments; controller.go matches the By segments with the method's
// parameters and names them.

package mvc

import (
	"net/http"
	"strings"
	"unicode"
)

// methodAny is the first word of methods registered for every HTTP method.
const methodAny = "ANY"

// httpMethodWords maps a method name's first word to an HTTP method.
var httpMethodWords = map[string]string{
	"Get":     http.MethodGet,
	"Post":    http.MethodPost,
	"Put":     http.MethodPut,
	"Patch":   http.MethodPatch,
	"Delete":  http.MethodDelete,
	"Head":    http.MethodHead,
	"Options": http.MethodOptions,
	"Connect": http.MethodConnect,
	"Trace":   http.MethodTrace,
	"Any":     methodAny,
}

// segmentKind says what a segment of a name-derived route is.
type segmentKind uint8

const (
	segStatic   segmentKind = iota // a lower-cased word
	segParam                       // By: one path parameter
	segWildcard                    // ByWildcard: the rest of the path
)

type segment struct {
	kind segmentKind
	text string // segStatic: the path segment; segParam, segWildcard: the parameter's name, or ""
}

// parseMethodName returns the HTTP method (or methodAny) and the path
// segments a method name stands for; ok is false when the name does not
// begin with an HTTP method word and so is not a route.
func parseMethodName(name string) (method string, segs []segment, ok bool) {
	words := splitWords(name)
	if len(words) == 0 {
		return "", nil, false
	}
	method, ok = httpMethodWords[words[0]]
	if !ok {
		return "", nil, false
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w != "By" {
			if len(segs) > 0 && segs[len(segs)-1].kind != segStatic {
				// a word after a By: part of its parameter's name
				last := &segs[len(segs)-1]
				if last.text == "" {
					last.text = strings.ToLower(w)
				} else {
					last.text += w
				}
				continue
			}
			segs = append(segs, segment{kind: segStatic, text: strings.ToLower(w)})
			continue
		}
		if i+1 < len(words) && words[i+1] == "Wildcard" {
			segs = append(segs, segment{kind: segWildcard})
			i++
			continue
		}
		segs = append(segs, segment{kind: segParam})
	}
	return method, segs, true
}

// splitWords splits an identifier at its upper-case letters; see the file
// comment for acronyms and digits.
func splitWords(name string) []string {
	var words []string
	runes := []rune(name)
	start := 0
	for i := 1; i < len(runes); i++ {
		cur, prev := runes[i], runes[i-1]
		if !unicode.IsUpper(cur) {
			continue
		}
		// A capital begins a word after a lower-case letter or digit, or
		// when it is the last capital of an acronym followed by lower case.
		nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
		if !unicode.IsUpper(prev) || nextLower {
			words = append(words, string(runes[start:i]))
			start = i
		}
	}
	if start < len(runes) {
		words = append(words, string(runes[start:]))
	}
	return words
}
