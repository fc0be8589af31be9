// The HTTP server.
//
// Listen runs a net/http Server with defaults that are safe to expose:
// a ReadHeaderTimeout so a client trickling its headers cannot hold a
// connection (slowloris), an IdleTimeout for keep-alive connections and a
// bound on header size; on HTTP/1 over a TCP or Unix listener the first
// two are kept on a heartbeat (heartbeat.go). Bodies and responses are bounded by data rate
// instead of by one deadline (see deadline.go, WithMinRequestBodyRate and
// WithMinResponseRate): a client that trickles its body, announces a
// Content-Length it never sends or stops reading is cut after the grace
// period, and a large upload or download over a slow, steady link is not.
// So http.Server's ReadTimeout and WriteTimeout, which would cut the
// latter, are left at zero. A route that needs other rates (an upload from
// slow devices, a stream) gets them with the MinRequestBodyRate and
// MinResponseRate middleware. On SIGINT or SIGTERM (Listen and ListenTLS;
// Serve, like http.Server.Serve, leaves signals to its caller), or when
// Shutdown is called, the server stops accepting, in-flight requests finish
// (up to the shutdown timeout) and the OnShutdown hooks run; Listen returns
// after all of that.

package core

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vireo-go/vireo/internal/engine"
)

// Server defaults applied by Listen and Serve before the configure funcs.
// The request body and the response are bounded by data rate
// (DefaultMinBytesPerSecond after DefaultDataRateGrace), not by
// http.Server's ReadTimeout and WriteTimeout, which stay zero.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 1 << 20
)

// ErrServerRunning is returned by Serve when the application is already
// serving.
var ErrServerRunning = errors.New("vireo: the application is already serving")

// Listen listens on the TCP address addr and serves until shutdown; see
// Serve.
func (app *Application) Listen(addr string, configure ...func(*http.Server)) error {
	if err := app.Build(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return app.serve(ln, true, configure, nil)
}

// Serve serves on ln until Shutdown, then returns; like http.Server.Serve
// it installs no signal handling (Listen and ListenTLS do). configure
// funcs may change any field of the http.Server after the defaults are
// set. It returns nil after a graceful shutdown, and http.ErrServerClosed
// when the application was shut down before it started.
func (app *Application) Serve(ln net.Listener, configure ...func(*http.Server)) error {
	return app.serve(ln, false, configure, nil)
}

// serve runs the server on ln, over TLS when tlsf is not nil (ListenTLS),
// until Shutdown or, with signals, SIGINT or SIGTERM, which shut it down
// gracefully.
func (app *Application) serve(ln net.Listener, signals bool, configure []func(*http.Server), tlsf *tlsFiles) error {
	if err := app.Build(); err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{
		Handler:           app,
		ReadHeaderTimeout: DefaultReadHeaderTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(app.logger.Handler(), slog.LevelWarn),
	}
	if app.h2c {
		p := new(http.Protocols)
		p.SetHTTP1(true)
		p.SetHTTP2(true)
		p.SetUnencryptedHTTP2(true)
		srv.Protocols = p
	}
	for _, fn := range configure {
		fn(srv)
	}
	if app.http2 != nil {
		if err := app.http2.ConfigureServer(srv); err != nil {
			ln.Close()
			return err
		}
	}
	scheme := "http"
	if tlsf != nil {
		if app.engine != nil && srv.Protocols == nil {
			srv.Protocols = new(http.Protocols) // HTTP/2 is net/http's: offer HTTP/1.1 only (see WithEngine)
			srv.Protocols.SetHTTP1(true)
		}
		cfg, err := serverTLS(srv, tlsf)
		if err != nil {
			ln.Close()
			return err
		}
		srv.TLSConfig = cfg
		ln, scheme = tls.NewListener(ln, cfg), "https"
	}
	if tlsf == nil && app.engine == nil && app.http2 == nil {
		// net/http's HTTP/1 on a TCP or Unix listener: the header and idle
		// timeouts on the heartbeat (heartbeat.go)
		if ct := newConnTimeouts(srv, ln); ct != nil {
			ln = ct.listener(ln)
			done := ct.Serve()
			defer done()
		}
	}
	var server engine.Server = srv
	if app.engine != nil {
		es, err := app.engine.NewServer(app.serveExchange, engine.Config{Server: srv, BodyLimit: app.bodyLimit})
		if err != nil {
			ln.Close()
			return fmt.Errorf("vireo: engine %s: %w", app.engine.Name(), err)
		}
		server = es
	}
	app.serverMu.Lock()
	if app.closed {
		app.serverMu.Unlock()
		ln.Close()
		return http.ErrServerClosed
	}
	if app.server != nil {
		app.serverMu.Unlock()
		ln.Close()
		return ErrServerRunning
	}
	app.server = server
	app.serverMu.Unlock()

	if app.startupOut != nil {
		fmt.Fprintf(app.startupOut, "Now listening on: %s://%s\nApplication started. Press CTRL+C to shut down.\n", scheme, ln.Addr())
	}

	var sig <-chan struct{} // nil without signals: never ready
	if signals {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		sig = ctx.Done()
	}
	errc := make(chan error, 1)
	go func() { errc <- server.Serve(ln) }()

	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		<-app.shutdown // Shutdown was called: wait until it has finished
		return nil
	case <-sig:
		ctx, cancel := context.WithTimeout(context.Background(), app.shutdownTimeout)
		defer cancel()
		err := app.Shutdown(ctx)
		<-errc
		return err
	}
}

// Shutdown stops the server gracefully: no new connections, in-flight
// requests finish until ctx is done, then the OnShutdown hooks run. It is
// safe to call more than once and without a running server (the hooks still
// run once).
func (app *Application) Shutdown(ctx context.Context) error {
	app.serverMu.Lock()
	srv := app.server
	app.closed = true
	app.serverMu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
	}
	app.shutOnce.Do(func() {
		for _, fn := range app.onShutdown {
			fn()
		}
		close(app.shutdown)
	})
	return err
}

// OnShutdown registers fn to run once when the application shuts down, after
// in-flight requests finished (for example to stop a session sweeper).
func (app *Application) OnShutdown(fn func()) {
	app.onShutdown = append(app.onShutdown, fn)
}
