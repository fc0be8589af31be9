// Route parameters.
//
// The parameters live in a paramList, a plain slice: the tree appends to
// the one the pooled request state owns, whose capacity is the largest
// parameter count of any route, so matching never allocates. Params, what
// ctx.Params returns, is a Context handle under another name, so a Params
// kept past its request reads nothing rather than the parameters of the
// request the state serves next. Typed getters parse on demand; a typed
// pattern such as {id:int} guarantees the parse succeeds.

package core

import (
	"iter"
	"strconv"
)

// Param is one route parameter: its name in the pattern and the value taken
// from the request path, percent-decoded.
type Param struct {
	Key   string
	Value string
}

// Params returns the route parameters, for typed reads and iteration;
// Param reads one by name.
func (c Context) Params() Params { return Params{c} }

// Param returns the value of the named route parameter, or "".
func (c Context) Param(name string) string { return paramGate(c.s, c.gen, name) }

// The parameter reads that every request may run (Param, Params.Get,
// Len, At) are one call of paramGate, paramCount or paramAt, which the
// compiler inlines into the caller: on amd64 a leaf in assembly that runs
// the owner's check and the body (gate_amd64.s) and jumps to the Go form
// below for any other caller; elsewhere the Go form itself. The Go forms
// are the rule of handle.go: enter, read, exit.

// paramSlow is Context.Param's gated body: Lookup's, without the found
// flag.
func paramSlow(s *state, gen uint64, name string) string {
	v, _ := Params{Context{s: s, gen: gen}}.Lookup(name)
	return v
}

// paramCountSlow is Params.Len's gated body.
func paramCountSlow(s *state, gen uint64) int {
	s, pin := enterSlow(s, gen)
	if s == nil {
		return 0
	}
	n := len(s.params)
	s.exit(pin)
	return n
}

// paramAtSlow is Params.At's gated body.
func paramAtSlow(s *state, gen uint64, i int) Param {
	s, pin := enterSlow(s, gen)
	if s == nil {
		return Param{}
	}
	var p Param
	if i >= 0 && i < len(s.params) {
		p = s.params[i]
	}
	s.exit(pin)
	return p
}

// Params reads the parameters of the matched route, in pattern order;
// Context.Params returns it. Once its request is over it has none.
type Params struct {
	c Context
}

// Get returns the value of the named parameter, or "" when there is none.
func (ps Params) Get(name string) string { return paramGate(ps.c.s, ps.c.gen, name) }

// Lookup returns the value of the named parameter and whether it exists.
func (ps Params) Lookup(name string) (string, bool) {
	s, pin := ps.c.enter()
	if s == nil {
		return "", false
	}
	v, ok := s.params.lookup(name)
	s.exit(pin)
	return v, ok
}

// Len returns the number of parameters.
func (ps Params) Len() int { return paramCount(ps.c.s, ps.c.gen) }

// At returns the i-th parameter (0 <= i < Len), or the zero Param.
func (ps Params) At(i int) Param { return paramAt(ps.c.s, ps.c.gen, i) }

// All returns an iterator over the parameters' names and values, in
// pattern order. A range loop over it allocates its body's closure unless
// the compiler inlines the iterator there (it does not inline it into a
// handler literal today); a loop over Len and At allocates nothing.
func (ps Params) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for i, n := 0, ps.Len(); i < n; i++ {
			p := ps.At(i)
			if p.Key == "" || !yield(p.Key, p.Value) {
				return
			}
		}
	}
}

// Int returns the named parameter parsed as an int.
func (ps Params) Int(name string) (int, error) {
	return strconv.Atoi(ps.Get(name))
}

// Int64 returns the named parameter parsed as an int64.
func (ps Params) Int64(name string) (int64, error) {
	return strconv.ParseInt(ps.Get(name), 10, 64)
}

// Uint returns the named parameter parsed as a uint, as a {name:uint}
// pattern guarantees.
func (ps Params) Uint(name string) (uint, error) {
	n, err := strconv.ParseUint(ps.Get(name), 10, strconv.IntSize)
	return uint(n), err
}

// Uint64 returns the named parameter parsed as a uint64.
func (ps Params) Uint64(name string) (uint64, error) {
	return strconv.ParseUint(ps.Get(name), 10, 64)
}

// Bool returns the named parameter parsed as a bool (true or false).
func (ps Params) Bool(name string) (bool, error) {
	return strconv.ParseBool(ps.Get(name))
}

// paramList is the storage of Params.
type paramList []Param

// get returns the value of the named parameter, or "".
func (ps paramList) get(name string) string {
	v, _ := ps.lookup(name)
	return v
}

// lookup returns the value of the named parameter and whether it exists.
func (ps paramList) lookup(name string) (string, bool) {
	for i := range ps {
		if ps[i].Key == name {
			return ps[i].Value, true
		}
	}
	return "", false
}
