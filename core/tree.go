// The routing tree.
//
// Each HTTP method has its own tree. Static text is stored in a compressed
// radix tree (a node holds the longest prefix its children share, and its
// children differ in their first byte, indexed by the indices string);
// parameters hang off the node where their segment begins, as three kinds of
// child: typed parameters, one plain parameter and one wildcard.
//
// Lookup walks the request path once, depth first, trying the children of a
// node in priority order:
//
//	static > typed (in paramType order) > plain parameter > wildcard
//
// and backtracking to the next kind when a branch dead-ends. So the most
// specific route wins whatever the registration order, and a lookup never
// allocates: parameter values are substrings of the path appended to a slice
// the pooled Context owns.

package core

import (
	"fmt"
	"strings"
)

// nodeKind says how a node matches the path. The values are in priority
// order; lookup tries children in this order.
type nodeKind uint8

const (
	nodeStatic   nodeKind = iota // matches its prefix byte for byte
	nodeTyped                    // matches a segment accepted by its paramType
	nodeParam                    // matches any non-empty segment
	nodeWildcard                 // matches the rest of the path
)

type node struct {
	// Fields read by every lookup come first, so that a node's hot part
	// shares as few cache lines as possible.
	prefix   string // nodeStatic: the text this node matches
	indices  string // first byte of each static child, parallel to static
	static   []node // static children, stored inline so a lookup touches one array, not a pointer per child
	route    *Route // the route that ends at this node, if any
	param    *node
	wildcard *node
	typed    []*node // typed children, sorted by typ
	branches bool    // typed, param or wildcard children exist

	kind  nodeKind
	typ   paramType // nodeTyped: the constraint
	name  string    // parameter nodes: the parameter's name
	owner string    // parameter nodes: the pattern that declared the parameter
}

// insert adds the route's tokens under n (the root of a method tree) and
// returns an error when the route conflicts with one registered before.
func (n *node) insert(tokens []token, rt *Route) error {
	cur := n
	for _, tk := range tokens {
		if !tk.param {
			cur = cur.insertStatic(tk.static)
			continue
		}
		next, err := cur.insertParam(tk, rt.Pattern)
		if err != nil {
			return err
		}
		cur = next
	}
	if cur.route != nil {
		return fmt.Errorf("conflicts with %s %q registered before", cur.route.Method, cur.route.Pattern)
	}
	cur.route = rt
	return nil
}

// insertStatic walks or creates the static nodes that spell s below n,
// splitting a node whose prefix only partly matches, and returns the node
// where s ends.
func (n *node) insertStatic(s string) *node {
	for s != "" {
		i := strings.IndexByte(n.indices, s[0])
		if i < 0 {
			n.indices += s[:1]
			n.static = append(n.static, node{kind: nodeStatic, prefix: s})
			return &n.static[len(n.static)-1]
		}
		child := &n.static[i]
		l := commonPrefixLen(child.prefix, s)
		if l < len(child.prefix) {
			rest := *child
			rest.prefix = child.prefix[l:]
			*child = node{
				kind:    nodeStatic,
				prefix:  child.prefix[:l],
				indices: rest.prefix[:1],
				static:  []node{rest},
			}
		}
		n, s = child, s[l:]
	}
	return n
}

