// This file wires the Manager to vireo's routing core.
//
// The session of a request is kept in ctx.Values() under ContextKey, so
// Start called twice, Handler followed by Start, and Get anywhere later in
// the chain all return the same *Session. Store failures follow one rule:
// a request that needs its session and cannot have it gets 503 Service
// Unavailable, never an empty session standing in for the user's data.

package sessions

import (
	"time"

	"github.com/vireo-go/vireo/core"
)

// ContextKey is the key of the *Session in ctx.Values().
const ContextKey = "vireo.session"

// Get returns the session started for this request by Handler or Start,
// or nil when none was started.
func Get(ctx *core.Context) *Session {
	s, _ := ctx.Values().Get(ContextKey).(*Session)
	return s
}

// Handler returns middleware that starts the session before the rest of
// the chain, so handlers (and MVC's *sessions.Session injection) find it
// with Get, and saves it once after the chain when the Database is not the
// in-memory one. When the Database fails, it stops the chain with 503
// Service Unavailable (a *StoreError through ctx.StopWithError). A failed
// save after the chain cannot change a response already written: it is
// logged.
func (m *Manager) Handler() core.Handler {
	return func(ctx *core.Context) {
		s, err := m.startCtx(ctx, saveAtEnd)
		if err != nil {
			m.log.Error("sessions: cannot start session", "err", err)
			ctx.StopWithError(err)
			return
		}
		ctx.Next()
		if err := s.Save(); err != nil {
			m.log.Error("sessions: cannot save session", "id", s.ID(), "err", err)
		}
	}
}

// StartE returns the request's session, creating it (and setting its
// cookie) when the request has no valid cookie of a live session. Call it
// before writing the response. A session started here without Handler
// saves each write at once (the in-memory store needs no saving at all).
// The error is a *StoreError when the Database cannot be reached; pass it
// to ctx.StopWithError for a 503.
func (m *Manager) StartE(ctx *core.Context) (*Session, error) {
	return m.startCtx(ctx, saveEachWrite)
}

// Start is StartE for handlers that do not check errors, which is safe with
// the in-memory Database (it cannot fail). When a Database fails, Start
// logs the error, stops the chain with 503 (ctx.StopWithError) and returns
// a detached, empty session whose writes are never stored, so the caller
// cannot crash on nil nor overwrite the user's stored data.
func (m *Manager) Start(ctx *core.Context) *Session {
	s, err := m.StartE(ctx)
	if err != nil {
		m.log.Error("sessions: cannot start session", "err", err)
		ctx.StopWithError(err)
		return &Session{m: m, rec: newRecord(m.now().Add(m.lifetime)), isNew: true, detached: true}
	}
	return s
}

func (m *Manager) startCtx(ctx *core.Context, mode saveMode) (*Session, error) {
	if s := Get(ctx); s != nil && s.m == m && !s.rec.destroyed() {
		return s, nil
	}
	s, err := m.start(ctx.ResponseWriter(), ctx.Request(), mode)
	if err != nil {
		return nil, err
	}
	ctx.Values().Set(ContextKey, s)
	return s, nil
}

// Destroy ends the request's session: its data is removed from the
// Database and emptied for every holder, and the response expires its
// cookie. A later Start in the same request creates a new session.
func (m *Manager) Destroy(ctx *core.Context) error {
	s, err := m.StartE(ctx)
	if err != nil {
		return err
	}
	if err := m.DestroyHTTP(ctx.ResponseWriter(), ctx.Request(), s); err != nil {
		return err
	}
	ctx.Values().Delete(ContextKey)
	return nil
}

// Regenerate gives the request's session a new ID with the same values and
// sends the new cookie; the old ID is dead once it returns. Call it at
// login (and at any privilege change) against session fixation.
func (m *Manager) Regenerate(ctx *core.Context) (*Session, error) {
	s, err := m.StartE(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.RegenerateHTTP(ctx.ResponseWriter(), ctx.Request(), s); err != nil {
		return nil, err
	}
	return s, nil
}

// UpdateExpiration gives the request's session its own lifetime and a
// persistent cookie of that Max-Age (a "remember me" login); lifetime <= 0
// returns it to the Manager's default. See UpdateExpirationHTTP.
func (m *Manager) UpdateExpiration(ctx *core.Context, lifetime time.Duration) error {
	s, err := m.StartE(ctx)
	if err != nil {
		return err
	}
	return m.UpdateExpirationHTTP(ctx.ResponseWriter(), ctx.Request(), s, lifetime)
}
