// Command nethttp-sessions is the floor of the sessions comparison: GET
// /setget on the standard library alone with the smallest correct
// hand-written in-memory session store, to price what a framework's session
// layer adds.
//
// The store is one map from session ID to session under one mutex. An ID is
// 128 bits from crypto/rand in unpadded base64url, as Vireo makes them. The
// cookie has Vireo's attributes (sessionid=<ID>; Path=/; HttpOnly;
// SameSite=Lax, a browser-session cookie); it is read with
// http.Request.Cookie and written as one string assigned to the header map,
// since an ID never needs escaping. A session lives 20 minutes after its last use
// (Vireo's default lifetime, sliding); an expired session is never served
// and is replaced on its next request. The store holds at most maxSessions
// (Vireo's default cap): a new session then evicts an arbitrary one (Go
// starts a map iteration at a random entry), so a flood of cookie-less
// requests cannot grow memory without bound.
//
// A request without a valid session cookie gets a new session and its
// Set-Cookie; the handler sets "key" to "value", reads it back and writes
// it.
//
// The http.Server has the timeouts Vireo sets by default (core.Serve), so
// the ratio to this app prices the framework, not a safety setting; the
// test keeps the values equal to core's.
package main

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// The defaults of Vireo's sessions.
const (
	cookieName  = "sessionid"
	cookieAttrs = "; Path=/; HttpOnly; SameSite=Lax"
	lifetime    = 20 * time.Minute
	maxSessions = 1 << 20
)

// textPlain is the Content-Type, assigned to the header map directly (the
// key is canonical) and shared by every response: net/http only reads it.
var textPlain = []string{"text/plain; charset=utf-8"}

// session is one client's data and the time it expires. A session holds a
// few values, so a slice searched in order is cheaper than a map, in memory
// and in garbage collection.
type session struct {
	values  []value
	expires time.Time
}

// value is one key of a session and its value.
type value struct{ key, val string }

// set sets key to val.
func (s *session) set(key, val string) {
	for i := range s.values {
		if s.values[i].key == key {
			s.values[i].val = val
			return
		}
	}
	s.values = append(s.values, value{key, val})
}

// get returns the value of key, or "".
func (s *session) get(key string) string {
	for i := range s.values {
		if s.values[i].key == key {
			return s.values[i].val
		}
	}
	return ""
}

// store maps session IDs to sessions.
type store struct {
	mu       sync.Mutex
	sessions map[string]*session
	max      int // most sessions held
}

func newStore(max int) *store {
	return &store{sessions: make(map[string]*session), max: max}
}

// newID returns 128 random bits in unpadded base64url (22 characters).
func newID() (string, error) {
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw[:]), nil
}

// setget starts or resumes the session, sets "key" to "value", reads it
// back and writes it.
func (st *store) setget(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var id string
	if c, err := r.Cookie(cookieName); err == nil {
		id = c.Value
	}
	st.mu.Lock()
	s := st.live(id, now)
	if s == nil {
		st.mu.Unlock()
		var err error
		if id, err = newID(); err != nil {
			http.Error(w, "session: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header()["Set-Cookie"] = []string{cookieName + "=" + id + cookieAttrs}
		s = &session{}
		st.mu.Lock()
		st.add(id, s)
	}
	s.expires = now.Add(lifetime)
	s.set("key", "value")
	v := s.get("key")
	st.mu.Unlock()
	w.Header()["Content-Type"] = textPlain
	io.WriteString(w, v)
}

// live returns the session id if it has not expired, and removes it if it
// has. st.mu must be held.
func (st *store) live(id string, now time.Time) *session {
	s := st.sessions[id]
	if s != nil && now.After(s.expires) {
		delete(st.sessions, id)
		return nil
	}
	return s
}

// add stores s under id, first evicting an arbitrary session when the store
// is full. st.mu must be held.
func (st *store) add(id string, s *session) {
	if len(st.sessions) >= st.max {
		for old := range st.sessions {
			delete(st.sessions, old)
			break
		}
	}
	st.sessions[id] = s
}

func main() {
	st := newStore(maxSessions)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /setget", st.setget)

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := newServer(mux).Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newServer returns the server of this app, with the limits Vireo's Serve
// sets by default (the test compares them): a deadline for the request
// headers, an idle timeout and a header size
// bound. Vireo bounds request bodies and responses by a minimum data rate
// (armed only while a body is read or a large response is written, neither
// of which this app does) and leaves http.Server's ReadTimeout and
// WriteTimeout at zero, as does this app.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}
