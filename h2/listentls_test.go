package h2

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// TestListenTLSServesOwnPath: core's ListenTLS with WithHTTP2 hands its h2
// connections to this server (core makes the TLS configuration after the
// configure funcs and ConfigureServer ran, offering h2), and Go's client
// negotiates HTTP/2 with it.
func TestListenTLSServesOwnPath(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(slog.New(slog.DiscardHandler)), core.WithHTTP2(MustNew()))
	app.Get("/", func(c core.Context) { c.Text("hello over " + c.Request().Proto) })
	var ours atomic.Int32
	count := func(hs *http.Server) {
		next := hs.Handler
		hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := w.(*responseWriter); ok {
				ours.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}
	addr, pool, _ := listenTLS(t, app, count)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	defer client.CloseIdleConnections()
	res, err := client.Get("https://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "hello over HTTP/2.0" || ours.Load() != 1 {
		t.Errorf("%q, %d requests on this server's writer; want HTTP/2 through it", body, ours.Load())
	}
}

// TestWithH2CServesOwnPath: with core's WithH2C beside WithHTTP2, the
// cleartext prior-knowledge connections go to this server too.
func TestWithH2CServesOwnPath(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil), core.WithH2C(), core.WithHTTP2(MustNew(WithMaxConcurrentStreams(77))))
	app.Get("/", func(c core.Context) { c.Text("hello") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Serve(ln) }()
	defer func() { app.Shutdown(context.Background()); <-done }()
	if v, ok := h2cMaxStreams(t, ln.Addr().String()); !ok || v != 77 {
		t.Fatalf("WithH2C and WithHTTP2: SETTINGS_MAX_CONCURRENT_STREAMS %d %v, want 77 (this server)", v, ok)
	}
}
