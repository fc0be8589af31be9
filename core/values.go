// Request-scoped values.
//
// The values live in a valueList, a small slice of key/value pairs owned
// by the pooled request state: a request rarely carries more than a
// handful, a linear scan beats a map at that size, and resetting it keeps
// the backing array for the next request. Values, what ctx.Values returns,
// is a Context handle under another name: each method checks the handle
// as every Context method does, so a Values kept past its request reads
// nothing and stores nothing.

package core

// Values is the request-scoped store that middleware uses to hand data to
// later handlers, returned by Context.Values. It is emptied between
// requests; once its request is over it holds nothing and Set does
// nothing.
type Values struct {
	c Context
}

// Values returns the request-scoped value store.
func (c Context) Values() Values { return Values{c} }

// Set stores value under key, replacing any previous value.
func (v Values) Set(key string, value any) {
	if s, pin := v.c.enter(); s != nil {
		s.values.set(key, value)
		s.exit(pin)
	}
}

// Get returns the value stored under key, or nil.
func (v Values) Get(key string) any {
	s, pin := v.c.enter()
	if s == nil {
		return nil
	}
	value := s.values.get(key)
	s.exit(pin)
	return value
}

// GetString returns the value stored under key if it is a string, else "".
func (v Values) GetString(key string) string {
	s, _ := v.Get(key).(string)
	return s
}

// Delete removes key.
func (v Values) Delete(key string) {
	if s, pin := v.c.enter(); s != nil {
		s.values.delete(key)
		s.exit(pin)
	}
}

// Len returns the number of values.
func (v Values) Len() int {
	s, pin := v.c.enter()
	if s == nil {
		return 0
	}
	n := len(s.values.entries)
	s.exit(pin)
	return n
}

// Range calls fn for each value in insertion order until fn returns false.
// fn must not call Set or Delete.
func (v Values) Range(fn func(key string, value any) bool) {
	run(v.c, func(s *state) {
		for _, e := range s.values.entries {
			if !fn(e.key, e.value) {
				return
			}
		}
	})
}

// valueList is the storage of Values.
type valueList struct {
	entries []valueEntry
}

type valueEntry struct {
	key   string
	value any
}

func (v *valueList) set(key string, value any) {
	for i := range v.entries {
		if v.entries[i].key == key {
			v.entries[i].value = value
			return
		}
	}
	v.entries = append(v.entries, valueEntry{key, value})
}

func (v *valueList) get(key string) any {
	for i := range v.entries {
		if v.entries[i].key == key {
			return v.entries[i].value
		}
	}
	return nil
}

func (v *valueList) delete(key string) {
	for i := range v.entries {
		if v.entries[i].key == key {
			v.entries = append(v.entries[:i], v.entries[i+1:]...)
			v.entries[len(v.entries):cap(v.entries)][0] = valueEntry{}
			return
		}
	}
}

func (v *valueList) reset() {
	clear(v.entries) // drop references so the GC can collect them
	v.entries = v.entries[:0]
}

func (v *valueList) clone() valueList {
	return valueList{entries: append([]valueEntry(nil), v.entries...)}
}
