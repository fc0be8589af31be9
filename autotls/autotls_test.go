package autotls

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/testcert"
	"github.com/vireo-go/vireo/internal/testtool"
	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
	"golang.org/x/net/dns/dnsmessage"
)

// pebbleModule is Let's Encrypt's test ACME server, current release.
const pebbleModule = "github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3"

const domain = "app.vireo.test"

// freePort returns a free loopback port.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// dnsServer answers, over TCP as Pebble's resolver asks, every A query
// with 127.0.0.1 and every other query with no records, so that the
// names the test uses lead Pebble's validation to the test's server. It
// returns its address and the names it was asked.
func dnsServer(t *testing.T) (string, func() []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var asked []string
	serve := func(c net.Conn) {
		defer c.Close()
		for {
			c.SetDeadline(time.Now().Add(10 * time.Second))
			var n uint16
			if binary.Read(c, binary.BigEndian, &n) != nil {
				return
			}
			msg := make([]byte, n)
			if _, err := io.ReadFull(c, msg); err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(msg)
			if err != nil {
				return
			}
			q, err := p.Question()
			if err != nil {
				return
			}
			mu.Lock()
			asked = append(asked, q.Type.String()+" "+q.Name.String())
			mu.Unlock()
			b := dnsmessage.NewBuilder(make([]byte, 2, 514), dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.EnableCompression()
			b.StartQuestions()
			b.Question(q)
			b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}, dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}})
			}
			out, err := b.Finish()
			if err != nil {
				return
			}
			binary.BigEndian.PutUint16(out, uint16(len(out)-2))
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
}

// pebble is a running Pebble.
type pebble struct {
	directory string         // the ACME directory URL
	client    *http.Client   // trusts Pebble's API certificate
	roots     *x509.CertPool // Pebble's root, what its certificates chain to
	log       *bytes.Buffer
}

