// Command chat is a chat room over WebSockets: a page served by Vireo, a
// WebSocket endpoint on github.com/coder/websocket, and every message
// broadcast to everyone in the room.
//
//	cd _examples/chat && go run .
//	open http://127.0.0.1:8080/ in two browser windows
//
// It listens on $ADDR (default 127.0.0.1:8080). WebSocket handshakes are
// accepted from pages of the server's own origin only, coder/websocket's
// default: a page elsewhere that opens ws://this-server/ws gets 403, so
// another site cannot talk to the room with a visitor's cookies (a
// WebSocket is not bound by CORS). $ORIGINS (comma-separated host
// patterns, e.g. "chat.example.com,*.example.com") lets other origins in,
// through AcceptOptions.OriginPatterns.
//
// The Context rule: websocket.Accept hijacks the connection, which from
// then on is the handler's, while the Context stays a handle that is valid
// only until the handler returns. So the handler serves the connection
// itself, until the client leaves: it reads in its own goroutine, its
// writer goroutine uses only the connection and the request's
// context.Context, and the handler returns only after that goroutine has
// finished, so nothing outlives it. (A connection served after the handler
// returned would take ctx.Clone() for any request data, and
// context.WithoutCancel(ctx.Request().Context()), since the request's
// context ends with the handler.) net/http's Shutdown neither closes nor
// waits for hijacked connections: an OnShutdown hook closes the room,
// which sends every member a "going away" close frame and waits for the
// handlers.
package main

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"log"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/vireo-go/vireo"
)

//go:embed index.html
var page string

// Limits of a message.
const (
	maxMessage   = 4 << 10 // bytes of a WebSocket message read
	maxName      = 32      // characters
	maxText      = 500     // characters
	writeTimeout = 10 * time.Second
)

// message is what clients send and receive.
type message struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// clean returns m trimmed, with a default name; ok is false for an empty
// text or one past the limits.
func (m message) clean() (message, bool) {
	m.Name, m.Text = strings.TrimSpace(m.Name), strings.TrimSpace(m.Text)
	if m.Name == "" {
		m.Name = "anonymous"
	}
	ok := m.Text != "" && utf8.RuneCountInString(m.Text) <= maxText && utf8.RuneCountInString(m.Name) <= maxName
	return m, ok
}

// newApp builds the application and its room; origins are the
// OriginPatterns of other origins allowed (none: same origin only).
func newApp(origins []string, opts ...vireo.Option) *vireo.Application {
	app := vireo.New(opts...)
	r := newRoom()
	accept := &websocket.AcceptOptions{OriginPatterns: origins}
	app.Get("/", func(ctx vireo.Context) { ctx.HTML(page) })
	app.Get("/ws", func(ctx vireo.Context) { r.serve(ctx, accept) })
	app.OnShutdown(r.close)
	return app
}

// serve runs one member's connection until the client leaves, is dropped
// or the room closes; see the Context rule in the package comment.
func (r *room) serve(ctx vireo.Context, accept *websocket.AcceptOptions) {
	// Join before the handshake completes: a client whose connection is
	// open receives every message broadcast after that, even one sent by
	// another member the moment its dial returned.
	m := r.join()
	conn, err := websocket.Accept(ctx.ResponseWriter(), ctx.Request(), accept)
	if err != nil {
		if m != nil {
			r.leave(m)
			r.wg.Done()
		}
		return // Accept has answered: 403 for another origin, 400 or 426 for no handshake
	}
	defer conn.CloseNow()
	conn.SetReadLimit(maxMessage)
	if m == nil {
		conn.Close(websocket.StatusGoingAway, "the server is shutting down")
		return
	}
	defer r.wg.Done()
	rctx := ctx.Request().Context() // ends when this handler returns

	written := make(chan struct{})
	go func() { // the writer: the member's queue to the connection
		defer close(written)
		for msg := range m.queue {
			wctx, cancel := context.WithTimeout(rctx, writeTimeout)
			err := conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				conn.CloseNow()
				return
			}
		}
		code, reason := r.closeStatus(m)
		conn.Close(code, reason) // also ends the read loop below
	}()

	for {
		_, data, err := conn.Read(rctx)
		if err != nil {
			break // the client left, or the writer closed the connection
		}
		var in message
		if json.Unmarshal(data, &in) != nil {
			r.mu.Lock()
			r.end(m, websocket.StatusUnsupportedData, `messages are JSON {"name": ..., "text": ...}`)
			r.mu.Unlock()
			continue // the writer sends the close frame; Read then fails
		}
		if out, ok := in.clean(); ok {
			b, _ := json.Marshal(out)
			r.broadcast(b)
		}
	}
	r.leave(m)
	<-written
}

func main() {
	var origins []string
	if o := os.Getenv("ORIGINS"); o != "" {
		origins = strings.Split(o, ",")
	}
	app := newApp(origins)
	if err := app.Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
}
