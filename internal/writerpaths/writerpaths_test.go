package writerpaths_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/writerpaths"
	"github.com/vireo-go/vireo/middleware"
)

// syncBuffer is a bytes.Buffer for logs written by server goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// handler answers what the last element of the path names.
func handler(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch path.Base(r.URL.Path) {
		case "early-hints":
			w.Header().Add("Link", "</a.css>; rel=preload; as=style")
			w.WriteHeader(http.StatusEarlyHints)
			w.Header().Add("Link", "</b.js>; rel=preload; as=script")
			w.WriteHeader(http.StatusEarlyHints)
			w.Header().Del("Link")
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "final")
		case "continue-explicit":
			w.WriteHeader(http.StatusContinue)
			fallthrough
		case "continue":
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body)
		case "upgrade": // net/http's way: WriteHeader(101), then Hijack
			w.Header().Set("Connection", "Upgrade")
			w.Header().Set("Upgrade", "echo")
			w.WriteHeader(http.StatusSwitchingProtocols)
			conn, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("%s: Hijack after 101: %v", r.URL.Path, err)
				return
			}
			echoLine(conn, brw)
		case "upgrade-raw": // gorilla's way: Hijack, then the 101 on the conn
			hj, ok := w.(http.Hijacker)
			if !ok {
				t.Errorf("%s: the writer %T is no http.Hijacker", r.URL.Path, w)
				return
			}
			conn, brw, err := hj.Hijack()
			if err != nil {
				t.Errorf("%s: Hijack: %v", r.URL.Path, err)
				return
			}
			brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
			echoLine(conn, brw)
		case "controller":
			rc := http.NewResponseController(w)
			soon := time.Now().Add(10 * time.Second)
			res := []string{
				"read=" + errText(rc.SetReadDeadline(soon)),
				"write=" + errText(rc.SetWriteDeadline(soon)),
				"duplex=" + errText(rc.EnableFullDuplex()),
			}
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, strings.Join(res, " "))
			io.WriteString(w, " flush="+errText(rc.Flush()))
		default:
			http.NotFound(w, r)
		}
	})
}

// echoLine writes back, on a hijacked connection, the line the client sends.
func echoLine(conn net.Conn, brw *bufio.ReadWriter) {
	defer conn.Close()
	if err := brw.Flush(); err != nil {
		return
	}
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := brw.ReadString('\n')
	if err != nil {
		return
	}
	brw.WriteString("echo: " + line)
	brw.Flush()
}

func errText(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, http.ErrNotSupported):
		return "unsupported"
	}
	return err.Error()
}

// server is an application with the writer paths and its logs.
type server struct {
	url   string
	paths []writerpaths.Path
	logs  *syncBuffer // the application's and the request logger's
	errs  *syncBuffer // net/http's error log
}

// servers returns the writer paths on a plain application and on one with
// middleware.Timeout installed first with UseBeforeRouting, which puts its
// own writer in front of every path.
func servers(t *testing.T) map[string]*server {
	out := map[string]*server{}
	for name, timeout := range map[string]bool{
		"app":              false,
		"app with Timeout": true, // middleware.Timeout before everything else
	} {
		s := &server{logs: &syncBuffer{}, errs: &syncBuffer{}}
		app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(s.logs, nil))))
		if timeout {
			app.UseBeforeRouting(middleware.MustTimeout(10 * time.Second))
		}
		s.paths = writerpaths.Register(app, handler(t), s.logs)
		ts := httptest.NewUnstartedServer(app)
		ts.Config.ErrorLog = log.New(s.errs, "", 0)
		ts.Start()
		t.Cleanup(ts.Close)
		s.url = ts.URL
		out[name] = s
	}
	return out
}

// checkLogs fails the test when the application or net/http logged an
// error or a misuse of the writer.
func (s *server) checkLogs(t *testing.T) {
	t.Helper()
	if strings.Contains(s.logs.String(), "level=ERROR") {
		t.Errorf("the application logged an error:\n%s", s.logs)
	}
	if e := s.errs.String(); e != "" {
		t.Errorf("net/http logged:\n%s", e)
	}
}

// dial opens a raw connection to s and sends the request head.
func dial(t *testing.T, s *server, head string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(15 * time.Second))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

func readResponse(t *testing.T, br *bufio.Reader) *http.Response {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading a response: %v", err)
	}
	return resp
}

