// Pattern parsing.
//
// A route pattern is split once, at registration, into tokens: runs of static
// text (slashes included) and parameters, each parameter a whole path segment.
// The tree inserts these tokens; nothing of the pattern is parsed again at
// request time. The grammar is documented in doc.go.

package core

import (
	"fmt"
	"strconv"
	"strings"
)

// paramType is the type constraint of a typed parameter such as {id:int}.
// The declaration order is the order in which typed siblings are tried at
// one position of the tree, most specific first.
type paramType uint8

const (
	typeString paramType = iota // {name} or {name:string}: any non-empty segment
	typeBool                    // {b:bool}: true or false
	typeInt                     // {id:int}: a decimal that fits an int
	typeUint                    // {id:uint}: a non-negative decimal that fits a uint
	typeInt64                   // {id:int64}
	typeUint64                  // {id:uint64}
	typeUUID                    // {u:uuid}: 8-4-4-4-12 hexadecimal digits
	typeAlpha                   // {a:alpha}: ASCII letters only
	typePath                    // {rest:path} or {rest...}: the rest of the path, slashes included
)

var paramTypeNames = map[string]paramType{
	string(ParamString): typeString,
	string(ParamBool):   typeBool,
	string(ParamInt):    typeInt,
	string(ParamUint):   typeUint,
	string(ParamInt64):  typeInt64,
	string(ParamUint64): typeUint64,
	string(ParamUUID):   typeUUID,
	string(ParamAlpha):  typeAlpha,
	string(ParamPath):   typePath,
}

// ParamType is the type of a route parameter: the word after the colon in
// {name:type}. A parameter written {name} is a ParamString, {name...} a
// ParamPath. Layers above the router (mvc) read a route's parameters
// through Route.Params and Router.Params and write patterns with these
// words, so the pattern grammar has one definition, here.
type ParamType string

// The parameter types of the pattern grammar.
const (
	ParamString ParamType = "string" // any non-empty segment
	ParamBool   ParamType = "bool"   // true or false
	ParamInt    ParamType = "int"    // a decimal that fits an int
	ParamUint   ParamType = "uint"   // a non-negative decimal that fits a uint
	ParamInt64  ParamType = "int64"  // a decimal that fits an int64
	ParamUint64 ParamType = "uint64" // a non-negative decimal that fits a uint64
	ParamUUID   ParamType = "uuid"   // 8-4-4-4-12 hexadecimal digits
	ParamAlpha  ParamType = "alpha"  // ASCII letters only
	ParamPath   ParamType = "path"   // the rest of the path, slashes included
)

// RouteParam is one parameter of a route pattern.
type RouteParam struct {
	Name string
	Type ParamType
}

// patternParams returns the parameters of parsed tokens, in order.
func patternParams(tokens []token) []RouteParam {
	var ps []RouteParam
	for _, tk := range tokens {
		if tk.param {
			ps = append(ps, RouteParam{Name: tk.name, Type: ParamType(tk.typ.String())})
		}
	}
	return ps
}

func (t paramType) String() string {
	for name, v := range paramTypeNames {
		if v == t {
			return name
		}
	}
	return "unknown"
}

// match reports whether a segment value satisfies the type. It is called on
// the raw segment; typed values never contain escapes worth decoding.
func (t paramType) match(s string) bool {
	switch t {
	case typeString, typePath:
		return true
	case typeBool:
		return s == "true" || s == "false"
	case typeInt:
		return shortDecimal(s, true, strconv.IntSize) || parsesInt(s, strconv.IntSize)
	case typeUint:
		return shortDecimal(s, false, strconv.IntSize) || parsesUint(s, strconv.IntSize)
	case typeInt64:
		return shortDecimal(s, true, 64) || parsesInt(s, 64)
	case typeUint64:
		return shortDecimal(s, false, 64) || parsesUint(s, 64)
	case typeUUID:
		return isUUID(s)
	case typeAlpha:
		for i := 0; i < len(s); i++ {
			c := s[i] | 0x20
			if c < 'a' || c > 'z' {
				return false
			}
		}
		return true
	}
	return false
}

