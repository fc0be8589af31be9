// This file holds Record, the stored state of one session.
//
// A Record keeps its values in a slice of key/value entries in insertion
// order rather than in a map: sessions usually hold a handful of values, a
// linear scan over a few entries is as fast as hashing, and a one-entry
// slice costs 48 bytes where the smallest map costs several hundred; the
// first entry lives inside the Record itself, so a session with one value
// is one allocation. When a
// record grows past indexThreshold values an index map is built so lookups
// stay O(1) for the rare large session. Flash messages live in the same
// slice, marked by a flag, in their own key space.
//
// The in-memory Database stores *Record values themselves, so a Session's
// mutations are the stored state, guarded by the Record's own lock. Remote
// databases build a fresh Record per request from a Snapshot and persist
// the Snapshot back.

package sessions

import (
	"sync"
	"sync/atomic"
	"time"
)

// indexThreshold is the number of values above which a record keeps a
// key -> position index.
const indexThreshold = 16

// record flags, kept in Record.flags.
const (
	flagStored    = 1 << iota // saved in the Database at least once
	flagDestroyed             // Destroy was called or the Database dropped it
	flagProtected             // MemoryDatabase: the session came back (protected segment)
)

type entry struct {
	key   string
	value any
	flash bool
}

// Record is the stored state of one session: its values, its flash
// messages and its expiry. It is safe for concurrent use. Database
// implementations receive Records from the Manager and return them from
// Load; a remote Database converts them with Snapshot and NewRecord.
type Record struct {
	mu      sync.Mutex
	entries []entry
	expires atomic.Int64 // expiry, Unix nanoseconds
	flags   atomic.Uint32
	dirty   bool // changed since the last save (for remote databases); guarded by mu

	// extra holds what only some records need, made at the first need:
	// the Session handle of a session that came back, a lifetime of its
	// own, the index of a large record. A session that never comes back
	// (a crawler, a flood) carries a nil pointer instead of three words.
	extra atomic.Pointer[recordExtra]

	// first holds the first value, where entries starts: most sessions
	// hold one or two values, and a record that carries its first one
	// inline is one object less to allocate and for the garbage collector
	// to mark per stored session.
	first [1]entry
	// The field order keeps the struct at 96 bytes, a size class; a bool
	// between the int64s would cost another class. The lock
	// is a Mutex, not an RWMutex: one user's requests rarely read the same
	// session at once, and 16 bytes less per stored session is a size
	// class less of live heap for the garbage collector to mark.
}

// recordExtra is the part of a Record that few records need.
type recordExtra struct {
	// handle is the Session shared by the requests of a SharedDatabase
	// record (see Manager.sharedHandle), made when the session first comes
	// back, so a returning request allocates no Session.
	handle atomic.Pointer[Session]
	// lifetime is the session's own lifetime (ns), set by
	// UpdateExpiration; 0 = the Manager's.
	lifetime atomic.Int64
	// index maps a non-flash key to its position in entries; nil below
	// indexThreshold. Guarded by Record.mu.
	index map[string]int
}

// more returns r's extra part, making it at the first call.
func (r *Record) more() *recordExtra {
	if x := r.extra.Load(); x != nil {
		return x
	}
	x := new(recordExtra)
	if r.extra.CompareAndSwap(nil, x) {
		return x
	}
	return r.extra.Load()
}

// ownLifetime returns the session's own lifetime, 0 when it has none.
func (r *Record) ownLifetime() time.Duration {
	if x := r.extra.Load(); x != nil {
		return time.Duration(x.lifetime.Load())
	}
	return 0
}

// setLifetime gives the session its own lifetime; 0 returns it to the
// Manager's.
func (r *Record) setLifetime(d time.Duration) {
	if d == 0 && r.extra.Load() == nil {
		return
	}
	r.more().lifetime.Store(int64(d))
}

// keyIndex returns the index of a large record, else nil. The caller
// holds r.mu.
func (r *Record) keyIndex() map[string]int {
	if x := r.extra.Load(); x != nil {
		return x.index
	}
	return nil
}

// Entry is one value of a Snapshot.
type Entry struct {
	Key   string
	Value any
}

// Snapshot is a copy of a Record's content, the form a remote Database
// serializes. Values and Flashes keep their insertion order.
type Snapshot struct {
	Values    []Entry
	Flashes   []Entry
	ExpiresAt time.Time
	// Lifetime is the session's own lifetime when it was changed with
	// Manager.UpdateExpiration, zero when the Manager's default applies.
	Lifetime time.Duration
}

// NewRecord returns a Record holding the content of s. Later entries win
// over earlier ones with the same key.
func NewRecord(s Snapshot) *Record {
	r := &Record{}
	r.setLifetime(s.Lifetime)
	r.expires.Store(s.ExpiresAt.UnixNano())
	if n := len(s.Values) + len(s.Flashes); n > len(r.first) {
		r.entries = make([]entry, 0, n)
	} else {
		r.entries = r.first[:0]
	}
	for _, e := range s.Values {
		r.set(e.Key, e.Value, false)
	}
	for _, e := range s.Flashes {
		r.set(e.Key, e.Value, true)
	}
	return r
}

