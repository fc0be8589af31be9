// This file holds Session, a request's handle on a stored Record.
//
// With a SharedDatabase (the in-memory one) the requests of a session share
// the stored Record and one Session handle, so a Set is visible at once to
// every request and goroutine using that session, nothing has to be saved,
// and a returning request allocates nothing. With any other Database the
// Record is this request's copy: writes mark it dirty and Save, run once
// just before the response goes out (or after each write where nothing
// sees the response start), writes it back in one operation; changes made
// after the response started are saved once more when it is finished. A
// new session
// gets its ID, its cookie and its place in the store at its first write
// (in a vireo request the cookie goes out with the response, from the
// before-write hook: see cookie.go).

package sessions

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/core"
)

// Session is one user's session as seen by a request. Its methods are safe
// for concurrent use. A nil *Session (what Get returns for a request no
// session was started for, such as an error page outside the sessions
// middleware) is safe too: it reads as empty, with zero values and the
// getters' defaults, and ignores writes.
type Session struct {
	m          *Manager
	rec        *Record
	id         string          // guarded by rec.mu; "" until a new session needs one
	ctx        context.Context // the request's, for a copying Database's writes; nil with a shared Database
	header     http.Header     // the response header of a new session's net/http request, for its cookie
	isNew      bool
	hooked     bool // a new session of a vireo request: its before-write hook sends its cookie (sendCookie)
	mode       saveMode
	touch      bool // expiry moved: a non-shared Database needs Touch; guarded by rec.mu
	cookieSent bool // a new session's cookie is in the response; guarded by rec.mu
	secure     bool // a new session's client connection is HTTPS (secureOf): its cookie is Secure
	// The struct is 64 bytes, the 64-byte size class (TestLayout): a
	// new session allocates it once, a returning one not at all.
}

