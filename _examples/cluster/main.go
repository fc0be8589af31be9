// Command cluster is an application made to run as several instances
// behind a load balancer (nginx here), with everything an instance must
// not keep to itself in Redis: the sessions (sessions/redis), the CSRF
// tokens (in the session, so a form served by one instance posts to
// another) and the rate limit's buckets (middleware/ratelimit/redis), so
// that any instance can serve any request and one can die or restart
// without logging anyone out.
//
//	redis-server --port 6379 --save '' &
//	export SESSION_HASH_KEY=$(head -c 32 /dev/urandom | base64)
//	cd _examples/cluster && go build -o /tmp/cluster .
//	ADDR=127.0.0.1:8081 INSTANCE=a /tmp/cluster &
//	ADDR=127.0.0.1:8082 INSTANCE=b /tmp/cluster &
//	ADDR=127.0.0.1:8083 INSTANCE=c /tmp/cluster &
//	nginx -p "$PWD" -c nginx.conf     # nginx.conf: see the README, or the test's template
//
// Configuration, all from the environment:
//
//	ADDR              listen address (default 127.0.0.1:8080)
//	INSTANCE          name sent in the X-Instance header (default: ADDR)
//	REDIS_ADDRS       one address (a single server), several (the seeds of a
//	                  Redis Cluster), or the Sentinels with REDIS_MASTER
//	                  (default 127.0.0.1:6379)
//	REDIS_MASTER      the Sentinel master name
//	SESSION_HASH_KEY  the cookie signing key, the same on every instance
//	TRUSTED_PROXIES   the load balancers' addresses or CIDRs, comma-separated
//	                  (default 127.0.0.1): only their X-Forwarded-For and
//	                  X-Forwarded-Proto are believed
//	RATE, BURST       the rate limit of /api/ per client IP, shared by all
//	                  instances (default 50 a second, bursts of 100)
//	DRAIN             how long a SIGTERM-ed instance keeps serving before it
//	                  shuts down (default 5s; see below)
//
// # Stopping without failing a request
//
// nginx (the open-source one) has no active health checks: it learns that
// an instance is gone when a connection to it fails. A request nginx has
// not sent yet (the connect was refused) it retries on the next instance,
// whatever its method; a request it has sent on a keep-alive connection
// that the instance then closes it retries only when it is idempotent
// (GET, HEAD, PUT, DELETE...), and answers 502 to a POST, which might
// have been applied. So an instance that stops must not close a keep-alive
// connection under nginx's feet. On SIGTERM this program:
//
//  1. closes its listener: nginx's next connect is refused, which it
//     retries on another instance and which takes this one out for
//     fail_timeout; /readyz answers 503 (for balancers that poll it, on
//     the connections they have);
//  2. keeps serving, for DRAIN, the keep-alive connections nginx already
//     has, each response with "Connection: close", so nginx drops them one
//     response at a time, and the idle ones it drops by itself after its
//     upstream keepalive_timeout, which must be shorter than DRAIN;
//  3. then shuts down like vireo's Listen: requests in flight finish, the
//     OnShutdown hooks run.
//
// Go's own Shutdown closes idle connections at once, and a request nginx
// is writing on one at that moment fails (502 for a POST); after the drain
// nginx has closed them all itself. One race is left that no server can
// close: a connection that completed its handshake but was not accepted
// yet when the listener closes is reset. With keep-alive upstreams nginx
// rarely opens a connection, so this is rare (see the README for what the
// test measures), and only a balancer that stops sending before SIGTERM -
// active health checks on /readyz (HAProxy, Envoy, nginx Plus), or
// Kubernetes removing the endpoint - closes it.
//
// vireo's Listen shuts down at SIGTERM at once, which suits a balancer
// that already stopped sending (Kubernetes after its preStop delay); this
// program runs the http.Server itself, with Listen's defaults, to drain
// first. /healthz and /readyz are the health package's: /healthz answers
// 200 while the process serves, /readyz 200 while it is not shutting down
// and Redis answers its PING.
//
// Routes: GET /login (a form with its CSRF token), POST /login (demo users
// ann/ann-pass and bob/bob-pass), GET /me (the user, a counter and the CSRF
// token as JSON, 401 when logged out), POST /notes (CSRF-checked; adds one
// to the counter), POST /logout, GET /whoami (the client address and
// scheme the instance believes), GET /api/ping (rate-limited),
// GET /healthz, GET /readyz.
package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"html"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/health"
	"github.com/vireo-go/vireo/middleware"
	ratelimitredis "github.com/vireo-go/vireo/middleware/ratelimit/redis"
	"github.com/vireo-go/vireo/sessions"
	sessionsredis "github.com/vireo-go/vireo/sessions/redis"
)