// newRecord returns an empty record that expires at exp, in Unix
// nanoseconds (an addition of integers, where time.Time.Add would spend
// some 70 instructions on its monotonic reading).
func newRecord(exp int64) *Record {
	r := &Record{}
	r.entries = r.first[:0]
	r.expires.Store(exp)
	return r
}

// Snapshot returns a copy of the record's content.
func (r *Record) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Snapshot{ExpiresAt: r.ExpiresAt(), Lifetime: r.ownLifetime()}
	for _, e := range r.entries {
		if e.flash {
			s.Flashes = append(s.Flashes, Entry{Key: e.key, Value: e.value})
		} else {
			s.Values = append(s.Values, Entry{Key: e.key, Value: e.value})
		}
	}
	return s
}

// ExpiresAt returns the time the record stops being valid.
func (r *Record) ExpiresAt() time.Time {
	return time.Unix(0, r.expires.Load())
}

// SetExpiresAt changes the time the record stops being valid. Databases
// call it from Touch.
func (r *Record) SetExpiresAt(t time.Time) {
	r.expires.Store(t.UnixNano())
}

// Expired reports whether the record is no longer valid at now.
func (r *Record) Expired(now time.Time) bool {
	return now.UnixNano() >= r.expires.Load()
}

func (r *Record) destroyed() bool { return r.flags.Load()&flagDestroyed != 0 }

// markDestroyed makes the record dead for every Session holding it.
func (r *Record) markDestroyed() {
	for {
		old := r.flags.Load()
		if old&flagDestroyed != 0 || r.flags.CompareAndSwap(old, old|flagDestroyed) {
			return
		}
	}
}

// setFlag sets f in r.flags.
func (r *Record) setFlag(f uint32) {
	for {
		old := r.flags.Load()
		if old&f != 0 || r.flags.CompareAndSwap(old, old|f) {
			return
		}
	}
}

// markStored sets flagStored and reports whether it was not set before.
func (r *Record) markStored() bool {
	for {
		old := r.flags.Load()
		if old&flagStored != 0 {
			return false
		}
		if r.flags.CompareAndSwap(old, old|flagStored) {
			return true
		}
	}
}

// find returns the position of key in the flash or value key space, or -1.
// The caller holds r.mu.
func (r *Record) find(key string, flash bool) int {
	if index := r.keyIndex(); !flash && index != nil {
		if i, ok := index[key]; ok {
			return i
		}
		return -1
	}
	for i := range r.entries {
		if r.entries[i].flash == flash && r.entries[i].key == key {
			return i
		}
	}
	return -1
}

// get returns the value of key. The caller holds r.mu.
func (r *Record) get(key string, flash bool) (any, bool) {
	if i := r.find(key, flash); i >= 0 {
		return r.entries[i].value, true
	}
	return nil, false
}

// set stores value under key. The caller holds r.mu for writing.
func (r *Record) set(key string, value any, flash bool) {
	if i := r.find(key, flash); i >= 0 {
		r.entries[i].value = value
		return
	}
	r.add(key, value, flash)
}

// add appends key, which the record does not hold, with its value. The
// caller holds r.mu for writing.
func (r *Record) add(key string, value any, flash bool) {
	r.entries = append(r.entries, entry{key: key, value: value, flash: flash})
	if flash {
		return
	}
	if index := r.keyIndex(); index != nil {
		index[key] = len(r.entries) - 1
	} else if len(r.entries) > indexThreshold && r.countValues() > indexThreshold {
		r.rebuildIndex()
	}
}

// remove deletes key and reports whether it was there. The caller holds
// r.mu for writing.
func (r *Record) remove(key string, flash bool) (any, bool) {
	i := r.find(key, flash)
	if i < 0 {
		return nil, false
	}
	v := r.entries[i].value
	copy(r.entries[i:], r.entries[i+1:])
	r.entries[len(r.entries)-1] = entry{} // drop the reference for the GC
	r.entries = r.entries[:len(r.entries)-1]
	if r.keyIndex() != nil {
		r.rebuildIndex()
	}
	return v, true
}

// clear removes every value and flash. The caller holds r.mu for writing.
func (r *Record) clear() {
	clear(r.entries)
	r.entries = r.entries[:0]
	if x := r.extra.Load(); x != nil {
		x.index = nil
	}
}

func (r *Record) countValues() int {
	n := 0
	for i := range r.entries {
		if !r.entries[i].flash {
			n++
		}
	}
	return n
}

// rebuildIndex recomputes the index after positions moved, dropping it
// when the record shrank below the threshold.
func (r *Record) rebuildIndex() {
	if r.countValues() <= indexThreshold {
		if x := r.extra.Load(); x != nil {
			x.index = nil
		}
		return
	}
	x := r.more()
	if x.index == nil {
		x.index = make(map[string]int, len(r.entries))
	} else {
		clear(x.index)
	}
	for i, e := range r.entries {
		if !e.flash {
			x.index[e.key] = i
		}
	}
}
