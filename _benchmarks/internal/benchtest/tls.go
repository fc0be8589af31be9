// This file makes the certificate of a TLS comparison and checks which
// protocol a server negotiates. The certificate is self-signed, ECDSA P-256,
// for 127.0.0.1 and localhost, valid for a day: made per run (or per test)
// in a temporary or report directory, never committed. The clients trust
// it alone and offer exactly one protocol by ALPN, so a server that
// answers over another protocol fails verification instead of being
// measured on the wrong one.
package benchtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// The environment variables that give a TLS app its certificate and key
// (PEM files).
const (
	TLSCertEnv = "TLS_CERT_FILE"
	TLSKeyEnv  = "TLS_KEY_FILE"
)

// Protocols a TLS comparison's loads speak, as ALPN names them.
const (
	ProtoHTTP2 = "h2"
	ProtoHTTP1 = "http/1.1"
)

// Cert is a self-signed certificate written to CertFile and KeyFile.
type Cert struct {
	CertFile, KeyFile string
	pool              *x509.CertPool
}

// MakeCert writes a new self-signed certificate for 127.0.0.1 and
// localhost into dir (cert.pem, key.pem).
func MakeCert(dir string) (*Cert, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "vireo-bench"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:    []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	c := &Cert{CertFile: filepath.Join(dir, "cert.pem"), KeyFile: filepath.Join(dir, "key.pem")}
	if err := os.WriteFile(c.CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(c.KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return nil, err
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	c.pool = x509.NewCertPool()
	c.pool.AddCert(parsed)
	return c, nil
}

// Env is what a TLS app is given: TLS_CERT_FILE and TLS_KEY_FILE.
func (c *Cert) Env() []string {
	return []string{TLSCertEnv + "=" + c.CertFile, TLSKeyEnv + "=" + c.KeyFile}
}

// Client returns a client that trusts c alone, offers only protocol by
// ALPN (ProtoHTTP2 or ProtoHTTP1) and fails any response that arrived over
// another protocol. It keeps no connection between requests.
func (c *Cert) Client(protocol string) *http.Client {
	var p http.Protocols
	switch protocol {
	case ProtoHTTP2:
		p.SetHTTP2(true)
	default:
		p.SetHTTP1(true)
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: c.pool}, Protocols: &p, DisableKeepAlives: true}
	return &http.Client{Timeout: 10 * time.Second, Transport: alpnCheck{rt: tr, want: protocol}}
}

// alpnCheck fails a response whose connection negotiated another protocol
// than want.
type alpnCheck struct {
	rt   http.RoundTripper
	want string
}

// RoundTrip sends r and checks the protocol of its response.
func (a alpnCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := a.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	got := ""
	if resp.TLS != nil {
		got = resp.TLS.NegotiatedProtocol
	}
	wantMajor := 1
	if a.want == ProtoHTTP2 {
		wantMajor = 2
	}
	if resp.TLS == nil || (got != a.want && !(got == "" && a.want == ProtoHTTP1)) || resp.ProtoMajor != wantMajor {
		resp.Body.Close()
		return nil, fmt.Errorf("negotiated %q (%s), want %q: the server does not serve %s over TLS", got, resp.Proto, a.want, a.want)
	}
	return resp, nil
}