// users are the demo accounts: name -> password. A real application
// stores password hashes (bcrypt, argon2id), never passwords.
var users = map[string]string{"ann": "ann-pass", "bob": "bob-pass"}

// config is what newApp needs from the environment.
type config struct {
	instance  string
	hashKey   []byte
	trusted   []string
	sessionDB *sessionsredis.Database
	limiter   middleware.RateStore
}

// server state shared by the handlers and main's shutdown sequence.
type server struct {
	draining atomic.Bool
}

// sessionTokens keeps the CSRF token in the session, so the token an
// instance put in a form is the one any other instance checks.
type sessionTokens struct{}

func (sessionTokens) Token(ctx vireo.Context) string {
	return sessions.Get(ctx).GetString(middleware.CSRFField, "")
}

func (sessionTokens) SetToken(ctx vireo.Context, token string) {
	sessions.Get(ctx).Set(middleware.CSRFField, token)
}

// newApp builds one instance's application.
func newApp(cfg config, srv *server) (*vireo.Application, error) {
	app := vireo.New(vireo.WithTrustedProxies("X-Forwarded-For", cfg.trusted...))
	m, err := sessions.New(
		sessions.WithCookie("cluster_sid"),
		sessions.WithEncoding(securecookie.New(cfg.hashKey, nil)),
		sessions.WithDatabase(cfg.sessionDB),
	)
	if err != nil {
		return nil, err
	}
	limit, err := middleware.RateLimit(middleware.WithRateStore(cfg.limiter))
	if err != nil {
		return nil, err
	}
	app.UseBeforeRouting(func(ctx vireo.Context) {
		h := ctx.ResponseHeader()
		h.Set("X-Instance", cfg.instance)
		if srv.draining.Load() {
			h.Set("Connection", "close") // see the package comment
		}
		ctx.Next()
	})
	// /healthz: the process answers; /readyz: it is not shutting down and
	// its Redis answers.
	checks, err := health.New(
		health.WithReadyCheck("serving", func(context.Context) error {
			if srv.draining.Load() {
				return errors.New("shutting down")
			}
			return nil
		}, 0),
		health.WithReadyCheck("redis", cfg.sessionDB.Ping, time.Second),
	)
	if err != nil {
		return nil, err
	}
	checks.Register(app)
	app.Get("/whoami", func(ctx vireo.Context) {
		ctx.JSON(map[string]string{"client": ctx.ClientIP(), "scheme": ctx.Scheme(), "instance": cfg.instance})
	})
	app.Get("/api/ping", limit, func(ctx vireo.Context) { ctx.Text("pong") })

	pages := app.Group("/", m.Handler(), middleware.MustCSRF(middleware.WithCSRFStore(sessionTokens{})))
	pages.Get("/login", func(ctx vireo.Context) {
		ctx.HTML(`<form method="post" action="/login">
<input type="hidden" name="csrf_token" value="` + html.EscapeString(middleware.CSRFToken(ctx)) + `">
<input name="user"> <input name="password" type="password"> <button>Log in</button></form>`)
	})
	pages.Post("/login", func(ctx vireo.Context) {
		user, pass := ctx.PostValue("user"), ctx.PostValue("password")
		want, ok := users[user]
		if !ok || subtle.ConstantTimeCompare([]byte(pass), []byte(want)) != 1 {
			ctx.StopWithError(vireo.NewHTTPError(http.StatusUnauthorized, "wrong user name or password"))
			return
		}
		// A new session ID and a new CSRF token at login: whatever was
		// seen before is worthless after, on every instance.
		sess, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err) // 503 when Redis is unreachable
			return
		}
		sess.Set("user", user)
		sess.Set("notes", 0)
		middleware.RotateCSRFToken(ctx)
		ctx.Redirect("/me", http.StatusSeeOther)
	})
	pages.Get("/me", func(ctx vireo.Context) {
		sess := sessions.Get(ctx)
		user := sess.GetString("user", "")
		if user == "" {
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		ctx.JSON(map[string]any{"user": user, "notes": sess.GetInt("notes", 0), "csrf": middleware.CSRFToken(ctx), "instance": cfg.instance})
	})
	pages.Post("/notes", func(ctx vireo.Context) {
		sess := sessions.Get(ctx)
		if sess.GetString("user", "") == "" {
			ctx.StopWithStatus(http.StatusUnauthorized)
			return
		}
		n := sess.GetInt("notes", 0) + 1
		sess.Set("notes", n)
		ctx.Text(strconv.Itoa(n)) // sent only once the session is saved, or 503
	})
	pages.Post("/logout", func(ctx vireo.Context) {
		if err := m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.Redirect("/login", http.StatusSeeOther)
	})
	return app, app.Build()
}

