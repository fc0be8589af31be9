// Parse-tree rewriting behind the HTML engine's yield and partial.
//
// html/template functions cannot write to the output and are shared by every
// render of a set, so binding yield to "the current page" through a function
// would need per-render state (rebinding it per render is the data race that
// mixes pages up under load). Instead the engine rewrites parse trees once,
// at Load:
//
//   - {{ partial "x.html" ARG }} (or render) with a constant name becomes
//     {{ template "x.html" ARG }} in every template;
//   - for every layout L and page P, a copy of L's tree in which each
//     {{ yield ARG }} action becomes {{ template "P" ARG }} is added to the
//     set as its own template.
//
// A render then executes one ordinary template: no extra buffer, no string
// copy of the page and nothing shared that changes. html/template escapes the
// called page in the context of the layout, as for any {{ template }} call.

package view

import (
	"fmt"
	"text/template/parse"
)

// rewriter walks one parse tree and replaces yield or partial actions.
type rewriter struct {
	tree *parse.Tree
	// page is the template yield actions are replaced with; "" rewrites
	// partials instead.
	page string
	// exists reports whether a template a constant partial names exists.
	exists func(name string) bool
	found  bool // a yield action was seen (page == "") or replaced
	err    error
}

// list rewrites the actions of l and of every branch nested in it.
func (rw *rewriter) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for i, n := range l.Nodes {
		switch n := n.(type) {
		case *parse.ActionNode:
			if repl := rw.action(n); repl != nil {
				l.Nodes[i] = repl
			}
		case *parse.IfNode:
			rw.list(n.List)
			rw.list(n.ElseList)
		case *parse.RangeNode:
			rw.list(n.List)
			rw.list(n.ElseList)
		case *parse.WithNode:
			rw.list(n.List)
			rw.list(n.ElseList)
		}
		if rw.err != nil {
			return
		}
	}
}

// action returns the {{ template }} node that replaces a, or nil to keep a.
// Only a whole action made of one command without declarations qualifies;
// anything else keeps calling the function of the same name.
func (rw *rewriter) action(a *parse.ActionNode) parse.Node {
	if len(a.Pipe.Decl) != 0 || len(a.Pipe.Cmds) != 1 {
		return nil
	}
	args := a.Pipe.Cmds[0].Args
	id, ok := args[0].(*parse.IdentifierNode)
	if !ok {
		return nil
	}
	switch {
	case id.Ident == "yield":
		rw.found = true
		if rw.page == "" {
			return nil
		}
		if len(args) > 2 {
			rw.fail(a, "yield takes at most one argument")
			return nil
		}
		return templateCall(a, rw.page, args[1:])
	case rw.page == "" && (id.Ident == "partial" || id.Ident == "render"):
		if len(args) < 2 {
			rw.fail(a, id.Ident+" needs a template name")
			return nil
		}
		name, ok := args[1].(*parse.StringNode)
		if !ok {
			return nil // computed name: the function looks it up when it runs
		}
		if len(args) > 3 {
			rw.fail(a, id.Ident+" takes a template name and at most one argument")
			return nil
		}
		if !rw.exists(name.Text) {
			rw.fail(a, fmt.Sprintf("%s %q: %v", id.Ident, name.Text, ErrNotFound))
			return nil
		}
		return templateCall(a, name.Text, args[2:])
	}
	return nil
}

// fail records an error located at node n (file:line:col).
func (rw *rewriter) fail(n parse.Node, msg string) {
	if rw.err == nil {
		loc, _ := rw.tree.ErrorContext(n)
		rw.err = fmt.Errorf("view: html: %s: %s", loc, msg)
	}
}

// templateCall builds {{ template "name" ARG }} at the position of a; with
// no argument it passes the dot, as {{ yield }} means {{ yield . }}.
func templateCall(a *parse.ActionNode, name string, args []parse.Node) *parse.TemplateNode {
	var arg parse.Node
	if len(args) == 0 {
		arg = &parse.DotNode{NodeType: parse.NodeDot, Pos: a.Pos}
	} else {
		arg = args[0]
	}
	return &parse.TemplateNode{
		NodeType: parse.NodeTemplate,
		Pos:      a.Pos,
		Line:     a.Line,
		Name:     name,
		Pipe: &parse.PipeNode{
			NodeType: parse.NodePipe,
			Pos:      a.Pos,
			Line:     a.Line,
			Cmds: []*parse.CommandNode{{
				NodeType: parse.NodeCommand,
				Pos:      a.Pos,
				Args:     []parse.Node{arg},
			}},
		},
	}
}
