// Package sessions keeps per-user state across requests of a vireo
// application: a Manager issues a cookie carrying a random session ID and
// keeps the session's values in a Database, in memory by default.
//
//	m := sessions.New(sessions.Config{})   // HttpOnly, SameSite=Lax, in memory
//	app.OnShutdown(func() { m.Close() })  // stops the memory store's sweeper
//	app.Use(m.Handler())                   // every route below has a session
//	app.Get("/login", func(ctx *vireo.Context) {
//		sess, err := m.Regenerate(ctx)     // new ID at a privilege change
//		if err != nil {
//			ctx.StopWithError(err)
//			return
//		}
//		sess.Set("user", "ann")
//		sess.SetFlash("notice", "welcome") // readable once
//	})
//	app.Get("/me", func(ctx *vireo.Context) {
//		ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous"))
//	})
//
// Without Handler, m.Start(ctx) (or m.StartE(ctx), which returns the store's
// error) starts the session on demand; MVC controllers receive it by
// declaring a *sessions.Session input. Plain net/http code uses m.Wrap and
// FromContext, or m.StartHTTP.
//
// # IDs and cookies
//
// IDs are 128 random bits from crypto/rand in 22 base64url characters.
// The cookie carries the ID alone, or, with Config.Encoding set to a
// *securecookie.SecureCookie, the ID signed with HMAC-SHA256 and encrypted
// when a block key is given. A request whose cookie is missing, malformed,
// oversized (Config.MaxCookieLength, 4096 by default), badly signed, or
// names an unknown or expired session gets a new session under a new
// server-made ID: a client-chosen ID is never adopted, so session fixation
// by planting an ID does not work, and Regenerate closes the remaining
// window at login. The cookie is HttpOnly and SameSite=Lax unless
// configured otherwise (DisableHTTPOnly, SameSite), Secure when asked or
// when the request came over TLS.
//
// # Lifetime
//
// Config.Expires is the lifetime of the session and of its cookie. When it
// is zero the cookie is a browser-session cookie (no Expires attribute) and
// the server keeps the session for Config.Lifetime, DefaultLifetime (20
// minutes) unless set: a server must forget sessions whose browser never
// comes back, or a client that never returns its cookie - a load generator,
// a crawler - would make memory grow without end.
//
// Expiration slides by default: each request that uses a session moves its
// expiry to now+lifetime once 1/16 of the lifetime has passed since the
// last move, re-sending a persistent cookie then (at most 16 Set-Cookie
// headers and 16 store writes per lifetime for a busy user).
// Config.FixedExpiration makes sessions end a lifetime after creation.
// UpdateExpiration gives one session its own lifetime and a persistent
// cookie ("remember me").
//
// # The in-memory database
//
// MemoryDatabase is 128 maps, each with its own RWMutex, chosen by a
// seeded hash of the ID, so concurrent requests rarely share a lock and
// reading an existing session takes a read lock only. The stored value is
// the session's Record itself, mutated in place under the Record's own
// lock: a Set is immediately the stored state, visible to every request
// and goroutine holding the session, and nothing is copied or saved back.
// A new session is stored on its first write; requests that only read
// store nothing.
//
// Expired sessions are removed when accessed and by a sweeper goroutine
// every minute (MemoryConfig.SweepInterval); Manager.Close (for the store
// the Manager created) or MemoryDatabase.Close stops it and waits for it.
// The store is also capped at DefaultMaxSessions (1,048,576) sessions: a
// full shard first drops expired sessions, then the one closest to expiry
// in a random sample of five. Under a flood of cookie-less requests, where
// each request creates a session, memory therefore stays below the cap and
// falls back as the 20-minute lifetime passes.
//
// Memory: a stored session holding one short string value takes 208 bytes
// of live heap (record, value slice, ID, map slot), about 210 MB for a
// million sessions, 330 bytes per session of memory obtained from the OS
// with the garbage collector's headroom (Go 1.26, linux/amd64):
//
//	go test -run '^$' -bench MemoryPerSession -benchtime=1000000x ./sessions
//
// The benchmarks beside the code measure GET /setget (Set then Get) per
// cookie-less request, which creates and stores a session each time
// (BenchmarkSetGetNewSession), on existing sessions whose cookie comes back
// (BenchmarkSetGetExistingSession, serial and with b.RunParallel), the
// store alone with one lock against the default shards
// (BenchmarkMemoryDatabaseParallel), and the heap under a capped flood
// (BenchmarkFloodCapped):
//
//	go test -run '^$' -bench . ./sessions
//
// # Other databases
//
// A Database (Load, Save, Touch, Delete, Rename, Close) stores whole
// records; a remote one (see the sessions/redis module) serializes a
// Snapshot and returns a fresh Record from each Load. Handler then saves a
// modified session once, after the handler chain and before the response
// leaves the server (or only moves its expiry with Touch); a session
// started with Start or StartE outside Handler is saved on each write. Use
// package sessiontest to check a Database against the same conformance
// suite as the built-in one.
//
// When the Database fails, the request that needs the session gets 503
// Service Unavailable - Handler stops the chain with a *StoreError, StartE
// returns it, Start stops the chain with it and returns a detached session
// that is never stored - never an empty session that would overwrite the
// user's data; the next request after the store recovers finds the session
// intact. A failed save after the handler has written its response can
// only be logged (Config.Logger).
package sessions
