// This file connects the Manager to requests: the one form both worlds'
// operations are turned into (exchange), the middleware of both worlds
// (Handler for vireo, Wrap for net/http), and the save that runs just
// before a response goes out.
//
// A request's session is kept where later code of the same request finds
// it: in ctx.Values() under ValuesKey for vireo, in the request context
// (through the exchange Wrap makes) for net/http. Changes to a session of a
// Database that copies records are saved once, at the last moment a failure
// can still change the response: vireo's before-write hook
// (core.Context.OnBeforeWrite), or Wrap's writer, runs the save when the
// status line is about to go out, and a failed save turns the response into
// 503 Service Unavailable instead of a page whose session change was lost.
// The same hook sends a new session's cookie through the Context, so that
// no session holds a vireo response's header map (see cookie.go). Changes
// made after the response started are saved once it is finished: by a done
// hook (core.Context.OnDone) that the before-write hook registers, or by
// Wrap after next returns; a failure there is logged, the response being
// gone. A new session first written after the response started is not
// saved: its cookie could not be sent, so no client holds its ID.

package sessions

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"time"

	"github.com/vireo-go/vireo/core"
)

// ValuesKey is the key of the *Session in ctx.Values().
const ValuesKey = "vireo.session"

// exchange is a request and its response in the one form the operations
// of both worlds share: a vireo request (c), or a net/http one (hx, when
// not nil). Start and the other vireo functions build it around their
// core.Context, StartHTTP and the other net/http ones with httpOf. It is
// passed by value and its core.Context is only ever called as the
// concrete type, so a core.Context stays on its caller's stack.
type exchange struct {
	c  core.Context
	hx *httpExchange
}

// httpExchange is a net/http request and its response. Inside Wrap it is
// stored in the request context, so that every net/http function of the
// request finds it and its session.
type httpExchange struct {
	w       http.ResponseWriter
	r       *http.Request
	sess    *Session
	wrapped *saveWriter // Wrap's writer; nil outside Wrap
}

type ctxKey struct{}

// httpOf returns the exchange of a net/http handler's w and r: inside Wrap
// the request's own (its session is found again and saved before the
// response); outside, a new one, whose session's changes to a copying
// Database are saved at once.
func httpOf(w http.ResponseWriter, r *http.Request) exchange {
	if hx, _ := r.Context().Value(ctxKey{}).(*httpExchange); hx != nil {
		return exchange{hx: hx}
	}
	return exchange{hx: &httpExchange{w: w, r: r}}
}

// secureOf reports whether the client's connection is HTTPS, the one
// scheme check of the framework: for a vireo request, Context.IsTLS, which
// believes X-Forwarded-Proto or Forwarded from the proxies trusted with
// core.WithTrustedProxies, as HSTS and the CSRF cookie do; for plain
// net/http code, which has no trusted proxies, the request's own TLS.
func secureOf(x exchange) bool {
	if x.hx != nil {
		return x.hx.r.TLS != nil
	}
	return x.c.IsTLS()
}

// sendCookie sets the session cookie carrying value on x's response, for
// a Destroy, Regenerate or UpdateExpiration of a session that was not new
// (a new one's is sent by its hook), replacing a Set-Cookie of the same
// name already there (see setCookie). A vireo response gets it in one
// SetResponseHeaders call, which hands the header map to no one (an engine
// that reuses its map keeps the reuse); a net/http one in its map.
func (m *Manager) sendCookie(x exchange, value string, maxAge time.Duration, now time.Time) {
	tls := secureOf(x)
	if x.hx != nil {
		m.setCookie(x.hx.w.Header(), tls, value, maxAge, now)
		return
	}
	v := m.cookieHeader(tls, value, maxAge, now)
	x.c.SetResponseHeaders(core.NewHeaderFieldFunc("Set-Cookie", func(list []string) []string {
		return m.withCookie(list, v)
	}))
}

// Get returns the session started for this request (by Handler, Wrap or
// Start), or nil when none was. GetHTTP is Get for net/http code.
func Get(ctx core.Context) *Session {
	if s, _ := ctx.Values().Get(ValuesKey).(*Session); s != nil {
		return s
	}
	// A session Wrap started, reached through vireo's WrapMiddleware
	// (RequestContext: without making an engine other than net/http build
	// the *http.Request).
	if hx, _ := ctx.RequestContext().Value(ctxKey{}).(*httpExchange); hx != nil {
		return hx.sess
	}
	return nil
}

// GetHTTP is Get for net/http code: the session Wrap (or StartHTTP inside
// Wrap) started for r, or nil when none was. Outside Wrap nothing keeps a
// session between calls, so GetHTTP returns nil: keep what StartHTTP
// returned.
func GetHTTP(r *http.Request) *Session {
	if hx, _ := r.Context().Value(ctxKey{}).(*httpExchange); hx != nil {
		return hx.sess
	}
	return nil
}

// forget drops the request's session after Destroy, so that a later Start
// begins a new one.
func (m *Manager) forget(x exchange) {
	if hx := x.hx; hx != nil {
		if hx.sess != nil && hx.sess.m == m {
			hx.sess = nil
		}
		return
	}
	x.c.Values().Delete(ValuesKey)
}

// Handler returns vireo middleware that starts the session before the rest
// of the chain, so handlers (and MVC's *sessions.Session injection) find it
// with Get. When the Database fails it stops the chain with 503 Service
// Unavailable (a *StoreError through ctx.StopWithError).
func (m *Manager) Handler() core.Handler {
	return func(c core.Context) {
		if _, err := m.startCore(c); err != nil {
			m.log.Error("sessions: cannot start session", "err", err)
			c.StopWithError(err)
			return
		}
		c.Next()
	}
}

