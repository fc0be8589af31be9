package h2

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/testcert"
)

// TestListenTLSServesOwnPath: core's ListenTLS with Configure hands its h2
// connections to this server (core makes the TLS configuration after the
// configure funcs ran, offering h2 since TLSNextProto has it).
func TestListenTLSServesOwnPath(t *testing.T) {
	certFile, keyFile, pool := testcert.Write(t, t.TempDir())
	app := core.New(core.WithStartupOutput(nil))
	app.Get("/", func(c core.Context) { c.Text("hello over " + c.Request().Proto) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var conns atomic.Int32
	count := func(hs *http.Server) {
		serve := hs.TLSNextProto["h2"]
		hs.TLSNextProto["h2"] = func(s *http.Server, c *tls.Conn, h http.Handler) { conns.Add(1); serve(s, c, h) }
	}
	errc := make(chan error, 1)
	go func() { errc <- app.ListenTLS(addr, certFile, keyFile, MustNew().Configure, count) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app.Shutdown(ctx)
		<-errc
	}()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	var res *http.Response
	for i := 0; i < 250; i++ {
		if res, err = client.Get("https://" + addr + "/"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	client.CloseIdleConnections()
	if string(body) != "hello over HTTP/2.0" || conns.Load() != 1 {
		t.Errorf("%q, %d connections through this server; want HTTP/2 through it", body, conns.Load())
	}
}
