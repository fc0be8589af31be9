package core

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/internal/testcert"
)

type point struct {
	X int `json:"x" xml:"x"`
	Y int `json:"y" xml:"y"`
}

func (p point) String() string { return "<b>point</b>" }

// card is a Markup: Negotiate writes its HTML as it is.
type card struct{ title string }

func (c card) HTML() string { return "<h1>" + html.EscapeString(c.title) + "</h1>" }

func TestNegotiate(t *testing.T) {
	app := New(WithStartupOutput(nil))
	app.Get("/p", func(c Context) { c.Negotiate(point{1, 2}) })
	app.Get("/json-or-xml", func(c Context) { c.Negotiate(point{1, 2}, MIMEJSON, MIMEXML) })
	app.Get("/user-text", func(c Context) { c.Negotiate(c.Query("q"), MIMEHTML, MIMEText) })
	app.Get("/card", func(c Context) { c.Negotiate(card{"a<b"}, MIMEHTML) })
	tests := []struct {
		path, accept string
		status       int
		ctype, body  string
	}{
		{"/p", "", 200, "application/json", `{"x":1,"y":2}`},
		{"/p", "application/json", 200, "application/json", `{"x":1,"y":2}`},
		{"/p", "application/xml", 200, "application/xml", `<point><x>1</x><y>2</y></point>`},
		{"/p", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", 200, "text/html", "&lt;b&gt;point&lt;/b&gt;"},
		{"/p", "text/plain", 200, "text/plain", "<b>point</b>"},
		{"/p", "text/*;q=0.5, application/json;q=0.4", 200, "text/html", "&lt;b&gt;point&lt;/b&gt;"},
		{"/user-text?q=%3Cscript%3Ex%3C/script%3E", "text/html", 200, "text/html", "&lt;script&gt;x&lt;/script&gt;"}, // a string is text, not markup
		{"/user-text?q=%3Cscript%3E", "text/plain", 200, "text/plain", "<script>"},
		{"/card", "text/html", 200, "text/html", "<h1>a&lt;b</h1>"},
		{"/p", "application/*;q=0.2, application/xml;q=0", 200, "application/json", `{"x":1,"y":2}`},
		{"/p", "*/*", 200, "application/json", `{"x":1,"y":2}`},
		{"/p", "image/png", 406, "text/plain", "Not Acceptable: acceptable: application/json, application/xml, text/html, text/plain"},
		{"/json-or-xml", "text/html", 406, "text/plain", ""},
		{"/json-or-xml", "application/xml;q=0.9, application/json;q=0.8", 200, "application/xml", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.accept, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), tt.ctype) {
				t.Fatalf("%d %q, want %d %q", rec.Code, rec.Header().Get("Content-Type"), tt.status, tt.ctype)
			}
			if got := strings.TrimSpace(rec.Body.String()); tt.body != "" && !strings.HasSuffix(got, tt.body) {
				t.Errorf("body %q, want %q", got, tt.body)
			}
		})
	}
}

func TestAttachment(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "report.csv"), []byte("a,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	app := New(WithStartupOutput(nil))
	app.Get("/named", func(c Context) { c.Download(filepath.Join(dir, "report.csv"), "Q1 résumé \"x\".csv") })
	app.Get("/plain", func(c Context) { c.Download(filepath.Join(dir, "report.csv"), "") })
	tests := []struct{ path, want string }{
		{"/plain", `attachment; filename="report.csv"`},
		{"/named", `attachment; filename="Q1 r_sum_ _x_.csv"; filename*=UTF-8''Q1%20r%C3%A9sum%C3%A9%20%22x%22.csv`},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != 200 || rec.Body.String() != "a,b\n" {
			t.Errorf("%s: %d %q", tt.path, rec.Code, rec.Body)
		}
		if got := rec.Header().Get("Content-Disposition"); got != tt.want {
			t.Errorf("%s: Content-Disposition %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestSSE(t *testing.T) {
	next := make(chan struct{})
	app := New(WithStartupOutput(nil))
	app.Get("/events", func(c Context) {
		s, err := c.SSE()
		if err != nil {
			c.StopWithError(err)
			return
		}
		s.Retry(3 * time.Second)
		s.Send("greeting", "1", "hello\nworld")
		<-next // the client has read the first event: it was flushed
		if err := s.Send("bad\nname", "", "x"); err != ErrInvalidEventField {
			t.Errorf("Send with a line break in the name: %v", err)
		}
		s.Comment("keep-alive")
		s.Send("", "", "bye")
	})
	srv := httptest.NewServer(app)
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("headers %v", res.Header)
	}
	br := bufio.NewReader(res.Body)
	var first strings.Builder
	for !strings.HasSuffix(first.String(), "data: world\n\n") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("%q: %v", first.String(), err)
		}
		first.WriteString(line)
	}
	if want := "retry: 3000\n\nevent: greeting\nid: 1\ndata: hello\ndata: world\n\n"; first.String() != want {
		t.Errorf("first event %q, want %q", first.String(), want)
	}
	close(next)
	rest, _ := io.ReadAll(br)
	if string(rest) != ": keep-alive\n\ndata: bye\n\n" {
		t.Errorf("rest %q", rest)
	}
}

