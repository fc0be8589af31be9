// Routes from method names.
//
// A method name is split into words at upper-case letters, a run of
// capitals being one word unless its last letter starts a lower-case word
// ("GetAPIKeys" is Get, API, Keys; "GetUserID" is Get, User, ID) and
// digits staying with the word before them. The first word must be an HTTP
// method (or Any) or the method is not a route. Every other word is a path
// segment, lower-cased, except By, which stands for the next path parameter
// of the method, and Wildcard right after By, which makes that parameter
// the rest of the path:
//
//	Get                      GET /
//	GetBy(id int)            GET /{param1:int}
//	GetProfileBy(n string)   GET /profile/{param1}
//	PostLogin                POST /login
//	GetUserFollowersBy(int64) GET /user/followers/{param1:int64}
//	GetUserByPostsBy(a, b int) GET /user/{param1:int}/posts/{param2:int}
//	GetByWildcard(p string)  GET /{param1:path}
//	AnyPing                  every method of core.AnyMethods, /ping
//
// The names of generated parameters are param1, param2... in route order,
// skipping names the group's prefix already uses. The routine here only
// turns a name into words and segments; controller.go matches the By
// segments with the method's parameters.

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
	text string // segStatic: the path segment
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
		switch {
		case w == "By" && i+1 < len(words) && words[i+1] == "Wildcard":
			segs = append(segs, segment{kind: segWildcard})
			i++
		case w == "By":
			segs = append(segs, segment{kind: segParam})
		default:
			segs = append(segs, segment{kind: segStatic, text: strings.ToLower(w)})
		}
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