// insertParam returns the parameter child of n for tk, creating it when
// absent. Two parameters of the same kind at one position must share a name.
func (n *node) insertParam(tk token, pattern string) (*node, error) {
	conflict := func(c *node) error {
		return fmt.Errorf("parameter {%s} conflicts with {%s} of %q at the same position", tk.name, c.name, c.owner)
	}
	switch tk.typ {
	case typePath:
		if n.wildcard == nil {
			n.wildcard = &node{kind: nodeWildcard, name: tk.name, typ: typePath, owner: pattern}
			n.branches = true
		} else if n.wildcard.name != tk.name {
			return nil, conflict(n.wildcard)
		}
		return n.wildcard, nil
	case typeString:
		if n.param == nil {
			n.param = &node{kind: nodeParam, name: tk.name, owner: pattern}
			n.branches = true
		} else if n.param.name != tk.name {
			return nil, conflict(n.param)
		}
		return n.param, nil
	}
	at := len(n.typed)
	for i, c := range n.typed {
		if c.typ == tk.typ {
			if c.name != tk.name {
				return nil, conflict(c)
			}
			return c, nil
		}
		if c.typ > tk.typ && at == len(n.typed) {
			at = i
		}
	}
	child := &node{kind: nodeTyped, name: tk.name, typ: tk.typ, owner: pattern}
	n.typed = append(n.typed, nil)
	copy(n.typed[at+1:], n.typed[at:])
	n.typed[at] = child
	n.branches = true
	return child, nil
}

// lookup matches path against what lies below n (n's own text already
// consumed) and returns the route it reaches, appending parameter values to
// *ps. Where a node offers a single way on, lookup loops instead of
// recursing; it recurses only at branch points, which restore *ps on
// failure.
func (n *node) lookup(path string, ps *paramList) *Route {
walk:
	for {
		if path == "" {
			if n.route != nil {
				return n.route
			}
			if n.wildcard != nil && n.wildcard.route != nil {
				*ps = append(*ps, Param{Key: n.wildcard.name})
				return n.wildcard.route
			}
			return nil
		}
		// 1. Static children: at most one can match, the one indexed by the
		// path's first byte. (A plain loop: indices are a few bytes long,
		// too short for strings.IndexByte's call to pay off.)
		first := path[0]
		for i := 0; i < len(n.indices); i++ {
			if n.indices[i] != first {
				continue
			}
			child := &n.static[i]
			if hasPrefix(path, child.prefix) {
				if !n.branches {
					n, path = child, path[len(child.prefix):]
					continue walk
				}
				mark := len(*ps)
				if rt := child.lookup(path[len(child.prefix):], ps); rt != nil {
					return rt
				}
				*ps = (*ps)[:mark]
			}
			break
		}

		// 2 and 3. Typed parameters, then the plain parameter: each consumes
		// one non-empty segment.
		if n.typed != nil || n.param != nil {
			end := 0
			for end < len(path) && path[end] != '/' {
				end++
			}
			// A "." or ".." segment never matches a parameter: such a path
			// is not clean, and the application redirects it instead.
			if end > 0 && !(path[0] == '.' && (end == 1 || end == 2 && path[1] == '.')) {
				seg, rest := path[:end], path[end:]
				mark := len(*ps)
				for _, child := range n.typed {
					if !child.typ.match(seg) {
						continue
					}
					*ps = append(*ps, Param{Key: child.name, Value: seg})
					if rt := child.lookup(rest, ps); rt != nil {
						return rt
					}
					*ps = (*ps)[:mark]
				}
				if child := n.param; child != nil {
					*ps = append(*ps, Param{Key: child.name, Value: seg})
					if n.wildcard == nil {
						n, path = child, rest
						continue walk
					}
					if rt := child.lookup(rest, ps); rt != nil {
						return rt
					}
					*ps = (*ps)[:mark]
				}
			}
		}

		// 4. The wildcard takes whatever is left, if it is clean.
		if n.wildcard != nil && n.wildcard.route != nil && isCleanTail(path) {
			*ps = append(*ps, Param{Key: n.wildcard.name, Value: path})
			return n.wildcard.route
		}
		return nil
	}
}

// hasPrefix reports whether s begins with prefix, whose first byte the
// caller has already matched. Most prefixes of a tree are a few bytes long,
// and comparing them inline beats the call to the runtime's memequal that ==
// on strings makes; longer ones use it.
func hasPrefix(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	if len(prefix) > 8 {
		return s[:len(prefix)] == prefix
	}
	// The caller matched the first byte already.
	for i := 1; i < len(prefix); i++ {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}

func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
