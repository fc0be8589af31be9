// This file holds Session, a request's handle on a stored Record.
//
// With the in-memory Database every handle on a session shares the stored
// Record, so a Set is visible at once to every request and goroutine using
// that session, and nothing has to be saved. With any other Database the
// Record is this request's copy: writes mark it dirty and Save (called by
// the Handler/Wrap middleware after the handler chain, or after each write
// for a session started without one) writes it back in one operation.
// A new session is stored on its first write only.

package sessions

import (
	"context"
	"math"
	"time"
)

// Session is one user's session as seen by one request. Its methods are
// safe for concurrent use.
type Session struct {
	m        *Manager
	rec      *Record
	id       string // guarded by rec.mu (Regenerate changes it)
	isNew    bool
	ctx      context.Context
	mode     saveMode
	touch    bool // expiry moved: a non-shared Database needs Touch; guarded by rec.mu
	detached bool // started while the Database failed: never persisted
	wctx     context.Context
}

// ID returns the session ID.
func (s *Session) ID() string {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	return s.id
}

// IsNew reports whether the session was created by this request.
func (s *Session) IsNew() bool { return s.isNew }

// ExpiresAt returns when the session expires unless used again.
func (s *Session) ExpiresAt() time.Time { return s.rec.ExpiresAt() }

// Destroyed reports whether the session was destroyed, expired or evicted
// from the store; its values are then gone and writes are ignored.
func (s *Session) Destroyed() bool { return s.rec.destroyed() }

// Get returns the value stored under key, or nil.
func (s *Session) Get(key string) any {
	s.rec.mu.RLock()
	v, _ := s.rec.get(key, false)
	s.rec.mu.RUnlock()
	return v
}

// Lookup returns the value stored under key and whether it exists.
func (s *Session) Lookup(key string) (any, bool) {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	return s.rec.get(key, false)
}

// GetString returns the string stored under key ([]byte is converted),
// or def.
func (s *Session) GetString(key, def string) string {
	if v, ok := toString(s.Get(key)); ok {
		return v
	}
	return def
}

// GetInt returns the integer stored under key, or def when the value is
// missing, not a whole number (any integer or float type, json.Number or a
// decimal string) or does not fit an int.
func (s *Session) GetInt(key string, def int) int {
	if v, ok := toInt64(s.Get(key)); ok && v >= math.MinInt && v <= math.MaxInt {
		return int(v)
	}
	return def
}

// GetInt64 is GetInt for int64.
func (s *Session) GetInt64(key string, def int64) int64 {
	if v, ok := toInt64(s.Get(key)); ok {
		return v
	}
	return def
}

// GetFloat64 returns the number stored under key (any numeric type,
// json.Number or a decimal string), or def.
func (s *Session) GetFloat64(key string, def float64) float64 {
	if v, ok := toFloat64(s.Get(key)); ok {
		return v
	}
	return def
}

// GetBool returns the bool stored under key (or a string strconv.ParseBool
// accepts), or def.
func (s *Session) GetBool(key string, def bool) bool {
	if v, ok := toBool(s.Get(key)); ok {
		return v
	}
	return def
}

// Set stores value under key. A destroyed session ignores it. Setting a
// string, bool or number equal to the stored one is not a change, so it
// costs a remote store no write.
func (s *Session) Set(key string, value any) {
	s.write(func(r *Record) bool {
		if old, ok := r.get(key, false); ok && sameScalar(old, value) {
			return false
		}
		r.set(key, value, false)
		return true
	})
}

// sameScalar reports whether a and b are equal values of the same basic
// type. Other types (slices, maps, structs) count as different: comparing
// them could panic or cost more than the write it saves.
func sameScalar(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int:
		y, ok := b.(int)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return false
}

// Delete removes key and reports whether it was there.
func (s *Session) Delete(key string) bool {
	var found bool
	s.write(func(r *Record) bool {
		_, found = r.remove(key, false)
		return found
	})
	return found
}

// Clear removes every value and flash message; the session itself (its ID
// and cookie) stays. Use Manager.Destroy to end it.
func (s *Session) Clear() {
	s.write(func(r *Record) bool {
		changed := len(r.entries) > 0
		r.clear()
		return changed
	})
}

