// This file holds Manager: finding a request's session, and the operations
// on it (start, regenerate, destroy, re-time).
//
// Start looks at each cookie carrying the session's name, decodes it
// (signature and shape), loads the ID from the Database and keeps the first
// live record. Anything else - no cookie, a malformed, tampered or
// oversized value, an unknown or expired ID - leads to a new, empty session
// that exists only in this request: it gets an ID, a cookie and a place in
// the store at its first write, so a request that only reads costs the
// store nothing and sends no cookie. A client-chosen ID is never adopted.
// A Database error is returned, never papered over with an empty session.
//
// Every operation has two forms: one of a vireo request, which takes its
// core.Context (Start, Regenerate, Destroy, UpdateExpiration), and one of
// plain net/http code, which takes its w and r (StartHTTP, RegenerateHTTP,
// DestroyHTTP, UpdateExpirationHTTP). Both turn the request into an
// exchange (exchange.go) and run the one implementation.

package sessions

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/core"
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
	shared       SharedDatabase  // db when its records are shared, else nil
	mem          *MemoryDatabase // db when it is the in-memory one, else nil
	ownsDB       bool
	now          func() time.Time
	log          *slog.Logger
}

// New returns a Manager configured by opts, or an error naming every
// invalid option.
func New(opts ...Option) (*Manager, error) {
	cfg, err := newSettings(opts)
	if err != nil {
		return nil, err
	}
	m := &Manager{
		name:         cfg.cookie,
		expires:      cfg.expires,
		lifetime:     cfg.expires,
		sliding:      !cfg.fixedExpiration,
		secure:       cfg.secure,
		enc:          cfg.encoding,
		maxCookieLen: cfg.maxCookieLength,
		db:           cfg.db,
		now:          cfg.now,
		log:          cfg.logger,
	}
	if m.lifetime == 0 {
		m.lifetime = cfg.lifetime
	}
	if m.db == nil {
		m.db = NewMemoryDatabase(WithMemoryClock(m.now))
		m.ownsDB = true
	}
	m.shared, _ = m.db.(SharedDatabase)
	m.mem, _ = m.db.(*MemoryDatabase)
	m.attrs = cookieAttrs(cfg.path, cfg.domain, cfg.secure, cfg.httpOnly, cfg.sameSite)
	return m, nil
}

