package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/vireo-go/vireo"
)

var quiet = vireo.WithStartupOutput(nil)

// serve runs app on a loopback port until the end of the test (Shutdown,
// which closes the room) and returns its base URL.
func serve(t *testing.T, app *vireo.Application) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := app.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		<-done
	})
	return "http://" + ln.Addr().String()
}

func dial(t *testing.T, ctx context.Context, url string, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
}

func read(t *testing.T, ctx context.Context, c *websocket.Conn) string {
	t.Helper()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// TestBroadcast: what one member sends, cleaned, every member receives, the
// sender too; a message that is not JSON ends the sender's connection with
// 1003 and the others stay; Shutdown sends "going away" (1001) to those
// left.
func TestBroadcast(t *testing.T) {
	app := newApp(nil, quiet)
	base := serve(t, app)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(base, "http") + "/ws"
	a, _, err := dial(t, ctx, ws, base) // a browser on the page sends its origin
	if err != nil {
		t.Fatal(err)
	}
	defer a.CloseNow()
	b, _, err := dial(t, ctx, ws, "") // a non-browser client sends none
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseNow()

	a.Write(ctx, websocket.MessageText, []byte(`{"name":"  ann ","text":"hello <b>all</b>"}`))
	want := `{"name":"ann","text":"hello \u003cb\u003eall\u003c/b\u003e"}` // JSON-escaped; the page shows it as text
	if got := read(t, ctx, a); got != want {
		t.Errorf("sender got %s, want %s", got, want)
	}
	if got := read(t, ctx, b); got != want {
		t.Errorf("other member got %s, want %s", got, want)
	}
	b.Write(ctx, websocket.MessageText, []byte(`{"text":"  "}`)) // empty: not sent
	b.Write(ctx, websocket.MessageText, []byte(`{"text":"from b"}`))
	if got := read(t, ctx, a); got != `{"name":"anonymous","text":"from b"}` {
		t.Errorf("got %s", got)
	}
	read(t, ctx, b)

	b.Write(ctx, websocket.MessageText, []byte(`not json`))
	if _, _, err := b.Read(ctx); websocket.CloseStatus(err) != websocket.StatusUnsupportedData {
		t.Errorf("after a malformed message: %v, want close 1003", err)
	}
	a.Write(ctx, websocket.MessageText, []byte(`{"name":"ann","text":"still here"}`))
	if got := read(t, ctx, a); !strings.Contains(got, "still here") {
		t.Errorf("got %s", got)
	}

	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	go app.Shutdown(sctx)
	if _, _, err := a.Read(ctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("at shutdown: %v, want close 1001", err)
	}
}

// TestCrossOriginRefused: a handshake from a page of another origin is
// refused with 403, unless ORIGINS lets that origin in.
func TestCrossOriginRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tt := range []struct {
		origins []string
		origin  string
		status  int
	}{
		{nil, "http://evil.example", http.StatusForbidden},
		{nil, "http://127.0.0.1:1", http.StatusForbidden}, // another port is another origin
		{[]string{"chat.example.com"}, "https://chat.example.com", http.StatusSwitchingProtocols},
		{[]string{"chat.example.com"}, "http://evil.example", http.StatusForbidden},
	} {
		app := newApp(tt.origins, quiet)
		base := serve(t, app)
		c, res, err := dial(t, ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", tt.origin)
		if res == nil {
			t.Fatalf("origins %v, Origin %s: no response: %v", tt.origins, tt.origin, err)
		}
		if res.StatusCode != tt.status {
			t.Errorf("origins %v, Origin %s: status %d, want %d", tt.origins, tt.origin, res.StatusCode, tt.status)
		}
		if c != nil {
			c.Close(websocket.StatusNormalClosure, "")
		}
	}
}

// TestMemberOnceConnected: a client is in the room as soon as its dial
// returns, so a message another member sends right then reaches it (the
// handler once joined after the handshake, and such a message was lost).
func TestMemberOnceConnected(t *testing.T) {
	app := newApp(nil, quiet)
	base := serve(t, app)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(base, "http") + "/ws"
	a, _, err := dial(t, ctx, ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.CloseNow()
	for i := range 100 {
		b, _, err := dial(t, ctx, ws, "")
		if err != nil {
			t.Fatal(err)
		}
		a.Write(ctx, websocket.MessageText, []byte(`{"text":"hi"}`))
		rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
		_, got, err := b.Read(rctx)
		rcancel()
		if err != nil {
			t.Fatalf("connection %d: the message sent as it connected never came: %v", i, err)
		}
		if string(got) != `{"name":"anonymous","text":"hi"}` {
			t.Fatalf("connection %d got %s", i, got)
		}
		read(t, ctx, a)
		b.Close(websocket.StatusNormalClosure, "")
	}
}