// Len returns the number of values (flash messages not counted).
func (s *Session) Len() int {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	return s.rec.countValues()
}

// Keys returns the keys of the values in insertion order (flash messages
// not included).
func (s *Session) Keys() []string {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	keys := make([]string, 0, len(s.rec.entries))
	for _, e := range s.rec.entries {
		if !e.flash {
			keys = append(keys, e.key)
		}
	}
	return keys
}

// SetFlash stores a flash message: a value that lives until it is read
// once with GetFlash (typically set before a redirect and shown by the
// next page). Flash keys are separate from value keys.
func (s *Session) SetFlash(key string, value any) {
	s.write(func(r *Record) bool {
		r.set(key, value, true)
		return true
	})
}

// GetFlash returns the flash message stored under key and removes it, or
// nil when there is none.
func (s *Session) GetFlash(key string) any {
	var v any
	s.write(func(r *Record) bool {
		var found bool
		v, found = r.remove(key, true)
		return found
	})
	return v
}

// PeekFlash returns the flash message stored under key without removing it.
func (s *Session) PeekFlash(key string) any {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	v, _ := s.rec.get(key, true)
	return v
}

// HasFlash reports whether a flash message is stored under key.
func (s *Session) HasFlash(key string) bool {
	s.rec.mu.RLock()
	defer s.rec.mu.RUnlock()
	_, ok := s.rec.get(key, true)
	return ok
}

// write runs fn on the record under its lock unless the session is dead,
// then makes the change durable: a new session is stored, and a
// non-shared Database is saved at once in write-through mode.
func (s *Session) write(fn func(*Record) bool) {
	r := s.rec
	r.mu.Lock()
	if r.destroyed() {
		r.mu.Unlock()
		return
	}
	changed := fn(r)
	if changed {
		r.dirty = true
	}
	r.mu.Unlock()
	if changed {
		s.afterWrite()
	}
}

// afterWrite makes a write durable according to the store and the mode.
func (s *Session) afterWrite() {
	if s.detached {
		return
	}
	if s.m.shared {
		// The stored Record is this one: only a new session needs
		// inserting, once.
		if s.rec.flags.Load()&flagStored == 0 {
			// The in-memory store ignores the context: skip allocating one.
			if err := s.m.db.Save(context.Background(), s.ID(), s.rec); err != nil {
				s.m.log.Error("sessions: cannot store new session", "err", err)
			}
		}
		return
	}
	if s.mode == saveEachWrite {
		if err := s.Save(); err != nil {
			s.m.log.Error("sessions: cannot save session", "err", err)
		}
	}
}

// Save writes pending changes to a non-shared Database now: the whole
// record when values changed, else only the new expiry when it moved. It
// does nothing for the in-memory Database, whose records are always
// current. The Handler middleware calls it after the handler chain; call it
// yourself after writing to a session from a goroutine that outlives the
// request.
func (s *Session) Save() error {
	if s.m.shared || s.detached {
		return nil
	}
	r := s.rec
	r.mu.Lock()
	if r.destroyed() {
		r.mu.Unlock()
		return nil
	}
	dirty, touch, id := r.dirty, s.touch, s.id
	r.dirty, s.touch = false, false
	r.mu.Unlock()
	switch {
	case dirty:
		if err := s.m.db.Save(s.writeContext(), id, r); err != nil {
			r.mu.Lock()
			r.dirty = true
			r.mu.Unlock()
			return &StoreError{Op: "save", Err: err}
		}
		r.markStored()
	case touch && (!s.isNew || r.flags.Load()&flagStored != 0):
		if err := s.m.db.Touch(s.writeContext(), id, r.ExpiresAt()); err != nil {
			return &StoreError{Op: "touch", Err: err}
		}
	}
	return nil
}

// writeContext is the context for writes: the request's values without its
// cancellation, so a change the handler made is not lost because the
// client hung up before the save.
func (s *Session) writeContext() context.Context {
	if s.ctx == nil {
		return context.Background()
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	if s.wctx == nil {
		s.wctx = context.WithoutCancel(s.ctx)
	}
	return s.wctx
}
