package core

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testcert"
	"github.com/vireo-go/vireo/internal/testtool"
)

// freeAddr returns a loopback address with a free port.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// listenTLS starts app.ListenTLS on a free port and waits until it
// answers; the server is shut down at the end of the test.
func listenTLS(t *testing.T, app *Application, certFile, keyFile string, configure ...func(*http.Server)) string {
	t.Helper()
	addr := freeAddr(t)
	errc := make(chan error, 1)
	go func() { errc <- app.ListenTLS(addr, certFile, keyFile, configure...) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app.Shutdown(ctx)
		if err := <-errc; err != nil {
			t.Errorf("ListenTLS: %v", err)
		}
	})
	for i := 0; i < 250; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		select {
		case err := <-errc:
			t.Fatalf("ListenTLS: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("ListenTLS did not start on %s", addr)
	return ""
}

func protoApp() *Application {
	app := quietApp(WithStartupOutput(nil))
	app.Get("/", func(c Context) { c.Text(c.Request().Proto + " " + c.Scheme()) })
	app.Post("/echo", func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(c.Request().Proto + " " + string(b))
	})
	return app
}

// TestListenTLSWithHTTP2Clients (issue 25): curl --http2 (verifying the
// certificate) and nghttp (which does not verify) negotiate h2 through
// ALPN with ListenTLS.
func TestListenTLSWithHTTP2Clients(t *testing.T) {
	certFile, keyFile, _ := testcert.Write(t, t.TempDir())
	addr := listenTLS(t, protoApp(), certFile, keyFile)
	t.Run("curl", func(t *testing.T) {
		curl := testtool.Require(t, "curl", "curl")
		out, err := exec.Command(curl, "--http2", "-sS", "--cacert", certFile, "-w", " %{http_version}", "https://"+addr+"/").CombinedOutput()
		if err != nil || string(out) != "HTTP/2.0 https 2" {
			t.Fatalf("curl --http2: %q %v, want \"HTTP/2.0 https 2\"", out, err)
		}
		out, err = exec.Command(curl, "--http2", "-sS", "--cacert", certFile, "-d", "posted", "https://"+addr+"/echo").CombinedOutput()
		if err != nil || string(out) != "HTTP/2.0 posted" {
			t.Fatalf("curl --http2 -d: %q %v", out, err)
		}
		out, err = exec.Command(curl, "--http1.1", "-sS", "--cacert", certFile, "https://"+addr+"/").CombinedOutput()
		if err != nil || string(out) != "HTTP/1.1 https" {
			t.Fatalf("curl --http1.1: %q %v", out, err)
		}
	})
	t.Run("nghttp", func(t *testing.T) {
		nghttp := testtool.Require(t, "nghttp", "nghttp2-client")
		out, err := exec.Command(nghttp, "-v", "https://"+addr+"/").CombinedOutput()
		if err != nil {
			t.Fatalf("nghttp: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "The negotiated protocol: h2") || !strings.Contains(string(out), "HTTP/2.0 https") {
			t.Fatalf("nghttp did not get h2:\n%s", out)
		}
	})
}

// TestListenTLSConfig: with no files, ListenTLS serves the certificates a
// configure func put in the server's TLSConfig (GetCertificate, as an ACME
// manager gives); with neither it refuses to start; TLS below 1.2 is
// refused whatever the configuration asks.
func TestListenTLSConfig(t *testing.T) {
	certFile, keyFile, pool := testcert.Write(t, t.TempDir())
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	addr := listenTLS(t, protoApp(), "", "", func(s *http.Server) {
		s.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS10, GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &cert, nil }}
	})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	res, err := client.Get("https://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.ProtoMajor != 2 {
		t.Errorf("proto %s, want HTTP/2", res.Proto)
	}
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}}}
	if _, err := old.Get("https://" + addr + "/"); err == nil {
		t.Error("TLS 1.1 accepted")
	}
	err = quietApp(WithStartupOutput(nil)).ListenTLS("127.0.0.1:0", "", "")
	if err == nil || !strings.Contains(err.Error(), "no certificate") {
		t.Errorf("ListenTLS without a certificate: %v", err)
	}
}