// MustNew is New for options known to be valid: it panics on an invalid
// one, like regexp.MustCompile, which makes a typo fail at startup.
func MustNew(opts ...Option) *Manager {
	m, err := New(opts...)
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
// sweeper goroutine). A Database given with WithDatabase is left to its
// owner. With a vireo application: app.OnShutdown(func() { m.Close() }).
func (m *Manager) Close() error {
	if m.ownsDB {
		return m.db.Close()
	}
	return nil
}

// Start returns the request's session: the one already started for it
// (by Handler or an earlier Start), else the one its cookie names,
// else a new, empty session that is stored, and whose cookie is sent, only
// when a handler writes to it. Write to a session before writing the
// response: its changes are saved, and a new session's cookie set, before
// the first byte goes out, and a failed save turns the response into 503
// Service Unavailable. A change made after the response started is saved
// once the response is finished (a failure is then only logged), except
// for a new session's first write, whose cookie can no longer be sent: that
// session is not stored (see the package documentation).
//
// The error, a *StoreError when the Database cannot be reached, answers
// 503 through ctx.StopWithError. StartHTTP is Start for net/http code.
func (m *Manager) Start(ctx core.Context) (*Session, error) { return m.startCore(ctx) }

// StartHTTP is Start for net/http code. Inside Wrap it returns the session
// Wrap started (its changes are saved just before the response, as with
// Start); outside Wrap nothing sees the response start, so each change to
// a session of a Database that copies records is saved at once (a failure
// is logged), and each call loads the session anew: keep the one it
// returns. A *StoreError means the Database cannot be reached (answer 503).
func (m *Manager) StartHTTP(w http.ResponseWriter, r *http.Request) (*Session, error) {
	return m.start(httpOf(w, r))
}

// start is Start of either world.
func (m *Manager) start(x exchange) (*Session, error) {
	if x.hx != nil {
		return m.startNetHTTP(x.hx)
	}
	return m.startCore(x.c)
}

func (m *Manager) startCore(c core.Context) (*Session, error) {
	values := c.Values()
	if s, _ := values.Get(ValuesKey).(*Session); s != nil && s.m == m && !s.rec.destroyed() {
		return s, nil
	}
	// The Cookie lines are read through the Context, and so is the
	// request's context, for a Database that is not shared (RequestContext:
	// an engine other than net/http builds no *http.Request for it).
	// The cookies go out through the Context too (load, saveHook), never
	// through its response header map, which an engine that reuses the map
	// would then have to give up (see core.Context.ResponseHeader).
	var ctx context.Context
	if m.shared == nil {
		ctx = c.RequestContext()
	}
	s, err := m.load(c, nil, c.RequestHeaderValues("Cookie"), ctx, c.IsTLS(), saveBeforeWrite)
	if err != nil {
		return nil, err
	}
	values.Set(ValuesKey, s)
	if m.shared == nil {
		if c.Written() {
			// Started after the response did: the before-write hooks
			// have run, so its changes are saved after the response.
			c.OnDone((*doneHook)(s))
		} else {
			c.OnBeforeWrite((*saveHook)(s))
		}
	} else if s.hooked {
		c.OnBeforeWrite((*saveHook)(s))
	}
	return s, nil
}

func (m *Manager) startNetHTTP(x *httpExchange) (*Session, error) {
	if s := x.sess; s != nil && s.m == m && !s.rec.destroyed() {
		return s, nil
	}
	mode := saveEachWrite
	if x.wrapped != nil {
		mode = saveBeforeWrite
	}
	var ctx context.Context
	if m.shared == nil {
		ctx = x.r.Context()
	}
	s, err := m.load(core.Context{}, x.w.Header(), x.r.Header["Cookie"], ctx, x.r.TLS != nil, mode)
	if err != nil {
		return nil, err
	}
	if x.sess == nil || x.sess.m == m || x.sess.rec.destroyed() {
		x.sess = s
	}
	return s, nil
}

// saveMode says when the writes of a session reach a Database whose
// records are not shared.
type saveMode uint8

const (
	// saveBeforeWrite: once, just before the response goes out (a core
	// before-write hook, or Wrap's writer).
	saveBeforeWrite saveMode = iota
	// saveEachWrite: every change at once (the net/http functions
	// outside Wrap, where nothing sees the response start).
	saveEachWrite
)

// load finds the session that the request's Cookie header lines name, or
// makes a new one. Its response is c for a vireo request (h nil: a new
// session's cookie is then sent by its before-write hook, saveHook) or the
// header map h of a net/http one. ctx is the request's context, for a
// Database that is not shared (nil with a shared one); secure says whether
// the client's connection is HTTPS (see secureOf).
func (m *Manager) load(c core.Context, h http.Header, lines []string, ctx context.Context, secure bool, mode saveMode) (*Session, error) {
	now := m.now()
	if len(lines) > 0 {
		sess, err := m.fromCookies(lines, ctx, now, mode)
		if err != nil {
			return nil, err
		}
		if sess != nil {
			if err := m.slide(c, h, secure, sess, now); err != nil {
				return nil, err
			}
			return sess, nil
		}
	}
	return &Session{m: m, rec: newRecord(now.UnixNano() + int64(m.lifetime)), isNew: true,
		ctx: ctx, header: h, hooked: h == nil, mode: mode, secure: secure}, nil
}

// fromCookies returns the live session that the first valid cookie of the
// Cookie header lines names, or nil.
func (m *Manager) fromCookies(lines []string, ctx context.Context, now time.Time, mode saveMode) (*Session, error) {
	var sess *Session
	var err error
	cookieValues(lines, m.name, func(value string) bool {
		id, ok := m.decodeCookie(value)
		if !ok {
			return false
		}
		var rec *Record
		if m.shared != nil {
			rec = m.shared.LoadAt(id, now)
		} else if rec, err = m.db.Load(ctx, id); err != nil {
			return true
		}
		if rec == nil || rec.destroyed() || rec.Expired(now) {
			return false
		}
		if m.shared != nil {
			sess = m.sharedHandle(rec, id)
		} else {
			sess = &Session{m: m, rec: rec, id: id, ctx: ctx, mode: mode}
		}
		return true
	})
	if err != nil {
		return nil, &StoreError{Op: "load", Err: err}
	}
	return sess, nil
}

// sharedHandle returns the one Session of a shared record, making it the
// first time the session comes back: requests on an existing session then
// allocate nothing. Several Managers on one store get a handle per request.
func (m *Manager) sharedHandle(rec *Record, id string) *Session {
	x := rec.more()
	for {
		if h := x.handle.Load(); h != nil {
			if h.m == m {
				return h
			}
			return &Session{m: m, rec: rec, id: id}
		}
		if h := (&Session{m: m, rec: rec, id: id}); x.handle.CompareAndSwap(nil, h) {
			return h
		}
	}
}

// lifetimeOf returns the lifetime of rec: its own when set by
// UpdateExpiration, else the Manager's.
func (m *Manager) lifetimeOf(rec *Record) time.Duration {
	if l := rec.ownLifetime(); l > 0 {
		return l
	}
	return m.lifetime
}

// cookieMaxAge returns the Max-Age for rec's cookie: 0 (browser session)
// unless the Manager or the session asked for a persistent cookie.
func (m *Manager) cookieMaxAge(rec *Record) time.Duration {
	if l := rec.ownLifetime(); l > 0 {
		return l
	}
	return m.expires
}

// slide implements sliding expiration for a loaded session: the expiry
// moves to now+lifetime once 1/16 of the lifetime has passed since it last
// moved, which bounds both the Set-Cookie headers and a remote store's
// writes to 16 per lifetime for a busy session.
// The cookie goes to c's response (h nil), the first of its name there, or
// into h.
func (m *Manager) slide(c core.Context, h http.Header, secure bool, s *Session, now time.Time) error {
	if !m.sliding {
		return nil
	}
	life := m.lifetimeOf(s.rec)
	target := now.UnixNano() + int64(life)
	if target-s.rec.expires.Load() < int64(life/16) {
		return nil
	}
	s.rec.expires.Store(target)
	if m.shared == nil {
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
		value, err := m.encodeCookie(s.ID())
		if err != nil {
			return err
		}
		if h == nil {
			c.AddResponseHeader("Set-Cookie", m.cookieHeader(secure, value, maxAge, now))
		} else {
			m.setCookie(h, secure, value, maxAge, now)
		}
	}
	return nil
}

// Destroy ends the request's session: its data is removed from the
// Database and emptied for every holder, and the response expires its
// cookie. A later Start in the same request begins a new session.
// DestroyHTTP is Destroy for net/http code.
func (m *Manager) Destroy(ctx core.Context) error { return m.destroy(exchange{c: ctx}) }

// DestroyHTTP is Destroy for net/http code (see StartHTTP for the session
// it acts on, inside and outside Wrap).
func (m *Manager) DestroyHTTP(w http.ResponseWriter, r *http.Request) error {
	return m.destroy(httpOf(w, r))
}

func (m *Manager) destroy(x exchange) error {
	s, err := m.start(x)
	if err != nil {
		return err
	}
	s.rec.mu.Lock()
	id, sent := s.id, s.cookieSent
	s.rec.clear()
	s.rec.dirty = false
	s.touch = false
	s.rec.mu.Unlock()
	s.rec.markDestroyed()
	if s.stored() {
		if err := m.db.Delete(s.writeContext(), id); err != nil {
			return &StoreError{Op: "delete", Err: err}
		}
	}
	if (!s.isNew || sent) && !s.hooked { // a hooked session's hook expires its cookie
		m.sendCookie(x, "", -1, m.now())
	}
	m.forget(x)
	return nil
}

// Regenerate gives the request's session a new ID with the same values and
// sends the new cookie; the old ID is dead once it returns. Call it at
// login (and at any privilege change) against session fixation.
// RegenerateHTTP is Regenerate for net/http code.
func (m *Manager) Regenerate(ctx core.Context) (*Session, error) {
	return m.regenerate(exchange{c: ctx})
}

// RegenerateHTTP is Regenerate for net/http code (see StartHTTP for the
// session it acts on, inside and outside Wrap).
func (m *Manager) RegenerateHTTP(w http.ResponseWriter, r *http.Request) (*Session, error) {
	return m.regenerate(httpOf(w, r))
}

func (m *Manager) regenerate(x exchange) (*Session, error) {
	s, err := m.start(x)
	if err != nil {
		return nil, err
	}
	s.rec.mu.Lock()
	oldID, sent := s.id, s.cookieSent
	s.rec.mu.Unlock()
	if s.isNew && !sent && !s.stored() {
		// Nothing of this session left the server: its ID is drawn at
		// the first write.
		s.rec.mu.Lock()
		s.id = ""
		s.rec.mu.Unlock()
		return s, nil
	}
	newID, err := NewID()
	if err != nil {
		return nil, err
	}
	var value string
	if !s.hooked { // a hooked session's hook sends the cookie of its ID then
		if value, err = m.encodeCookie(newID); err != nil {
			return nil, err
		}
	}
	if s.stored() && !s.rec.destroyed() {
		// Rename writes the record's current values under the new ID.
		// Pending changes stay marked dirty: saving them again before the
		// response is harmless, and clearing the mark could lose a write
		// made while Rename ran.
		if err := m.db.Rename(s.writeContext(), oldID, newID, s.rec); err != nil {
			return nil, &StoreError{Op: "rename", Err: err}
		}
	}
	s.rec.mu.Lock()
	s.id = newID
	s.cookieSent = true
	s.rec.mu.Unlock()
	if !s.hooked {
		m.sendCookie(x, value, m.cookieMaxAge(s.rec), m.now())
	}
	return s, nil
}

// UpdateExpiration gives the request's session its own lifetime (for
// example a "remember me" login of 30 days): it expires lifetime from now,
// slides by that lifetime from then on, and the response carries a
// persistent cookie of that Max-Age. A lifetime <= 0 returns the session to
// the Manager's default. It counts as a write: a new session is stored.
// UpdateExpirationHTTP is UpdateExpiration for net/http code.
func (m *Manager) UpdateExpiration(ctx core.Context, lifetime time.Duration) error {
	return m.updateExpiration(exchange{c: ctx}, lifetime)
}

// UpdateExpirationHTTP is UpdateExpiration for net/http code (see
// StartHTTP for the session it acts on, inside and outside Wrap).
func (m *Manager) UpdateExpirationHTTP(w http.ResponseWriter, r *http.Request, lifetime time.Duration) error {
	return m.updateExpiration(httpOf(w, r), lifetime)
}

func (m *Manager) updateExpiration(x exchange, lifetime time.Duration) error {
	s, err := m.start(x)
	if err != nil {
		return err
	}
	if lifetime < 0 {
		lifetime = 0
	}
	now := m.now()
	s.rec.setLifetime(lifetime)
	s.rec.SetExpiresAt(now.Add(m.lifetimeOf(s.rec)))
	// The lifetime is part of the record, so this is a full save.
	if err := s.write(func(*Record) bool { return true }); err != nil {
		return err
	}
	if s.hooked {
		return nil // the write marked the cookie; the hook sends it with the new Max-Age
	}
	value, err := m.encodeCookie(s.ID())
	if err != nil {
		return err
	}
	s.rec.mu.Lock()
	s.cookieSent = true
	s.rec.mu.Unlock()
	m.sendCookie(x, value, m.cookieMaxAge(s.rec), now)
	return nil
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
