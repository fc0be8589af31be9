// Route parameters.
//
// Params is a plain slice: the tree appends to the one the pooled Context
// owns, whose capacity is the largest parameter count of any route, so
// matching never allocates. Typed getters parse on demand; a typed pattern
// such as {id:int} guarantees the parse succeeds.

package core

import "strconv"

// Param is one route parameter: its name in the pattern and the value taken
// from the request path, percent-decoded.
type Param struct {
	Key   string
	Value string
}

// Params holds the parameters of the matched route in pattern order. The
// slice belongs to the request's Context: copy it to keep it longer.
type Params []Param

// Get returns the value of the named parameter, or "" when there is none.
func (ps Params) Get(name string) string {
	for i := range ps {
		if ps[i].Key == name {
			return ps[i].Value
		}
	}
	return ""
}

// Lookup returns the value of the named parameter and whether it exists.
func (ps Params) Lookup(name string) (string, bool) {
	for i := range ps {
		if ps[i].Key == name {
			return ps[i].Value, true
		}
	}
	return "", false
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