// TestH2C (issue 25): with WithH2C, Listen serves HTTP/2 without TLS to
// curl --http2-prior-knowledge and HTTP/1.1 to others on the same port;
// curl --http2's Upgrade: h2c is answered over HTTP/1.1 (net/http has no
// Upgrade path); without the option prior knowledge fails.
func TestH2C(t *testing.T) {
	curl := testtool.Require(t, "curl", "curl")
	run := func(t *testing.T, opts []Option, args ...string) (string, error) {
		app := quietApp(append([]Option{WithStartupOutput(nil)}, opts...)...)
		app.Get("/", func(c Context) { c.Text(c.Request().Proto) })
		addr, done := startServer(t, app)
		defer func() { app.Shutdown(context.Background()); <-done }()
		out, err := exec.Command(curl, append(append([]string{"-sS", "-w", " %{http_version}"}, args...), "http://"+addr+"/")...).CombinedOutput()
		return string(out), err
	}
	tests := []struct {
		name string
		opts []Option
		args []string
		want string // "" for a failure
	}{
		{"prior knowledge", []Option{WithH2C()}, []string{"--http2-prior-knowledge"}, "HTTP/2.0 2"},
		{"HTTP/1.1 beside it", []Option{WithH2C()}, []string{"--http1.1"}, "HTTP/1.1 1.1"},
		{"Upgrade: h2c answered over HTTP/1.1", []Option{WithH2C()}, []string{"--http2"}, "HTTP/1.1 1.1"},
		{"off by default", nil, []string{"--http2-prior-knowledge"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, tt.opts, tt.args...)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("curl %v succeeded: %q", tt.args, out)
				}
				return
			}
			if err != nil || out != tt.want {
				t.Fatalf("curl %v: %q %v, want %q", tt.args, out, err, tt.want)
			}
		})
	}
}

// TestRedirectHTTPS (issue 25): 308 to https with the host and port
// configured, the path and query kept; a host not configured is 421,
// whatever the client puts in Host.
func TestRedirectHTTPS(t *testing.T) {
	h := RedirectHTTPS("example.com", "www.example.com:8443", "[::1]:8443")
	tests := []struct {
		method, target, host string
		status               int
		location             string
	}{
		{"GET", "/a/b?x=1&y=%20", "example.com", 308, "https://example.com/a/b?x=1&y=%20"},
		{"GET", "/", "Example.COM.:80", 308, "https://example.com/"},
		{"POST", "/form", "www.example.com:8080", 308, "https://www.example.com:8443/form"},
		{"GET", "/caf%C3%A9/%2F", "example.com", 308, "https://example.com/caf%C3%A9/%2F"},
		{"GET", "//evil.example/x", "example.com", 308, "https://example.com//evil.example/x"},
		{"GET", "/", "[::1]:8080", 308, "https://[::1]:8443/"},
		{"GET", "/", "evil.example", 421, ""},
		{"GET", "/", "example.com.evil.example", 421, ""},
		{"GET", "/", "", 421, ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, tt.target, nil)
		req.Host = tt.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status || rec.Header().Get("Location") != tt.location {
			t.Errorf("%s %s (Host %q): %d %q, want %d %q", tt.method, tt.target, tt.host, rec.Code, rec.Header().Get("Location"), tt.status, tt.location)
		}
	}
	for _, bad := range []string{"", "example.com/x", "::1", "example.com:https", "user@example.com"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RedirectHTTPS(%q) accepted", bad)
				}
			}()
			RedirectHTTPS(bad)
		}()
	}
}

// TestRedirectHTTPSWithCurl: curl -L follows the redirect from a plain
// listener (a second Application mounting RedirectHTTPS) to ListenTLS,
// method, path, query and body kept.
func TestRedirectHTTPSWithCurl(t *testing.T) {
	curl := testtool.Require(t, "curl", "curl")
	certFile, keyFile, _ := testcert.Write(t, t.TempDir())
	app := protoApp()
	app.Post("/echo/{name}", func(c Context) {
		b, _ := c.ReadBody()
		c.Text(c.Request().Proto + " " + c.Param("name") + " " + c.Query("q") + " " + string(b))
	})
	tlsAddr := listenTLS(t, app, certFile, keyFile)
	redirect := quietApp(WithStartupOutput(nil))
	redirect.Mount("/", RedirectHTTPS(tlsAddr))
	addr, done := startServer(t, redirect)
	defer func() { redirect.Shutdown(context.Background()); <-done }()
	out, err := exec.Command(curl, "-sS", "-L", "--cacert", certFile, "-d", "body", "-w", " %{num_redirects} %{url_effective}", "http://"+addr+"/echo/x?q=1").CombinedOutput()
	want := "HTTP/2.0 x 1 body 1 https://" + tlsAddr + "/echo/x?q=1"
	if err != nil || string(out) != want {
		t.Fatalf("curl -L: %q %v, want %q", out, err, want)
	}
	out, _ = exec.Command(curl, "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.example", "http://"+addr+"/").CombinedOutput()
	if string(out) != "421" {
		t.Errorf("Host evil.example: %q, want 421", out)
	}
}
