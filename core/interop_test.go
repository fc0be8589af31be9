package core

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type userKey struct{}

func TestWrapMiddleware(t *testing.T) {
	auth := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "secret" {
				http.Error(w, "denied", http.StatusUnauthorized)
				return
			}
			w.Header().Set("X-Auth", "ok")
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, "ann")))
		})
	}
	upper := func(next http.Handler) http.Handler { // wraps the writer
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(upperWriter{w}, r)
		})
	}
	wraps := 0
	counting := func(next http.Handler) http.Handler {
		wraps++
		return next
	}
	app := quietApp()
	app.Use(WrapMiddleware(counting))
	app.Get("/me", WrapMiddleware(auth), WrapMiddleware(upper), func(c Context) {
		c.WriteString("hello " + c.Request().Context().Value(userKey{}).(string))
	})
	for i := 0; i < 3; i++ {
		r := httptest.NewRequest("GET", "/me", nil)
		r.Header.Set("Authorization", "secret")
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Code != 200 || w.Body.String() != "HELLO ANN" || w.Header().Get("X-Auth") != "ok" {
			t.Fatalf("got %d %q", w.Code, w.Body)
		}
	}
	if wraps != 1 {
		t.Fatalf("middleware wrapped %d times, want once at registration", wraps)
	}
	if w := do(app, "GET", "/me", nil); w.Code != 401 || !strings.Contains(w.Body.String(), "denied") {
		t.Fatalf("std middleware stop: %d %q", w.Code, w.Body)
	}
}

type upperWriter struct{ http.ResponseWriter }

func (u upperWriter) Write(p []byte) (int, error) {
	return u.ResponseWriter.Write([]byte(strings.ToUpper(string(p))))
}

func TestWrapHandlerPathValues(t *testing.T) {
	std := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "id="+r.PathValue("id"))
	})
	app := quietApp(WithPathValues())
	app.Get("/users/{id}", WrapHandler(std))
	if w := do(app, "GET", "/users/7", nil); w.Body.String() != "id=7" {
		t.Fatalf("PathValue: %q", w.Body)
	}
	plain := quietApp()
	plain.Get("/users/{id}", WrapHandler(std))
	if w := do(plain, "GET", "/users/7", nil); w.Body.String() != "id=" {
		t.Fatalf("PathValue without option: %q", w.Body)
	}
}

func TestMount(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Method+" "+r.URL.Path) })
	app := quietApp()
	app.Group("/api").Mount("/legacy", mux)
	tests := []struct{ method, target, body string }{
		{"GET", "/api/legacy", "GET /"},
		{"GET", "/api/legacy/x/y", "GET /x/y"},
		{"POST", "/api/legacy/z", "POST /z"},
	}
	for _, tt := range tests {
		if w := do(app, tt.method, tt.target, nil); w.Body.String() != tt.body {
			t.Errorf("%s %s: %d %q", tt.method, tt.target, w.Code, w.Body)
		}
	}
	// Vireo inside a std mux.
	outer := http.NewServeMux()
	outer.Handle("/v/", http.StripPrefix("/v", app))
	if w := do(outer, "GET", "/v/api/legacy/q", nil); w.Body.String() != "GET /q" {
		t.Errorf("vireo in mux: %q", w.Body)
	}
}

func TestHijackAndFlush(t *testing.T) {
	app := quietApp()
	app.Get("/ws", func(c Context) {
		conn, brw, err := http.NewResponseController(c.ResponseWriter()).Hijack()
		if err != nil {
			c.StopWithError(err)
			return
		}
		defer conn.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\nhijacked")
		brw.Flush()
	})
	app.Get("/stream", func(c Context) {
		rc := http.NewResponseController(c.ResponseWriter())
		for i := 0; i < 3; i++ {
			c.WriteString("tick\n")
			if err := rc.Flush(); err != nil {
				c.StopWithError(err)
				return
			}
		}
		if err := rc.SetWriteDeadline(time.Now().Add(time.Second)); err != nil {
			t.Errorf("SetWriteDeadline through Unwrap: %v", err)
		}
	})
	srv := httptest.NewServer(app)
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(conn, "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || res.StatusCode != 101 {
		t.Fatalf("hijack: %v %v", res, err)
	}
	conn.Close()

	res, err = http.Get(srv.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "tick\ntick\ntick\n" || len(res.TransferEncoding) == 0 {
		t.Fatalf("stream: %q %v", body, res.TransferEncoding)
	}
}
