// Request-scoped values.
//
// Values is a small slice of key/value pairs owned by the pooled Context:
// a request rarely carries more than a handful, a linear scan beats a map at
// that size, and resetting it keeps the backing array for the next request.

package core

// Values is a request-scoped store that middleware uses to hand data to
// later handlers. It is reset between requests.
type Values struct {
	entries []valueEntry
}

type valueEntry struct {
	key   string
	value any
}

// Set stores value under key, replacing any previous value.
func (v *Values) Set(key string, value any) {
	for i := range v.entries {
		if v.entries[i].key == key {
			v.entries[i].value = value
			return
		}
	}
	v.entries = append(v.entries, valueEntry{key, value})
}

// Get returns the value stored under key, or nil.
func (v *Values) Get(key string) any {
	for i := range v.entries {
		if v.entries[i].key == key {
			return v.entries[i].value
		}
	}
	return nil
}

// GetString returns the value stored under key if it is a string, else "".
func (v *Values) GetString(key string) string {
	s, _ := v.Get(key).(string)
	return s
}

// Delete removes key.
func (v *Values) Delete(key string) {
	for i := range v.entries {
		if v.entries[i].key == key {
			v.entries = append(v.entries[:i], v.entries[i+1:]...)
			v.entries[len(v.entries):cap(v.entries)][0] = valueEntry{}
			return
		}
	}
}

// Len returns the number of values.
func (v *Values) Len() int { return len(v.entries) }

// Range calls fn for each value in insertion order until fn returns false.
func (v *Values) Range(fn func(key string, value any) bool) {
	for _, e := range v.entries {
		if !fn(e.key, e.value) {
			return
		}
	}
}

func (v *Values) reset() {
	clear(v.entries) // drop references so the GC can collect them
	v.entries = v.entries[:0]
}

func (v *Values) clone() Values {
	return Values{entries: append([]valueEntry(nil), v.entries...)}
}