// TestEarlyHints: a 103 written by the handler reaches a raw client at
// once, twice when written twice, each with the Link headers set so far,
// before the final response, on every path.
func TestEarlyHints(t *testing.T) {
	for appName, s := range servers(t) {
		for _, p := range s.paths {
			t.Run(appName+"/"+p.Name, func(t *testing.T) {
				_, br := dial(t, s, "GET "+p.Prefix+"/early-hints HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
				var got []string
				for {
					resp := readResponse(t, br)
					body, _ := io.ReadAll(resp.Body)
					got = append(got, fmt.Sprintf("%d %s %q", resp.StatusCode, strings.Join(resp.Header.Values("Link"), ", "), body))
					if resp.StatusCode >= 200 {
						break
					}
				}
				want := []string{
					`103 </a.css>; rel=preload; as=style ""`,
					`103 </a.css>; rel=preload; as=style, </b.js>; rel=preload; as=script ""`,
					`200  "final"`,
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("responses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
		s.checkLogs(t)
	}
}

// TestExpectContinue: a request with Expect: 100-continue whose handler
// reads the body gets exactly one 100 Continue, before it sends the body,
// whether net/http sends it when the body is read or the handler writes
// it first.
func TestExpectContinue(t *testing.T) {
	for appName, s := range servers(t) {
		for _, p := range s.paths {
			for _, what := range []string{"continue", "continue-explicit"} {
				t.Run(appName+"/"+p.Name+"/"+what, func(t *testing.T) {
					conn, br := dial(t, s, "POST "+p.Prefix+"/"+what+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"+
						"Content-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
					if resp := readResponse(t, br); resp.StatusCode != http.StatusContinue {
						t.Fatalf("first response %d, want 100 Continue before the body is sent", resp.StatusCode)
					}
					io.WriteString(conn, "hello")
					resp := readResponse(t, br)
					body, _ := io.ReadAll(resp.Body)
					if resp.StatusCode != http.StatusOK || string(body) != "hello" {
						t.Errorf("final response %d %q, want 200 \"hello\" (a second 100 Continue?)", resp.StatusCode, body)
					}
					if rest, _ := io.ReadAll(br); len(rest) > 0 {
						t.Errorf("after the response: %q", rest)
					}
				})
			}
		}
		s.checkLogs(t)
	}
}

// TestSwitchingProtocols: a 101 written with WriteHeader and then Hijack
// (net/http's documented way, coder/websocket's) reaches the client with
// the headers set, and the connection is the handler's; so is one hijacked
// first (gorilla/websocket's way). Vireo writes nothing more on it and logs
// no error; the request logger records the 101.
func TestSwitchingProtocols(t *testing.T) {
	for appName, s := range servers(t) {
		for _, p := range s.paths {
			for _, what := range []string{"upgrade", "upgrade-raw"} {
				t.Run(appName+"/"+p.Name+"/"+what, func(t *testing.T) {
					conn, br := dial(t, s, "GET "+p.Prefix+"/"+what+" HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
					resp := readResponse(t, br)
					if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Upgrade") != "echo" {
						t.Fatalf("response %d, Upgrade %q; want 101, echo", resp.StatusCode, resp.Header.Get("Upgrade"))
					}
					io.WriteString(conn, "ping\n")
					line, err := br.ReadString('\n')
					if line != "echo: ping\n" {
						t.Errorf("on the switched connection: %q, %v", line, err)
					}
					if rest, _ := io.ReadAll(br); len(rest) > 0 {
						t.Errorf("after the handler's last line: %q", rest)
					}
				})
			}
		}
		s.checkLogs(t)
		if !strings.Contains(s.logs.String(), "path=/logger/upgrade status=101") {
			t.Errorf("%s: the request logger did not log the 101:\n%s", appName, s.logs)
		}
	}
}

// TestResponseController: http.ResponseController reaches the server's
// connection through every writer (by the writer's methods or Unwrap):
// deadlines and full duplex everywhere, Flush except under a timeout,
// whose response is sent whole.
func TestResponseController(t *testing.T) {
	for appName, s := range servers(t) {
		for _, p := range s.paths {
			t.Run(appName+"/"+p.Name, func(t *testing.T) {
				resp, err := http.Get(s.url + p.Prefix + "/controller")
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				flush := "ok"
				if appName != "app" || p.Prefix == "/timeout" || p.Prefix == "/stack" {
					flush = "unsupported"
				}
				if want := "read=ok write=ok duplex=ok flush=" + flush; string(body) != want {
					t.Errorf("got %q, want %q", body, want)
				}
			})
		}
		s.checkLogs(t)
	}
}

// TestHijackedConnectionOutlivesContext: a connection hijacked after a
// 101 and served by a goroutine after the handler returned keeps working,
// while the request's Context is released (its reads are empty) and a
// Clone taken in the handler still has the request data.
func TestHijackedConnectionOutlivesContext(t *testing.T) {
	app := core.New()
	app.Get("/rooms/{room}", func(ctx core.Context) {
		w := ctx.ResponseWriter()
		w.Header().Set("Connection", "Upgrade")
		w.Header().Set("Upgrade", "echo")
		w.WriteHeader(http.StatusSwitchingProtocols)
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		clone := ctx.Clone()
		go func() {
			defer conn.Close()
			for end := time.Now().Add(5 * time.Second); ctx.Alive() && time.Now().Before(end); {
				time.Sleep(time.Millisecond) // until the handler has returned
			}
			fmt.Fprintf(brw, "room=%s released=%v stale-read=%q write-err=%v\n",
				clone.Param("room"), !ctx.Alive(), ctx.Param("room"), writeErr(w))
			brw.Flush()
		}()
	})
	ts := httptest.NewServer(app)
	defer ts.Close()
	s := &server{url: ts.URL}
	_, br := dial(t, s, "GET /rooms/lobby HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	if resp := readResponse(t, br); resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %d", resp.StatusCode)
	}
	line, err := br.ReadString('\n')
	want := fmt.Sprintf("room=lobby released=true stale-read=\"\" write-err=%v\n", core.ErrContextReleased)
	if line != want {
		t.Errorf("got %q, %v\nwant %q", line, err, want)
	}
}

func writeErr(w http.ResponseWriter) error {
	_, err := w.Write([]byte("late"))
	return err
}