// startPebble installs Pebble with go install into a temporary GOBIN and
// starts it on loopback, validating challenges on tlsPort at the
// addresses dnsAddr gives; it is stopped by PID at the end of the test.
func startPebble(t *testing.T, tlsPort int, dnsAddr string) *pebble {
	t.Helper()
	testtool.Require(t, "go")
	bin, dir := t.TempDir(), t.TempDir()
	install := exec.Command("go", "install", pebbleModule)
	install.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-mod=mod")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s: %v\n%s", pebbleModule, err, out)
	}
	certFile, keyFile, apiPool := testcert.Write(t, dir) // Pebble's own: its ACME API and management endpoint are HTTPS
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	mgmt := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	config := map[string]any{"pebble": map[string]any{
		"listenAddress":           listen,
		"managementListenAddress": mgmt,
		"certificate":             certFile,
		"privateKey":              keyFile,
		"httpPort":                freePort(t), // http-01 is not used: autocert answers tls-alpn-01
		"tlsPort":                 tlsPort,
		"keyAlgorithm":            "ecdsa",
		"retryAfter":              map[string]int{"authz": 1, "order": 1},
	}}
	cfg, _ := json.Marshal(config)
	cfgFile := filepath.Join(dir, "pebble-config.json")
	if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &pebble{
		directory: "https://" + listen + "/dir",
		client:    &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: apiPool}}},
		log:       new(bytes.Buffer),
	}
	cmd := exec.Command(filepath.Join(bin, "pebble"), "-config", cfgFile, "-dnsserver", dnsAddr)
	cmd.Dir = dir
	// No random sleeps before validating, no nonces refused at random (the
	// test's time is short); validation itself stays on.
	cmd.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	var mu sync.Mutex
	cmd.Stdout = writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return p.log.Write(b) })
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			mu.Lock()
			t.Logf("pebble's log:\n%s", p.log)
			mu.Unlock()
		}
	})
	// Pebble's root, from its management endpoint, once it is up.
	var root []byte
	for i := 0; ; i++ {
		res, err := p.client.Get("https://" + mgmt + "/roots/0")
		if err == nil {
			root, err = io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == 200 && err == nil {
				break
			}
		}
		if i == 200 {
			t.Fatalf("pebble's management endpoint did not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.roots = x509.NewCertPool()
	if !p.roots.AppendCertsFromPEM(root) {
		t.Fatalf("pebble's root is not PEM: %q", root)
	}
	return p
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestListenWithPebble (issue 25): Listen gets a certificate for its host
// from a real ACME server, Let's Encrypt's Pebble on loopback, which
// validates the tls-alpn-01 challenge against the application's own
// HTTPS port (a name the test's DNS server points at 127.0.0.1); clients
// trusting Pebble's root (fetched from its management endpoint), Go's and
// curl, then get the application over h2 with that certificate, which
// the cache directory keeps. A host outside the HostPolicy gets no
// certificate.
func TestListenWithPebble(t *testing.T) {
	if testing.Short() {
		t.Skip("pebble: not in -short")
	}
	tlsPort := freePort(t)
	dnsAddr, asked := dnsServer(t)
	pb := startPebble(t, tlsPort, dnsAddr)

	app := core.New(core.WithStartupOutput(nil))
	app.Get("/", func(c core.Context) { c.Text("hello over " + c.Request().Proto) })
	cache := filepath.Join(t.TempDir(), "acme")
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist(domain),
		Cache:      autocert.DirCache(cache),
		Client:     &acme.Client{DirectoryURL: pb.directory, HTTPClient: pb.client},
	}
	addr := fmt.Sprintf("127.0.0.1:%d", tlsPort)
	errc := make(chan error, 1)
	var challenges atomic.Int32 // TLS handshakes of Pebble's validation (ALPN acme-tls/1)
	record := func(s *http.Server) {
		get := s.TLSConfig.GetCertificate
		s.TLSConfig.GetCertificate = func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if slices.Contains(hello.SupportedProtos, acme.ALPNProto) {
				challenges.Add(1)
			}
			return get(hello)
		}
	}
	go func() { errc <- Listen(app, addr, m, record) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app.Shutdown(ctx)
		if err := <-errc; err != nil {
			t.Errorf("Listen: %v", err)
		}
	}()
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i == 250 {
			t.Fatal("Listen did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}

	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pb.roots},
		ForceAttemptHTTP2: true,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr) // the name resolves to the test's server
		},
	}}
	start := time.Now()
	res, err := client.Get(fmt.Sprintf("https://%s:%d/", domain, tlsPort))
	if err != nil {
		t.Fatalf("GET https://%s/: %v", domain, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	t.Logf("first request, certificate obtained from pebble: %v", time.Since(start).Round(time.Millisecond))
	if string(body) != "hello over HTTP/2.0" || res.TLS.NegotiatedProtocol != "h2" {
		t.Errorf("got %q over %q", body, res.TLS.NegotiatedProtocol)
	}
	leaf := res.TLS.PeerCertificates[0]
	if len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != domain || !strings.Contains(leaf.Issuer.CommonName, "Pebble") {
		t.Errorf("certificate for %v issued by %q", leaf.DNSNames, leaf.Issuer.CommonName)
	}
	if n := challenges.Load(); n == 0 {
		t.Errorf("pebble made no tls-alpn-01 validation handshake with the server")
	} else {
		t.Logf("pebble validated tls-alpn-01 with %d handshakes (one per perspective)", n)
	}
	if !strings.Contains(strings.Join(asked(), ","), "TypeA "+domain+".") {
		t.Errorf("pebble did not resolve %s through the test's DNS server: %v", domain, asked())
	}
	if _, err := os.Stat(filepath.Join(cache, domain)); err != nil {
		t.Errorf("the certificate is not in the cache directory: %v", err)
	}

	t.Run("curl", func(t *testing.T) {
		curl := testtool.Require(t, "curl", "curl")
		rootFile := filepath.Join(t.TempDir(), "pebble-root.pem")
		chain := res.TLS.VerifiedChains[0]
		if err := os.WriteFile(rootFile, pemOf(t, chain[len(chain)-1]), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(curl, "--http2", "-sS", "--cacert", rootFile,
			"--resolve", fmt.Sprintf("%s:%d:127.0.0.1", domain, tlsPort),
			"-w", " %{http_version}", fmt.Sprintf("https://%s:%d/", domain, tlsPort)).CombinedOutput()
		if err != nil || string(out) != "hello over HTTP/2.0 2" {
			t.Errorf("curl: %q %v", out, err)
		}
	})

	t.Run("port 80: http-01 handler, redirect to https", func(t *testing.T) {
		redirect := core.New(core.WithStartupOutput(nil))
		redirect.Mount("/", m.HTTPHandler(core.RedirectHTTPS(fmt.Sprintf("%s:%d", domain, tlsPort))))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- redirect.Serve(ln) }()
		defer func() { redirect.Shutdown(context.Background()); <-done }()
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/a?b=1", nil)
		req.Host = domain
		res, err := (&http.Transport{}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := fmt.Sprintf("https://%s:%d/a?b=1", domain, tlsPort); res.StatusCode != 308 || res.Header.Get("Location") != want {
			t.Errorf("%d %q, want 308 %q", res.StatusCode, res.Header.Get("Location"), want)
		}
	})

	t.Run("host outside the policy", func(t *testing.T) {
		_, err := client.Get(fmt.Sprintf("https://other.vireo.test:%d/", tlsPort))
		if err == nil {
			t.Fatal("a host outside the HostPolicy got a certificate")
		}
	})
}

// pemOf encodes a certificate as PEM.
func pemOf(t *testing.T, c *x509.Certificate) []byte {
	t.Helper()
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// TestListenRefusesUnsafeManagers: a manager without HostPolicy or Cache
// is an error before anything listens.
func TestListenRefusesUnsafeManagers(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil))
	tests := []struct {
		m    *autocert.Manager
		want string
	}{
		{nil, "needs an autocert.Manager"},
		{&autocert.Manager{Cache: autocert.DirCache(t.TempDir())}, "HostPolicy"},
		{&autocert.Manager{HostPolicy: autocert.HostWhitelist(domain)}, "Cache"},
	}
	for _, tt := range tests {
		if err := Listen(app, "127.0.0.1:0", tt.m); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Listen: %v, want an error naming %s", err, tt.want)
		}
	}
}
