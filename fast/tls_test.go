package fast_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
	"github.com/vireo-go/vireo/internal/testcert"
)

// TestListenTLS checks ListenTLS on the fast engine: HTTP/1.1 over TLS
// (ALPN offers no h2, so a client that would take HTTP/2 gets HTTP/1.1),
// with the TLS state seen by the Context (Scheme) and by the lazy
// *http.Request.
func TestListenTLS(t *testing.T) {
	certFile, keyFile, pool := testcert.Write(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var startup bytes.Buffer // read after ListenTLS returned
	app := core.New(core.WithEngine(fast.Engine()), core.WithStartupOutput(&startup))
	app.Get("/", func(c core.Context) {
		r := c.Request()
		c.Text(r.Proto + " " + c.Scheme() + " " + tls.VersionName(r.TLS.Version))
	})
	errc := make(chan error, 1)
	go func() { errc <- app.ListenTLS(addr, certFile, keyFile) }()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	var res *http.Response
	for range 100 {
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
	if res.ProtoMajor != 1 || string(body) != "HTTP/1.1 https TLS 1.3" {
		t.Errorf("proto %s, body %q", res.Proto, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	app.Shutdown(ctx)
	if err := <-errc; err != nil {
		t.Errorf("ListenTLS: %v", err)
	}
	if want := "Now listening on: https://" + addr + "\n"; !bytes.HasPrefix(startup.Bytes(), []byte(want)) {
		t.Errorf("startup output %q, want it to start with %q", startup.String(), want)
	}
}
