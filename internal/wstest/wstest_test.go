// Package wstest runs real WebSocket echoes, with coder/websocket (which
// upgrades as net/http documents: WriteHeader(101), then Hijack) and
// gorilla/websocket (which hijacks and writes its 101 itself), through
// every writer path of internal/writerpaths: a plain route, WrapHandler,
// Mount, WrapMiddleware, each writer-installing middleware and the whole
// middleware set. It is a module of its own so that the framework's
// go.mod does not take the WebSocket libraries.
package wstest

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	gorilla "github.com/gorilla/websocket"
	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/writerpaths"
	"github.com/vireo-go/vireo/middleware"
)

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

// echo upgrades with the library the last path element names and echoes
// every message until the client closes.
func echo(t *testing.T) http.Handler {
	var gorillaUpgrader gorilla.Upgrader
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch path.Base(r.URL.Path) {
		case "coder":
			c, err := websocket.Accept(w, r, nil)
			if err != nil {
				t.Errorf("%s: Accept: %v", r.URL.Path, err)
				return
			}
			defer c.CloseNow()
			ctx := context.WithoutCancel(r.Context()) // the connection is not the request
			for {
				typ, msg, err := c.Read(ctx)
				if err != nil {
					return
				}
				if err := c.Write(ctx, typ, msg); err != nil {
					return
				}
			}
		case "gorilla":
			c, err := gorillaUpgrader.Upgrade(w, r, nil)
			if err != nil {
				t.Errorf("%s: Upgrade: %v", r.URL.Path, err)
				return
			}
			defer c.Close()
			for {
				typ, msg, err := c.ReadMessage()
				if err != nil {
					return
				}
				if err := c.WriteMessage(typ, msg); err != nil {
					return
				}
			}
		default:
			http.NotFound(w, r)
		}
	})
}

// TestEcho: both libraries' clients exchange messages with both
// libraries' servers on every writer path, on an application as it comes
// and on one with middleware.Timeout before everything else; nothing is
// logged as an error.
func TestEcho(t *testing.T) {
	for name, timeout := range map[string]bool{
		"app":              false,
		"app with Timeout": true, // middleware.Timeout before everything else
	} {
		logs, errs := &syncBuffer{}, &syncBuffer{}
		app := core.New(core.WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
		if timeout {
			app.UseBeforeRouting(middleware.MustTimeout(10 * time.Second))
		}
		paths := writerpaths.Register(app, echo(t), logs)
		ts := httptest.NewUnstartedServer(app)
		ts.Config.ErrorLog = log.New(errs, "", 0)
		ts.Start()
		defer ts.Close()
		ws := "ws" + strings.TrimPrefix(ts.URL, "http")
		for _, p := range paths {
			t.Run(name+"/"+p.Name+"/coder", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				c, resp, err := websocket.Dial(ctx, ws+p.Prefix+"/coder", nil)
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				defer c.CloseNow()
				if resp.StatusCode != http.StatusSwitchingProtocols {
					t.Errorf("status %d", resp.StatusCode)
				}
				for i := range 3 {
					want := fmt.Sprintf("hello %d", i)
					if err := c.Write(ctx, websocket.MessageText, []byte(want)); err != nil {
						t.Fatal(err)
					}
					_, got, err := c.Read(ctx)
					if err != nil || string(got) != want {
						t.Fatalf("echo %q, %v; want %q", got, err, want)
					}
				}
				c.Close(websocket.StatusNormalClosure, "")
			})
			t.Run(name+"/"+p.Name+"/gorilla", func(t *testing.T) {
				d := gorilla.Dialer{HandshakeTimeout: 10 * time.Second}
				c, resp, err := d.Dial(ws+p.Prefix+"/gorilla", nil)
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				defer c.Close()
				if resp.StatusCode != http.StatusSwitchingProtocols {
					t.Errorf("status %d", resp.StatusCode)
				}
				c.SetReadDeadline(time.Now().Add(10 * time.Second))
				for i := range 3 {
					want := fmt.Sprintf("hello %d", i)
					if err := c.WriteMessage(gorilla.TextMessage, []byte(want)); err != nil {
						t.Fatal(err)
					}
					_, got, err := c.ReadMessage()
					if err != nil || string(got) != want {
						t.Fatalf("echo %q, %v; want %q", got, err, want)
					}
				}
				c.WriteMessage(gorilla.CloseMessage, gorilla.FormatCloseMessage(gorilla.CloseNormalClosure, ""))
			})
		}
		ts.Close() // waits for the handlers: their logs are complete
		if strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("%s: the application logged an error:\n%s", name, logs)
		}
		if e := errs.String(); e != "" {
			t.Errorf("%s: net/http logged:\n%s", name, e)
		}
	}
}
