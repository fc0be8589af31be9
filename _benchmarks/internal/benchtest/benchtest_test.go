package benchtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary play a child app: with BENCHTEST_CHILD set it
// behaves as told instead of running the tests, so Start is tested on
// real processes without any other binary.
func TestMain(m *testing.M) {
	switch os.Getenv("BENCHTEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "ready":
		fmt.Printf(ReadyListening+"\n%s\n", mustAtoi(os.Getenv("PORT")), ReadyStarted)
		time.Sleep(time.Minute)
	case "banner":
		fmt.Println("a banner line")
		fmt.Printf(ReadyListening+"\n%s\n", mustAtoi(os.Getenv("PORT")), ReadyStarted)
		time.Sleep(time.Minute)
	case "listen":
		// Binds PORT as a server does, failing as Go does when it is taken.
		ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer ln.Close()
		fmt.Printf(ReadyListening+"\n%s\n", mustAtoi(os.Getenv("PORT")), ReadyStarted)
		time.Sleep(time.Minute)
	case "exit":
		fmt.Println("failing to start")
		os.Exit(3)
	case "silent":
		time.Sleep(time.Minute)
	}
	os.Exit(0)
}

func mustAtoi(s string) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		panic(err)
	}
	return n
}

func child(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "BENCHTEST_CHILD="+mode)
	return cmd
}

func TestStartProcess(t *testing.T) {
	tests := []struct {
		mode      string
		wantErr   string
		firstLine string
	}{
		{mode: "ready", firstLine: "Now listening on: http://127.0.0.1:"},
		{mode: "banner", firstLine: "a banner line"},
		{mode: "exit", wantErr: "exited before printing the readiness lines"},
		{mode: "silent", wantErr: "no readiness lines"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			port, err := FreePort()
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			cmd := child(tt.mode)
			p, err := Start(context.Background(), Spec{Name: tt.mode, Argv: cmd.Args, Env: cmd.Env, Port: port}, 2*time.Second)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p.Stop()
			p.Stop() // a second Stop must not block or panic
			if time.Since(start) > 10*time.Second {
				t.Errorf("Stop took too long")
			}
			if lines := p.Stdout(); len(lines) == 0 || !strings.HasPrefix(lines[0], tt.firstLine) {
				t.Errorf("stdout = %q, want it to start with %q", lines, tt.firstLine)
			}
		})
	}
}

func TestVerify(t *testing.T) {
	ep := Endpoint{Method: "GET", Path: "/api/values/5", Status: 200, ContentType: "text/plain; charset=utf-8", Body: []byte("value")}
	cookieEP := ep
	cookieEP.SetCookie = true
	tests := []struct {
		name    string
		ep      Endpoint
		handler http.HandlerFunc
		wantErr string
	}{
		{"match", ep, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte("value"))
		}, ""},
		{"sniffed content type matches too", ep, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("value"))
		}, ""},
		{"status", ep, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(201)
			w.Write([]byte("value"))
		}, "status: got 201, want 200"},
		{"content type case", ep, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
			w.Write([]byte("value"))
		}, `Content-Type: got "text/plain; charset=UTF-8"`},
		{"trailing newline", ep, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("value\n"))
		}, "got 6 bytes, want 5; first difference at byte 5"},
		{"path", ep, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/values/5" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte("value"))
		}, ""},
		{"missing cookie", cookieEP, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("value"))
		}, "Set-Cookie: missing"},
		{"cookie", cookieEP, func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "1"})
			w.Write([]byte("value"))
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			err := Verify(srv.Client(), srv.URL, tt.ep)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		want, got, out string
	}{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\n", "a\nc\n", `first difference at byte 2 (line 2):` + "\n    want \"b\\n\"\n    got  \"c\\n\""},
		{"a\n", "a", `got 1 bytes, want 2; first difference at byte 1 (line 1)`},
		{"", "x", `got 1 bytes, want 0; first difference at byte 0 (line 1)`},
	}
	for _, tt := range tests {
		if got := Diff([]byte(tt.want), []byte(tt.got)); !strings.Contains(got, tt.out) || (tt.out == "") != (got == "") {
			t.Errorf("Diff(%q, %q) = %q, want it to contain %q", tt.want, tt.got, got, tt.out)
		}
	}
}

func TestLoadContract(t *testing.T) {
	_, c := MustContract(t)
	for _, name := range []string{"simple", "mvc", "templates", "sessions", "sessions-redis"} {
		ep, ok := c.Comparisons[name]
		if !ok {
			t.Fatalf("comparison %q missing", name)
		}
		if len(ep.Body) == 0 {
			t.Errorf("comparison %q has an empty body", name)
		}
		for _, app := range ep.Apps {
			if c.Stack(app) == "" {
				t.Errorf("app %q of %q is in no stack", app, name)
			}
			if got, _, err := c.Endpoint(app); err != nil || got != name {
				t.Errorf("Endpoint(%q) = %q, %v; want %q", app, got, err, name)
			}
		}
	}
	if _, _, err := c.Endpoint("no-such-app"); err == nil {
		t.Error("Endpoint of an unknown app: no error")
	}
}