// ID returns the session ID. A new session draws its ID when it is first
// written to or asked for; ID returns "" only if the system's random source
// fails.
func (s *Session) ID() string {
	if s == nil {
		return ""
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	if s.id == "" {
		s.id, _ = NewID()
	}
	return s.id
}

// IsNew reports whether the session was created by this request (the
// request brought no cookie of a live session).
func (s *Session) IsNew() bool { return s != nil && s.isNew }

// ExpiresAt returns when the session expires unless used again.
func (s *Session) ExpiresAt() time.Time {
	if s == nil {
		return time.Time{}
	}
	return s.rec.ExpiresAt()
}

// Destroyed reports whether the session was destroyed, expired or evicted
// from the store; its values are then gone and writes are ignored.
func (s *Session) Destroyed() bool { return s != nil && s.rec.destroyed() }

// Get returns the value stored under key, or nil.
func (s *Session) Get(key string) any {
	if s == nil {
		return nil
	}
	s.rec.mu.Lock()
	v, _ := s.rec.get(key, false)
	s.rec.mu.Unlock()
	return v
}

// Lookup returns the value stored under key and whether it exists.
func (s *Session) Lookup(key string) (any, bool) {
	if s == nil {
		return nil, false
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
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
	s.change(func(r *Record) bool {
		i := r.find(key, false)
		if i < 0 {
			r.add(key, value, false)
			return true
		}
		if sameScalar(r.entries[i].value, value) {
			return false
		}
		r.entries[i].value = value
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
	s.change(func(r *Record) bool {
		_, found = r.remove(key, false)
		return found
	})
	return found
}

// Clear removes every value and flash message; the session itself (its ID
// and cookie) stays. Use Manager.Destroy to end it.
func (s *Session) Clear() {
	s.change(func(r *Record) bool {
		changed := len(r.entries) > 0
		r.clear()
		return changed
	})
}

// Len returns the number of values (flash messages not counted).
func (s *Session) Len() int {
	if s == nil {
		return 0
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	return s.rec.countValues()
}

// Keys returns the keys of the values in insertion order (flash messages
// not included).
func (s *Session) Keys() []string {
	if s == nil {
		return nil
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
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
	s.change(func(r *Record) bool {
		r.set(key, value, true)
		return true
	})
}

// GetFlash returns the flash message stored under key and removes it, or
// nil when there is none.
func (s *Session) GetFlash(key string) any {
	var v any
	s.change(func(r *Record) bool {
		var found bool
		v, found = r.remove(key, true)
		return found
	})
	return v
}

// PeekFlash returns the flash message stored under key without removing it.
func (s *Session) PeekFlash(key string) any {
	if s == nil {
		return nil
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	v, _ := s.rec.get(key, true)
	return v
}

// HasFlash reports whether a flash message is stored under key.
func (s *Session) HasFlash(key string) bool {
	if s == nil {
		return false
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	_, ok := s.rec.get(key, true)
	return ok
}

// write runs fn on the record under its lock unless the session is dead,
// then makes a change durable: the first write of a new session gives it
// an ID, sets its cookie and stores it; a non-shared Database is saved at
// once in saveEachWrite mode (else before the response goes out).
func (s *Session) write(fn func(*Record) bool) error {
	r := s.rec
	r.mu.Lock()
	if r.destroyed() || !fn(r) {
		r.mu.Unlock()
		return nil
	}
	r.dirty = true
	first := s.isNew && !s.cookieSent
	if first {
		if s.id == "" {
			id, err := NewID()
			if err != nil {
				r.mu.Unlock()
				return err
			}
			s.id = id
		}
		s.cookieSent = true
	}
	id := s.id
	r.mu.Unlock()
	if first && s.header != nil {
		// A net/http request's header map is its own (net/http makes one
		// per request; through vireo's writer handle, an engine that
		// reuses its map gave it up). A vireo request's cookie waits for
		// its hook: a session kept past the request then sets no cookie
		// anywhere, by construction.
		value, err := s.m.encodeCookie(id)
		if err != nil {
			return err
		}
		var now time.Time
		maxAge := s.m.cookieMaxAge(r)
		if maxAge > 0 {
			now = s.m.now() // only a persistent cookie carries a date
		}
		s.m.setCookie(s.header, s.secure, value, maxAge, now)
	}
	if s.m.shared != nil {
		// The stored Record is this one: only a new session needs
		// inserting, once, under the ID NewID drew for it. Shared stores
		// ignore the context.
		if r.flags.Load()&flagStored == 0 {
			if s.m.mem != nil {
				s.m.mem.insertNew(id, r)
			} else if err := s.m.db.Save(context.Background(), id, r); err != nil {
				return &StoreError{Op: "save", Err: err}
			}
		}
		return nil
	}
	if s.mode == saveEachWrite {
		return s.Save()
	}
	return nil
}

// sendCookie adds a hooked session's cookie to c's response, from the
// session's state as the response goes out (its before-write hook): the
// cookie of its ID once it was written to (or regenerated, or re-timed),
// an expired one when it was destroyed after that, none when it never
// was. It goes through the Context, which hands out no header map and
// does nothing once the request is over.
func (s *Session) sendCookie(c core.Context) {
	s.rec.mu.Lock()
	sent, id := s.cookieSent, s.id
	s.rec.mu.Unlock()
	if !sent {
		return
	}
	var value string
	var now time.Time
	maxAge := time.Duration(-1)
	if !s.rec.destroyed() {
		var err error
		if value, err = s.m.encodeCookie(id); err != nil {
			s.m.log.Error("sessions: cannot encode session cookie", "err", err)
			return
		}
		if maxAge = s.m.cookieMaxAge(s.rec); maxAge > 0 {
			now = s.m.now() // only a persistent cookie carries a date
		}
	}
	c.AddResponseHeader("Set-Cookie", s.m.cookieHeader(s.secure, value, maxAge, now))
}

// change is write for the methods that return no error: a failure is
// logged (and, with a save before the response, reported again there).
func (s *Session) change(fn func(*Record) bool) {
	if s == nil {
		return
	}
	if err := s.write(fn); err != nil {
		s.m.log.Error("sessions: cannot store session change", "err", err)
	}
}

// stored reports whether the session may exist in the Database: it was
// loaded from it, or saved since.
func (s *Session) stored() bool {
	return !s.isNew || s.rec.flags.Load()&flagStored != 0
}

// Save writes pending changes to a non-shared Database now: the whole
// record when values changed, else only the new expiry when it moved. It
// does nothing for the in-memory Database, whose records are always
// current.
//
// A session started through a vireo Context (Handler, Start) or inside
// Wrap is saved without calling Save: just before the response goes out
// (a failure then answers 503 instead), and, for changes made after the
// response started, once more when the response is finished (a failure
// then is only logged). A new session first written after the response
// started is not saved then, as its cookie could not be sent. Call Save
// yourself after writing to a session from a goroutine that outlives the
// request, or to report a failure while the handler can still act on it.
// Outside Wrap, a session of StartHTTP (or of the other net/http
// functions) saves each change at once.
func (s *Session) Save() error {
	if s == nil {
		return nil
	}
	if s.m.shared != nil {
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
	case touch && s.stored():
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
	return context.WithoutCancel(s.ctx)
}