func TestListenTLS(t *testing.T) {
	certFile, keyFile, pool := testcert.Write(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var startup bytes.Buffer // read after ListenTLS returned
	app := New(WithStartupOutput(&startup))
	app.Get("/", func(c Context) { c.Text(c.Request().Proto + " " + c.Scheme()) })
	errc := make(chan error, 1)
	go func() { errc <- app.ListenTLS(addr, certFile, keyFile) }()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	var res *http.Response
	for i := 0; i < 100; i++ {
		if res, err = client.Get("https://" + addr + "/"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.ProtoMajor != 2 || string(body) != "HTTP/2.0 https" {
		t.Errorf("proto %s, body %q", res.Proto, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	app.Shutdown(ctx)
	if err := <-errc; err != nil {
		t.Errorf("ListenTLS: %v", err)
	}
	if want := "Now listening on: https://" + addr + "\n"; !strings.HasPrefix(startup.String(), want) {
		t.Errorf("startup output %q, want it to start with %q", startup.String(), want)
	}
	if err := New(WithStartupOutput(nil)).ListenTLS("127.0.0.1:0", "/nonexistent", "/nonexistent"); err == nil {
		t.Error("missing certificate accepted")
	}
}

// TestSSEDataLineBreaks checks that every line break the SSE format knows
// (CRLF, LF and a lone CR) splits the data into data lines, so data from
// users cannot end the event early or add an event, id or retry field.
func TestSSEDataLineBreaks(t *testing.T) {
	tests := []struct{ data, want string }{
		{"a\nb", "data: a\ndata: b\n\n"},
		{"a\r\nb", "data: a\ndata: b\n\n"},
		{"a\rb", "data: a\ndata: b\n\n"},
		{"x\revent: evil", "data: x\ndata: event: evil\n\n"},
		{"x\r\rid: 9\rretry: 1", "data: x\ndata: \ndata: id: 9\ndata: retry: 1\n\n"},
		{"end\r", "data: end\ndata: \n\n"},
	}
	for _, tt := range tests {
		app := New(WithStartupOutput(nil))
		app.Get("/events", func(c Context) {
			s, err := c.SSE()
			if err != nil {
				c.StopWithError(err)
				return
			}
			s.Send("", "", tt.data)
		})
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", "/events", nil))
		if rec.Body.String() != tt.want {
			t.Errorf("Send(%q) wrote %q, want %q", tt.data, rec.Body.String(), tt.want)
		}
	}
}

// TestContentDisposition checks the RFC 6266 forms: a plain ASCII name in
// filename alone; any other name also in filename*, whose value has only
// RFC 8187 attr-chars and percent-encoded bytes, so the exact name (quotes,
// colons, equals signs included) reaches the client.
func TestContentDisposition(t *testing.T) {
	tests := []struct{ name, want string }{
		{"report.csv", `attachment; filename="report.csv"`},
		{"a b!#$&+-.^_`|~.txt", "attachment; filename=\"a b!#$&+-.^_`|~.txt\""},
		{`a"b\c.csv`, `attachment; filename="a_b_c.csv"; filename*=UTF-8''a%22b%5Cc.csv`},
		{"x:y=z@w é.txt", `attachment; filename="x:y=z@w _.txt"; filename*=UTF-8''x%3Ay%3Dz%40w%20%C3%A9.txt`},
		{"a;b,c(d)'e*.txt\n", `attachment; filename="a;b,c(d)'e*.txt_"; filename*=UTF-8''a%3Bb%2Cc%28d%29%27e%2A.txt%0A`},
	}
	for _, tt := range tests {
		if got := contentDisposition(tt.name); got != tt.want {
			t.Errorf("contentDisposition(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestServeFileErrors checks that ServeFile's failures are the
// application's error pages, not net/http's plain text, and that a
// directory is never listed.
func TestServeFileErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	app := New(WithStartupOutput(nil))
	app.OnErrorCode(http.StatusNotFound, func(c Context) { c.Text("custom 404") })
	app.Get("/file/{name}", func(c Context) { c.ServeFile(filepath.Join(dir, c.Param("name"))) })
	app.Get("/dir", func(c Context) { c.ServeFile(dir) })
	app.Get("/missing-download", func(c Context) { c.Download(filepath.Join(dir, "none.csv"), "") })
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/file/a.txt", 200, "hello"},
		{"/file/none.txt", 404, "custom 404"},
		{"/dir", 404, "custom 404"},
		{"/missing-download", 404, "custom 404"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != tt.status || strings.TrimSpace(rec.Body.String()) != tt.body {
			t.Errorf("%s: %d %q, want %d %q", tt.path, rec.Code, rec.Body.String(), tt.status, tt.body)
		}
		if tt.status == 404 && rec.Header().Get("Content-Disposition") != "" {
			t.Errorf("%s: error page kept Content-Disposition %q", tt.path, rec.Header().Get("Content-Disposition"))
		}
	}
}
