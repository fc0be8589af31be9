package benchtest

import (
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCertClient checks that a client of MakeCert's certificate trusts it,
// speaks the protocol it was made for, and fails a response that arrived
// over another one (a server that negotiates no ALPN protocol answers
// HTTP/1.1).
func TestCertClient(t *testing.T) {
	cert, err := MakeCert(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.LoadX509KeyPair(cert.CertFile, cert.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	start := func(protos ...string) *httptest.Server {
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Proto) }))
		srv.EnableHTTP2 = true
		srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, NextProtos: protos}
		srv.StartTLS()
		t.Cleanup(srv.Close)
		return srv
	}
	both := start("h2", "http/1.1")
	for proto, want := range map[string]string{ProtoHTTP2: "HTTP/2.0", ProtoHTTP1: "HTTP/1.1"} {
		resp, err := cert.Client(proto).Get(both.URL)
		if err != nil {
			t.Fatalf("%s: %v", proto, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != want {
			t.Errorf("%s client: served over %s", proto, body)
		}
	}
	if got := cert.Env(); len(got) != 2 || !strings.HasPrefix(got[0], TLSCertEnv+"=") || !strings.HasPrefix(got[1], TLSKeyEnv+"=") {
		t.Errorf("Env() = %q", got)
	}
	// A check of the response alone: an HTTP/1.1 answer to the h2 client.
	check := alpnCheck{rt: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{Proto: "HTTP/1.1", ProtoMajor: 1, Body: http.NoBody, TLS: &tls.ConnectionState{NegotiatedProtocol: ""}}, nil
	}), want: ProtoHTTP2}
	req, _ := http.NewRequest("GET", "https://127.0.0.1/", nil)
	if _, err := check.RoundTrip(req); err == nil || !strings.Contains(err.Error(), `want "h2"`) {
		t.Errorf("an HTTP/1.1 answer passed the h2 check: %v", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