// Wrap is net/http middleware: it starts the session, which next finds with
// GetHTTP(r) and StartHTTP, RegenerateHTTP, DestroyHTTP and
// UpdateExpirationHTTP act on, and saves its changes just before the
// response goes out. A Database error answers 503 Service Unavailable, without calling
// next when the session cannot be loaded, instead of next's response when
// its changes cannot be saved.
func (m *Manager) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := &httpExchange{}
		sw := &saveWriter{ResponseWriter: w, x: x}
		x.w, x.wrapped = sw, sw
		x.r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, x))
		if _, err := m.startNetHTTP(x); err != nil {
			m.log.Error("sessions: cannot start session", "err", err)
			http.Error(w, "503 Service Unavailable: session store unavailable", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(sw, x.r)
		sw.finish()
	})
}

// saveWriter is Wrap's response writer: the first WriteHeader, Write or
// Flush saves the request's session first, and answers 503 instead when
// that fails. Unwrap gives http.ResponseController the server's writer.
type saveWriter struct {
	http.ResponseWriter
	x       *httpExchange
	started bool
	refused error
}

// beforeWrite saves the session once and reports a failure.
func (w *saveWriter) beforeWrite() error {
	if w.started {
		return w.refused
	}
	w.started = true
	if s := w.x.sess; s != nil && s.m.shared == nil {
		if err := s.saveBeforeResponse(w.Header()); err != nil {
			w.refused = err
			http.Error(w.ResponseWriter, "503 Service Unavailable: session store unavailable", http.StatusServiceUnavailable)
		}
	}
	return w.refused
}

// finish runs after next: the save before the response when next wrote
// nothing, else the save of the changes made after the response started,
// for a session that exists in the store (not a new one first written
// after it: its cookie did not go out). A failure then is logged: the
// response is gone.
func (w *saveWriter) finish() {
	if !w.started {
		w.beforeWrite()
		return
	}
	if w.refused != nil {
		return
	}
	if s := w.x.sess; s != nil && s.m.shared == nil {
		s.saveAfterResponse()
	}
}

// WriteHeader saves the session, then sends code (informational codes go
// out at once).
func (w *saveWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if w.beforeWrite() == nil {
		w.ResponseWriter.WriteHeader(code)
	}
}

// Write saves the session, then writes p; after a failed save it writes
// nothing and returns the error.
func (w *saveWriter) Write(p []byte) (int, error) {
	if err := w.beforeWrite(); err != nil {
		return 0, err
	}
	return w.ResponseWriter.Write(p)
}

// Flush saves the session, then flushes the server's writer.
func (w *saveWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush that reports failure (a failed save, a writer that
// cannot flush), for http.ResponseController.
func (w *saveWriter) FlushError() error {
	if err := w.beforeWrite(); err != nil {
		return err
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack saves the session, then hands the connection over (see
// http.Hijacker): the caller writes its own response on it. After a
// failed save, the client has its 503 and Hijack returns the error.
func (w *saveWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if err := w.beforeWrite(); err != nil {
		return nil, nil, err
	}
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap returns the server's writer, for http.ResponseController.
func (w *saveWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// saveHook is the before-write hook of a session started through vireo
// whose Database copies records, or that is new (a pointer conversion of
// the Session: registering it allocates nothing). It saves the session's
// changes, and sends a new session's cookie (Session.sendCookie), once,
// just before the response goes out: the session then never holds its
// response's header map, which the fast engine reuses for its next request.
type saveHook Session

// BeforeWrite saves the session; an error refuses the response (503), and
// a new session, which then does not exist, sends no cookie. Once saved, a
// session that exists in the store (loaded, or new and written to, whose
// cookie goes out now) gets its done hook, for the changes made after the
// response started; a new session nothing wrote to yet gets none, so a
// first write after the response started stores nothing.
func (h *saveHook) BeforeWrite(c core.Context) error {
	s := (*Session)(h)
	if s.m.shared == nil {
		if err := s.Save(); err != nil {
			s.m.log.Error("sessions: cannot save session", "err", err)
			return err
		}
		if s.stored() {
			c.OnDone((*doneHook)(s))
		}
	}
	if s.hooked {
		s.sendCookie(c)
	}
	return nil
}

// doneHook is the done hook of a session of a Database that copies
// records, registered by its before-write hook once it saved (or by Start
// when the response had already started): it saves the changes made after
// the response started, once the response is finished. Like saveHook it is
// a pointer conversion of the Session, so registering it allocates
// nothing.
type doneHook Session

// Done saves the session's pending changes, if any, unless it is a new
// session first written after the response started: its cookie never went
// out, so no client holds its ID and storing it would leave an orphan
// record. A failure is logged: the response is gone.
func (h *doneHook) Done(core.Context) { (*Session)(h).saveAfterResponse() }

// saveAfterResponse saves the changes made after the response started,
// for a session that exists in the store (not a new one first written
// after it: see doneHook); a failure is logged, the response being gone.
// doneHook and Wrap's finish call it.
func (s *Session) saveAfterResponse() {
	if !s.stored() {
		return
	}
	if err := s.Save(); err != nil {
		s.m.log.Error("sessions: cannot save session changed after the response started", "err", err)
	}
}

// saveBeforeResponse saves pending changes; when that fails it withdraws a
// new session's cookie (the session does not exist) and returns the error
// that becomes the 503.
func (s *Session) saveBeforeResponse(h http.Header) error {
	err := s.Save()
	if err == nil {
		return nil
	}
	s.m.log.Error("sessions: cannot save session", "err", err)
	if s.isNew {
		s.m.withdrawCookie(h)
	}
	return err
}
