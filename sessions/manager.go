// This file holds Manager and its net/http-level operations: starting a
// session from a request, destroying, regenerating and re-timing it.
//
// Start looks at each cookie carrying the session's name, decodes it
// (signature and shape), loads the ID from the Database and keeps the first
// live record. Anything else - no cookie, a malformed, tampered or
// oversized value, an unknown or expired ID - leads to a new session under
// a new ID from crypto/rand: a client-chosen ID is never adopted. A new
// session is stored the first time it is written to, so a request that only
// reads costs the store nothing. A Database error is returned, never
// papered over with an empty session.

package sessions

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Manager creates and finds sessions. It is safe for concurrent use.
type Manager struct {
	name         string
	expires      time.Duration // cookie lifetime; 0 = browser-session cookie
	lifetime     time.Duration // server-side lifetime
	sliding      bool
	secure       bool
	attrs        string // "; Path=/; HttpOnly; SameSite=Lax" ...
	enc          Encoding
	maxCookieLen int
	db           Database
	ownsDB       bool
	shared       bool
	mem          *MemoryDatabase // db itself when it is the in-memory store
	now          func() time.Time
	log          *slog.Logger
}

// NewManager returns a Manager for cfg, or an error naming every invalid
// setting.
func NewManager(cfg Config) (*Manager, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Manager{
		name:         cfg.Cookie,
		expires:      cfg.Expires,
		lifetime:     cfg.Expires,
		sliding:      !cfg.FixedExpiration,
		secure:       cfg.Secure,
		enc:          cfg.Encoding,
		maxCookieLen: cfg.MaxCookieLength,
		db:           cfg.Database,
		now:          cfg.Now,
		log:          cfg.Logger,
	}
	if m.name == "" {
		m.name = DefaultCookie
	}
	if m.lifetime == 0 {
		m.lifetime = cfg.Lifetime
		if m.lifetime == 0 {
			m.lifetime = DefaultLifetime
		}
	}
	if m.maxCookieLen == 0 {
		m.maxCookieLen = DefaultMaxCookieLength
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.db == nil {
		m.db = NewMemoryDatabase(MemoryConfig{Now: m.now})
		m.ownsDB = true
	}
	m.shared = isShared(m.db)
	m.mem, _ = m.db.(*MemoryDatabase)
	path := cfg.Path
	if path == "" {
		path = "/"
	}
	sameSite := cfg.SameSite
	if sameSite == 0 {
		sameSite = http.SameSiteLaxMode
	}
	m.attrs = cookieAttrs(path, cfg.Domain, cfg.Secure, !cfg.DisableHTTPOnly, sameSite)
	return m, nil
}

// New is NewManager for configurations known to be valid: it panics on an
// invalid one, like regexp.MustCompile, which makes a typo fail at startup.
func New(cfg Config) *Manager {
	m, err := NewManager(cfg)
	if err != nil {
		panic(err)
	}
	return m
}

// Database returns the store the Manager uses.
func (m *Manager) Database() Database { return m.db }

// CookieName returns the name of the session cookie.
func (m *Manager) CookieName() string { return m.name }

// Close closes the MemoryDatabase the Manager created (stopping its
// sweeper goroutine). A Database passed in Config is left to its owner.
// With a vireo application: app.OnShutdown(func() { m.Close() }).
func (m *Manager) Close() error {
	if m.ownsDB {
		return m.db.Close()
	}
	return nil
}

// saveMode says how a session's writes reach a non-shared Database.
type saveMode uint8

const (
	// saveAtEnd: the caller (Handler, Wrap) calls Session.Save once the
	// request is done.
	saveAtEnd saveMode = iota
	// saveEachWrite: every mutation is saved at once (sessions started
	// without a middleware that saves at the end).
	saveEachWrite
)

// StartHTTP returns the session of the request, creating a new one (and
// setting its cookie on w) when the request carries no valid cookie of a
// live session. It must be called before the response is written. Every
// mutation is saved immediately; use Wrap to save once per request. The
// error is the Database's, when it cannot be reached.
func (m *Manager) StartHTTP(w http.ResponseWriter, r *http.Request) (*Session, error) {
	return m.start(w, r, saveEachWrite)
}

func (m *Manager) start(w http.ResponseWriter, r *http.Request, mode saveMode) (*Session, error) {
	now := m.now()
	ctx := r.Context()
	var sess *Session
	var err error
	cookieValues(r, m.name, func(value string) bool {
		id, ok := m.decodeCookie(value)
		if !ok {
			return false
		}
		var rec *Record
		if m.mem != nil {
			rec = m.mem.loadAt(id, now)
		} else if rec, err = m.db.Load(ctx, id); err != nil {
			return true
		}
		if rec == nil || rec.destroyed() || rec.Expired(now) {
			return false
		}
		sess = &Session{m: m, rec: rec, id: id, ctx: ctx, mode: mode}
		return true
	})
	if err != nil {
		return nil, &StoreError{Op: "load", Err: err}
	}
	if sess != nil {
		if err := m.slide(w, r, sess, now); err != nil {
			return nil, err
		}
		return sess, nil
	}
	id, err := NewID()
	if err != nil {
		return nil, err
	}
	value, err := m.encodeCookie(id)
	if err != nil {
		return nil, err
	}
	sess = &Session{m: m, rec: newRecord(now.Add(m.lifetime)), id: id, isNew: true, ctx: ctx, mode: mode}
	m.setCookie(w, r, value, m.expires, now)
	return sess, nil
}

// lifetimeOf returns the lifetime of rec: its own when set by
// UpdateExpiration, else the Manager's.
func (m *Manager) lifetimeOf(rec *Record) time.Duration {
	if l := time.Duration(rec.lifetime.Load()); l > 0 {
		return l
	}
	return m.lifetime
}

// cookieMaxAge returns the Max-Age for rec's cookie: 0 (browser session)
// unless the Manager or the session asked for a persistent cookie.
func (m *Manager) cookieMaxAge(rec *Record) time.Duration {
	if l := time.Duration(rec.lifetime.Load()); l > 0 {
		return l
	}
	return m.expires
}

// slide implements sliding expiration for a loaded session: the expiry
// moves to now+lifetime once 1/16 of the lifetime has passed since it last
// moved, which bounds both the Set-Cookie headers and a remote store's
// writes to 16 per lifetime for a busy session.
func (m *Manager) slide(w http.ResponseWriter, r *http.Request, s *Session, now time.Time) error {
	if !m.sliding {
		return nil
	}
	life := m.lifetimeOf(s.rec)
	target := now.Add(life)
	if target.UnixNano()-s.rec.expires.Load() < int64(life/16) {
		return nil
	}
	s.rec.SetExpiresAt(target)
	if !m.shared {
		s.rec.mu.Lock()
		s.touch = true
		s.rec.mu.Unlock()
		if s.mode == saveEachWrite {
			if err := s.Save(); err != nil {
				return err
			}
		}
	}
	if maxAge := m.cookieMaxAge(s.rec); maxAge > 0 {
		value, err := m.encodeCookie(s.id)
		if err != nil {
			return err
		}
		m.setCookie(w, r, value, maxAge, now)
	}
	return nil
}

// DestroyHTTP removes the session from the Database, empties it for every
// holder and expires its cookie on w.
func (m *Manager) DestroyHTTP(w http.ResponseWriter, r *http.Request, s *Session) error {
	if s == nil {
		return nil
	}
	s.rec.mu.Lock()
	id := s.id
	s.rec.clear()
	s.rec.dirty = false
	s.touch = false
	s.rec.mu.Unlock()
	s.rec.markDestroyed()
	if !s.detached && (!s.isNew || s.rec.flags.Load()&flagStored != 0) {
		if err := m.db.Delete(s.writeContext(), id); err != nil {
			return &StoreError{Op: "delete", Err: err}
		}
	}
	m.setCookie(w, r, "", -1, m.now())
	return nil
}

// RegenerateHTTP gives the session a new ID, keeping its values: the old ID
// can no longer be loaded once it returns, and w carries the new cookie.
// Call it when the privilege level changes (login) against session
// fixation.
func (m *Manager) RegenerateHTTP(w http.ResponseWriter, r *http.Request, s *Session) error {
	newID, err := NewID()
	if err != nil {
		return err
	}
	value, err := m.encodeCookie(newID)
	if err != nil {
		return err
	}
	s.rec.mu.RLock()
	oldID := s.id
	s.rec.mu.RUnlock()
	stored := !s.isNew || s.rec.flags.Load()&flagStored != 0
	if stored && !s.detached && !s.rec.destroyed() {
		// Rename writes the record's current values under the new ID.
		// Pending changes stay marked dirty: saving them again at the end
		// is harmless, and clearing the mark could lose a write made
		// while Rename ran.
		if err := m.db.Rename(s.writeContext(), oldID, newID, s.rec); err != nil {
			return &StoreError{Op: "rename", Err: err}
		}
	}
	s.rec.mu.Lock()
	s.id = newID
	s.rec.mu.Unlock()
	m.setCookie(w, r, value, m.cookieMaxAge(s.rec), m.now())
	return nil
}

// UpdateExpirationHTTP gives this session its own lifetime (for example a
// "remember me" login of 30 days): it expires lifetime from now, slides by
// that lifetime from then on, and w carries a persistent cookie of that
// Max-Age. A lifetime <= 0 returns the session to the Manager's default.
func (m *Manager) UpdateExpirationHTTP(w http.ResponseWriter, r *http.Request, s *Session, lifetime time.Duration) error {
	if lifetime < 0 {
		lifetime = 0
	}
	now := m.now()
	s.rec.lifetime.Store(int64(lifetime))
	s.rec.SetExpiresAt(now.Add(m.lifetimeOf(s.rec)))
	if !m.shared {
		// The lifetime is part of the record, so this is a full save.
		s.rec.mu.Lock()
		s.rec.dirty = true
		s.rec.mu.Unlock()
		if s.mode == saveEachWrite {
			if err := s.Save(); err != nil {
				return err
			}
		}
	} else if s.isNew && s.rec.flags.Load()&flagStored == 0 {
		// Asking for a lifetime is a write: store the new session.
		s.afterWrite()
	}
	value, err := m.encodeCookie(s.ID())
	if err != nil {
		return err
	}
	m.setCookie(w, r, value, m.cookieMaxAge(s.rec), now)
	return nil
}

// Wrap is net/http middleware: it starts the session, makes it available
// through FromContext(r.Context()), and saves it once after next returns.
// A Database error answers 503 Service Unavailable without calling next.
func (m *Manager) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := m.start(w, r, saveAtEnd)
		if err != nil {
			m.log.Error("sessions: cannot start session", "err", err)
			http.Error(w, "session store unavailable", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, s)))
		if err := s.Save(); err != nil {
			m.log.Error("sessions: cannot save session", "err", err)
		}
	})
}

type ctxKey struct{}

// FromContext returns the session Wrap stored in ctx, or nil.
func FromContext(ctx context.Context) *Session {
	s, _ := ctx.Value(ctxKey{}).(*Session)
	return s
}

// StoreError reports a failure of the session Database. Callers map it to
// 503 Service Unavailable: the store, not the request, is at fault.
type StoreError struct {
	Op  string // "load", "save", "touch", "delete" or "rename"
	Err error
}

// Error describes the failed operation.
func (e *StoreError) Error() string { return "sessions: database " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the Database's error.
func (e *StoreError) Unwrap() error { return e.Err }

// StatusCode returns 503, so frameworks that read a status from errors
// (vireo's Context.StopWithError) answer Service Unavailable.
func (e *StoreError) StatusCode() int { return http.StatusServiceUnavailable }