func main() {
	addr := cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")
	redisAddrs := strings.Split(cmp.Or(os.Getenv("REDIS_ADDRS"), sessionsredis.DefaultAddr), ",")
	master := os.Getenv("REDIS_MASTER")
	drain, err := time.ParseDuration(cmp.Or(os.Getenv("DRAIN"), "5s"))
	if err != nil {
		log.Fatalf("DRAIN: %v", err)
	}
	rate, err1 := strconv.ParseFloat(cmp.Or(os.Getenv("RATE"), "50"), 64)
	burst, err2 := strconv.Atoi(cmp.Or(os.Getenv("BURST"), "100"))
	if err := errors.Join(err1, err2); err != nil {
		log.Fatalf("RATE/BURST: %v", err)
	}

	dbOpts := []sessionsredis.Option{sessionsredis.WithAddrs(redisAddrs...), sessionsredis.WithPrefix("cluster-example:session:")}
	rlOpts := []ratelimitredis.Option{ratelimitredis.WithAddrs(redisAddrs...), ratelimitredis.WithPrefix("cluster-example:ratelimit:")}
	if master != "" {
		dbOpts = append(dbOpts, sessionsredis.WithMasterName(master))
		rlOpts = append(rlOpts, ratelimitredis.WithMasterName(master))
	}
	db, err := sessionsredis.New(dbOpts...)
	if err != nil {
		log.Fatal(err)
	}
	limiter, err := ratelimitredis.New(rate, burst, rlOpts...)
	if err != nil {
		log.Fatal(err)
	}
	var trusted []string
	for _, p := range strings.Split(cmp.Or(os.Getenv("TRUSTED_PROXIES"), "127.0.0.1"), ",") {
		trusted = append(trusted, strings.TrimSpace(p))
	}
	srv := &server{}
	app, err := newApp(config{
		instance:  cmp.Or(os.Getenv("INSTANCE"), addr),
		hashKey:   hashKey(),
		trusted:   trusted,
		sessionDB: db,
		limiter:   limiter,
	}, srv)
	if err != nil {
		log.Fatal(err)
	}
	app.OnShutdown(func() { db.Close(); limiter.Close() })
	if err := serve(app, srv, addr, drain); err != nil {
		log.Fatal(err)
	}
}

// serve runs app on addr until SIGINT or SIGTERM, then drains for drain
// and shuts down (see the package comment).
func serve(app *vireo.Application, srv *server, addr string, drain time.Duration) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           app,
		ReadHeaderTimeout: vireo.DefaultReadHeaderTimeout,
		IdleTimeout:       vireo.DefaultIdleTimeout,
		MaxHeaderBytes:    vireo.DefaultMaxHeaderBytes,
	}
	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Printf("listening on %s", ln.Addr())
	select {
	case err := <-errc:
		return err
	case <-sig.Done():
	}
	// Stop taking connections at once: nginx's next connect is refused,
	// which it retries on another instance whatever the method, and it
	// takes this one out for its fail_timeout.
	srv.draining.Store(true)
	ln.Close()
	if err := <-errc; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	log.Printf("draining for %v", drain)
	time.Sleep(drain)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = hs.Shutdown(ctx)
	app.Shutdown(ctx) // runs the OnShutdown hooks
	log.Print("stopped")
	return err
}

// hashKey returns the cookie signing key from $SESSION_HASH_KEY (base64,
// or the raw string). Every instance must use the same key, or each
// rejects the others' cookies.
func hashKey() []byte {
	env := os.Getenv("SESSION_HASH_KEY")
	if env == "" {
		log.Print("SESSION_HASH_KEY is not set: using a random key, so other instances cannot read this one's cookies")
		key := make([]byte, 32)
		rand.Read(key)
		return key
	}
	if key, err := base64.StdEncoding.DecodeString(env); err == nil && len(key) >= 32 {
		return key
	}
	return []byte(env)
}
