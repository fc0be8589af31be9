// Package sessions keeps per-user state across requests of a vireo
// application: a Manager issues a cookie carrying a random session ID and
// keeps the session's values in a Database, in memory by default.
//
//	m := sessions.MustNew(sessions.WithCookie("sid")) // HttpOnly, SameSite=Lax, in memory
//	app.OnShutdown(func() { m.Close() })             // stops the memory store's sweeper
//	app.Use(m.Handler())                             // every route below has a session
//	app.Post("/login", func(ctx vireo.Context) {
//		sess, err := m.Regenerate(ctx)               // new ID at a privilege change
//		if err != nil {
//			ctx.StopWithError(err)                   // 503: the store is down
//			return
//		}
//		sess.Set("user", "ann")
//		sess.SetFlash("notice", "welcome")           // readable once
//		ctx.Redirect("/me", http.StatusSeeOther)
//	})
//	app.Get("/me", func(ctx vireo.Context) {
//		ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous"))
//	})
//
// # One entry point per operation and world
//
// New returns a Manager or the errors of its options; MustNew panics
// instead. Start returns the request's session (Handler calls it for every
// route below it; without Handler, call it where a session is needed), Get
// the one already started, Regenerate, Destroy and UpdateExpiration act on
// it. Each takes the request's vireo.Context. Plain net/http code has the
// same operations under the same names ending in HTTP, which take the
// handler's w and r (GetHTTP only r), with m.Wrap as the middleware:
//
//	mux.HandleFunc("/me", func(w http.ResponseWriter, r *http.Request) {
//		sess := sessions.GetHTTP(r)
//		io.WriteString(w, sess.GetString("user", "anonymous"))
//	})
//	http.ListenAndServe(addr, m.Wrap(mux))
//
// MVC controllers receive the session by declaring a *sessions.Session
// input.
//
// # IDs and cookies
//
// IDs are 128 random bits from crypto/rand in 22 base64url characters.
// The cookie carries the ID alone, or, with WithEncoding and a
// *securecookie.SecureCookie, the ID signed with HMAC-SHA256 and encrypted
// when a block key is given. A request whose cookie is missing, malformed,
// oversized (WithMaxCookieLength, 4096 by default), badly signed, or names
// an unknown or expired session gets a new, empty session: a client-chosen
// ID is never adopted, so session fixation by planting an ID does not work,
// and Regenerate closes the remaining window at login. The cookie is
// HttpOnly and SameSite=Lax unless configured otherwise (WithHTTPOnly,
// WithSameSite), Secure when asked (WithSecure) or when the client's
// connection is HTTPS: Context.IsTLS, the framework's one scheme check,
// which believes the X-Forwarded-Proto or Forwarded header of proxies
// trusted with core.WithTrustedProxies, so behind a TLS-terminating proxy
// the session cookie is Secure as HSTS and the CSRF cookie are (for plain
// net/http code, the functions ending in HTTP, the request's own TLS).
//
// A new session exists only in its request until a handler writes to it:
// then it draws its ID, the response gets its cookie and the store gets
// the session. A request that only reads its session (a public page, a
// 404, a static file) sends no cookie and stores nothing. Write to a
// session before writing the response: a cookie added after the response
// started never reaches the client, so a new session first written then
// is lost to its client (a store that copies records does not store it).
//
// # Saving, and failures
//
// With the in-memory store a session's changes are the stored state at
// once. With a Database that copies records (Redis), the changes of a
// request are saved just before the first byte of the response goes out -
// through vireo's before-write hook (core.Context.OnBeforeWrite) or Wrap's
// response writer - so a failed save still changes the response: the
// handler's response is replaced by 503 Service Unavailable (and a new
// session's cookie withdrawn), never a confirmed login whose session was
// lost. A handler that writes nothing gets the save after the chain, with
// the same 503 on failure. Changes made after the response started are
// saved once more when the response is finished - by a done hook
// (core.Context.OnDone), or by Wrap after its handler returns - so the
// next request finds them on every store; a failure of that save can no
// longer change the response and is logged. A new session first written
// after the response started is not saved: its cookie could not be sent,
// so no client holds its ID. Outside Wrap, the net/http functions (StartHTTP
// and the others) cannot see the response start, so each change is saved at
// once and a failure is logged.
//
// When the Database cannot load a session, the request that needs it gets
// 503 too - Handler stops the chain with a *StoreError, Start returns it -
// never an empty session that would overwrite the user's data; the next
// request after the store recovers finds the session intact.
//
// # Lifetime
//
// WithExpires sets the lifetime of the session and of its cookie. Without
// it the cookie is a browser-session cookie (no Expires attribute) and the
// server keeps the session for WithLifetime, DefaultLifetime (20 minutes)
// unless set: a server must forget sessions whose browser never comes back.
//
// Expiration slides by default: each request that uses a session moves its
// expiry to now+lifetime once 1/16 of the lifetime has passed since the
// last move, re-sending a persistent cookie then (at most 16 Set-Cookie
// headers and 16 store writes per lifetime for a busy user).
// WithFixedExpiration makes sessions end a lifetime after creation.
// UpdateExpiration gives one session its own lifetime and a persistent
// cookie ("remember me").
//
// # The in-memory database
//
// MemoryDatabase is 128 maps, each with its own RWMutex, chosen by the
// ID's own random bits, so concurrent requests rarely share a lock and
// reading a returning session takes a read lock only. The stored value is
// the session's Record itself, mutated in place under the Record's own
// lock, and the requests of a session share one *Session handle: a
// returning request allocates nothing for its session, and nothing is
// copied or saved back.
//
// Expired sessions are removed when accessed and by a sweeper goroutine
// every minute (WithSweepInterval); Manager.Close (for the store the
// Manager created) or MemoryDatabase.Close stops it and waits for it.
//
// The cap policy. The store holds at most DefaultMaxSessions (1,048,576)
// sessions (WithMaxSessions), split evenly among the shards, in two
// segments as in SLRU and 2Q caches. A session starts in probation; the
// first request that brings its cookie back moves it to the protected
// segment. A full shard first drops expired sessions, then the session
// that entered probation longest ago, and only when probation is empty the
// protected session closest to expiry among a random sample of five. A
// flood of clients that never return their cookie (a load generator, a
// crawler, an attack) therefore evicts only its own sessions: a user who
// came back once - every logged-in user, whose login redirect already
// brings the cookie back - stays logged in, and memory stays at the cap.
//
// Memory: a stored session holding one short string value takes 194 bytes
// of live heap (record with its first value inline, ID, map slot, its
// place in the probation queue), about 194 MB for a million sessions, 309
// bytes per session of memory obtained from the OS with the garbage
// collector's headroom (Go 1.26, linux/amd64):
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
// Snapshot and returns a fresh Record from each Load. A store that keeps
// the records it is given implements SharedDatabase as well and is
// treated like the in-memory one. Use package sessiontest to check a
// Database against the same conformance suite as the built-in one.
//
// # Several instances
//
// Instances behind a load balancer share their users' sessions through a
// remote Database - the sessions/redis module, on one Redis server, a Redis
// Cluster or a master/replica set under Sentinel - with the same cookie
// name and the same WithEncoding keys on every instance (each rejects the
// cookies of an instance signing with another key). No sticky sessions are
// needed: every request loads the session from the store, and a changed
// session is saved before its response goes out, so the next request, on
// any instance, sees the change. What holds when something fails:
//
//   - an instance dies: nothing is lost but its requests in flight; the
//     sessions are in the store;
//   - the store cannot be reached: requests that need a session answer 503,
//     a failed save replaces the response with 503 (and withdraws a new
//     session's cookie), and the stored sessions are intact when it is
//     back;
//   - a Redis master fails over: with sessions/redis's default on a Cluster
//     and under Sentinel, a save returns only once a replica has it (WAIT),
//     so every session a response confirmed survives the promotion;
//     requests during the failover answer 503, and the client finds the
//     new master by itself.
//
// _examples/cluster runs three instances behind nginx and tests an
// instance killed and a rolling restart under load; sessions/redis's tests
// kill a Cluster master and a Sentinel master under load.
//
// # Configuration
//
// Like every constructor of the framework, New takes functional options
// (WithCookie, WithExpires, WithDatabase, ...): a setting reads the same
// everywhere, options that are not given keep their documented defaults,
// and adding one breaks no caller. New reports every invalid option at
// once; nothing is validated per request.
package sessions