// shortDecimal reports whether s is a decimal number short enough to fit
// in bits whatever its digits: an optional sign (when signed), then at most
// 18 digits for 64 bits or 9 for 32. That is nearly every identifier in a
// path, decided in one pass over its bytes; a longer number, or anything
// else, is left to strconv, which has the last word on the range.
func shortDecimal(s string, signed bool, bits int) bool {
	if signed && s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	limit := 18
	if bits < 64 {
		limit = 9
	}
	if s == "" || len(s) > limit {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parsesInt reports whether strconv.ParseInt accepts s in base 10.
func parsesInt(s string, bits int) bool {
	_, err := strconv.ParseInt(s, 10, bits)
	return err == nil
}

// parsesUint reports whether strconv.ParseUint accepts s in base 10 (which
// refuses a sign).
func parsesUint(s string, bits int) bool {
	_, err := strconv.ParseUint(s, 10, bits)
	return err == nil
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f') {
				return false
			}
		}
	}
	return true
}

// token is one piece of a parsed pattern: static text, or a parameter.
type token struct {
	static string // static text, when param is false
	param  bool
	name   string
	typ    paramType
}

// parsePattern splits a pattern into tokens, validating the grammar of
// doc.go: a leading slash, parameters as whole segments with unique names and
// known types, and a wildcard only in the last segment.
func parsePattern(pattern string) ([]token, error) {
	fail := func(format string, args ...any) ([]token, error) {
		return nil, fmt.Errorf(format, args...)
	}
	if pattern == "" || pattern[0] != '/' {
		return fail("must begin with '/'")
	}
	var (
		tokens []token
		static strings.Builder
		seen   = map[string]bool{}
	)
	segments := strings.Split(pattern[1:], "/")
	for i, seg := range segments {
		static.WriteByte('/')
		if seg == "" && i != len(segments)-1 || seg == "." || seg == ".." {
			return fail("empty, '.' or '..' segments never match a cleaned path")
		}
		open := strings.IndexByte(seg, '{')
		if open < 0 {
			if strings.IndexByte(seg, '}') >= 0 {
				return fail("unmatched '}' in segment %q", seg)
			}
			if err := foreignParam(seg); err != nil {
				return nil, err
			}
			if len(seg) > 1 && seg[0] == '\\' && (seg[1] == ':' || seg[1] == '*') {
				seg = seg[1:] // an escaped literal ':' or '*'
			}
			static.WriteString(seg)
			continue
		}
		if open != 0 || seg[len(seg)-1] != '}' {
			if strings.IndexByte(seg[open:], '}') < 0 {
				return fail("unclosed '{' in segment %q", seg)
			}
			return fail("a parameter must be a whole segment, got %q", seg)
		}
		inner := seg[1 : len(seg)-1]
		if strings.ContainsAny(inner, "{}") {
			return fail("a parameter must be a whole segment, got %q", seg)
		}
		name, typ := inner, typeString
		if strings.HasSuffix(inner, "...") {
			name, typ = strings.TrimSuffix(inner, "..."), typePath
		} else if c := strings.IndexByte(inner, ':'); c >= 0 {
			name = inner[:c]
			t, ok := paramTypeNames[inner[c+1:]]
			if !ok {
				return fail("unknown parameter type %q (want string, int, int64, uint, uint64, bool, alpha, uuid or path)", inner[c+1:])
			}
			typ = t
		}
		if !validParamName(name) {
			return fail("invalid parameter name %q", name)
		}
		if seen[name] {
			return fail("parameter %q appears twice", name)
		}
		seen[name] = true
		if typ == typePath && i != len(segments)-1 {
			return fail("wildcard {%s} must be the last segment", name)
		}
		tokens = append(tokens, token{static: static.String()})
		static.Reset()
		tokens = append(tokens, token{param: true, name: name, typ: typ})
	}
	if static.Len() > 0 {
		tokens = append(tokens, token{static: static.String()})
	}
	return tokens, nil
}

// foreignParam refuses a segment written in another router's parameter
// syntax (Gin, Echo, httprouter, Fiber: ":id", "*rest"), which would
// otherwise register as static text and never match, and names the Vireo
// form. A literal leading ':' or '*' is written escaped: "\\:" or "\\*".
func foreignParam(seg string) error {
	if seg == "" || seg[0] != ':' && seg[0] != '*' {
		return nil
	}
	name := seg[1:]
	if !validParamName(name) {
		name = "name"
	}
	if seg[0] == ':' {
		return fmt.Errorf("segment %q is another router's parameter syntax: write {%s} (or \\%s for a literal segment)", seg, name, seg)
	}
	return fmt.Errorf("segment %q is another router's wildcard syntax: write {%s...} (or \\%s for a literal segment)", seg, name, seg)
}

func validParamName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
