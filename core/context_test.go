package core

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

type payload struct {
	Name string   `json:"name" form:"name"`
	Age  int      `json:"age" form:"age"`
	Tags []string `json:"tags" form:"tag"`
	OK   bool     `json:"ok" form:"ok"`
}

func TestReadJSON(t *testing.T) {
	app := quietApp(WithBodyLimit(64))
	app.Post("/p", func(c Context) {
		var p payload
		if err := c.ReadJSON(&p); err != nil {
			c.StopWithError(err)
			return
		}
		c.JSON(p)
	})
	tests := []struct {
		name, body string
		code       int
		want       string
		ct         string // "" means application/json
	}{
		{"valid", `{"name":"ann","age":3}`, 200, `{"name":"ann","age":3,"tags":null,"ok":false}`, ""},
		{"+json type", `{"age":3}`, 200, `{"name":"","age":3`, "application/merge-patch+json; charset=utf-8"},
		{"text/plain (cross-site form)", `{"age":3}`, 415, "Unsupported Media Type: request body must be JSON", "text/plain"},
		{"no content type", `{"age":3}`, 415, "Unsupported Media Type", "-"},
		{"form type", `{"age":3}`, 415, "Unsupported Media Type", "application/x-www-form-urlencoded"},
		{"empty", ``, 400, "Bad Request: empty request body, JSON expected", ""},
		{"malformed", `{"name":`, 400, "Bad Request: malformed JSON: unexpected end of body", ""},
		{"syntax", `{"name" "x"}`, 400, "Bad Request: malformed JSON at offset 9", ""},
		{"type", `{"age":"old"}`, 400, "Bad Request: JSON field age: expected int, got string", ""},
		{"trailing", `{"age":1} {"age":2}`, 400, "Bad Request: malformed JSON: data after the top-level value", ""},
		{"too large", `{"name":"` + strings.Repeat("x", 100) + `"}`, 413, "Request Entity Too Large: request body larger than 64 bytes", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := postTyped(app, "/p", tt.body, tt.ct, "application/json")
			if w.Code != tt.code || !strings.HasPrefix(w.Body.String(), tt.want) {
				t.Fatalf("got %d %q; want %d %q", w.Code, w.Body, tt.code, tt.want)
			}
		})
	}
}

func TestReadFormAndValues(t *testing.T) {
	app := quietApp(WithBodyLimit(1024))
	app.Post("/f", func(c Context) {
		var p payload
		if err := c.ReadForm(&p); err != nil {
			c.StopWithError(err)
			return
		}
		c.JSON(map[string]any{"p": p, "fv": c.FormValue("name"), "pv": c.PostValue("q"), "q": c.Query("q"), "d": c.QueryDefault("none", "def")})
	})
	post := func(body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/f?q=query", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		return w
	}
	w := post(url.Values{"name": {"bo"}, "age": {"7"}, "tag": {"a", "b"}, "ok": {"on"}}.Encode())
	want := `{"d":"def","fv":"bo","p":{"name":"bo","age":7,"tags":["a","b"],"ok":true},"pv":"","q":"query"}`
	if w.Code != 200 || w.Body.String() != want {
		t.Fatalf("got %d %s\nwant %s", w.Code, w.Body, want)
	}
	if w := post("age=old"); w.Code != 400 || !strings.Contains(w.Body.String(), "form field age") {
		t.Fatalf("bad int: %d %q", w.Code, w.Body)
	}
	if w := post("name=" + strings.Repeat("x", 2000)); w.Code != 413 && w.Code != 400 {
		t.Fatalf("oversized form: %d %q", w.Code, w.Body)
	}
}

func TestResponses(t *testing.T) {
	app := quietApp()
	app.Get("/text", func(c Context) { c.Text("hi") })
	app.Get("/html", func(c Context) { c.HTML("<b>hi</b>") })
	app.Get("/json", func(c Context) { c.JSON(map[string]int{"a": 1}) })
	app.Get("/indent", func(c Context) { c.JSONIndent(map[string]int{"a": 1}, "  ") })
	app.Get("/badjson", func(c Context) { c.JSON(map[string]any{"f": func() {}}) })
	app.Get("/xml", func(c Context) {
		c.XML(struct {
			XMLName struct{} `xml:"v"`
			N       int      `xml:"n"`
		}{N: 5})
	})
	app.Get("/redirect", func(c Context) { c.Redirect("/elsewhere", http.StatusSeeOther) })
	app.Get("/cookie", func(c Context) {
		v, ok := c.RequestCookie("in")
		if !ok {
			c.StopWithError(NewHTTPError(400, "no cookie"))
			return
		}
		c.SetCookie(&http.Cookie{Name: "out", Value: v + "!", HttpOnly: true})
		c.Text(c.RequestHeader("X-Req"))
	})
	tests := []struct {
		target, ct, body string
		code             int
	}{
		{"/text", "text/plain; charset=utf-8", "hi", 200},
		{"/html", "text/html; charset=utf-8", "<b>hi</b>", 200},
		{"/json", "application/json; charset=utf-8", `{"a":1}`, 200},
		{"/indent", "application/json; charset=utf-8", "{\n  \"a\": 1\n}", 200},
		{"/badjson", "text/plain; charset=utf-8", "Internal Server Error", 500},
		{"/xml", "application/xml; charset=utf-8", `<?xml version="1.0" encoding="UTF-8"?>` + "\n<v><n>5</n></v>", 200},
	}
	for _, tt := range tests {
		w := do(app, "GET", tt.target, nil)
		if w.Code != tt.code || w.Header().Get("Content-Type") != tt.ct || w.Body.String() != tt.body {
			t.Errorf("%s: got %d %q %q", tt.target, w.Code, w.Header().Get("Content-Type"), w.Body)
		}
	}
	if w := do(app, "GET", "/redirect", nil); w.Code != 303 || w.Header().Get("Location") != "/elsewhere" {
		t.Errorf("redirect: %d %q", w.Code, w.Header().Get("Location"))
	}
	r := httptest.NewRequest("GET", "/cookie", nil)
	r.AddCookie(&http.Cookie{Name: "in", Value: "v"})
	r.Header.Set("X-Req", "hdr")
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	if w.Body.String() != "hdr" || !strings.Contains(w.Header().Get("Set-Cookie"), "out=v!") {
		t.Errorf("cookie: %q %q", w.Body, w.Header().Get("Set-Cookie"))
	}
	if w := do(app, "GET", "/cookie", nil); w.Code != 400 {
		t.Errorf("missing cookie: %d", w.Code)
	}
}

// TestRequestHeaderValues reads a header sent on several lines line by
// line, in order and whatever the case of the name asked for, and nil for
// a header the request lacks.
func TestRequestHeaderValues(t *testing.T) {
	app := quietApp()
	app.Get("/h", func(c Context) {
		vs := c.RequestHeaderValues(c.Query("name"))
		if vs == nil {
			c.Text("nil")
			return
		}
		c.Text(strings.Join(vs, "|"))
	})
	tests := []struct{ name, want string }{
		{"X-Multi", "a, b|c"},
		{"x-multi", "a, b|c"},
		{"Cookie", "k=1|l=2; m=3"},
		{"X-None", "nil"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/h?name="+tt.name, nil)
		r.Header.Add("X-Multi", "a, b")
		r.Header.Add("X-Multi", "c")
		r.Header.Add("Cookie", "k=1")
		r.Header.Add("Cookie", "l=2; m=3")
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Body.String() != tt.want {
			t.Errorf("RequestHeaderValues(%q) = %q, want %q", tt.name, w.Body, tt.want)
		}
	}
}

func TestClientIP(t *testing.T) {
	tests := []struct {
		name, peer, xff string
		opts            []Option
		want            string
	}{
		{"no proxy config ignores header", "203.0.113.9:1234", "1.2.3.4", nil, "203.0.113.9"},
		{"untrusted peer ignores header", "203.0.113.9:1234", "1.2.3.4", []Option{WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8")}, "203.0.113.9"},
		{"trusted peer", "10.1.2.3:1234", "1.2.3.4", []Option{WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8")}, "1.2.3.4"},
		{"spoofed left entries skipped", "10.1.2.3:1234", "6.6.6.6, 1.2.3.4, 10.9.9.9", []Option{WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8")}, "1.2.3.4"},
		{"single address", "127.0.0.1:1", "5.5.5.5", []Option{WithTrustedProxies("X-Real-Ip", "127.0.0.1")}, "127.0.0.1"},
		{"real ip", "127.0.0.1:1", "5.5.5.5", []Option{WithTrustedProxies("X-Forwarded-For", "127.0.0.1")}, "5.5.5.5"},
		{"garbage header", "10.1.2.3:1", "not-an-ip", []Option{WithTrustedProxies("X-Forwarded-For", "10.0.0.0/8")}, "10.1.2.3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := quietApp(tt.opts...)
			app.Get("/", func(c Context) { c.WriteString(c.ClientIP()) })
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			r.Header.Set("X-Forwarded-For", tt.xff)
			w := httptest.NewRecorder()
			app.ServeHTTP(w, r)
			if w.Body.String() != tt.want {
				t.Fatalf("ClientIP = %q, want %q", w.Body, tt.want)
			}
		})
	}
	if err := quietApp(WithTrustedProxies("X-Forwarded-For", "nonsense")).Build(); err == nil {
		t.Fatal("bad proxy network accepted")
	}
}

func TestParamsGetters(t *testing.T) {
	ps := paramsOf(paramList{{"id", "42"}, {"big", "18446744073709551615"}, {"b", "true"}, {"neg", "-5"}})
	if n, err := ps.Int("id"); n != 42 || err != nil {
		t.Error("Int")
	}
	if n, err := ps.Uint64("big"); n != 18446744073709551615 || err != nil {
		t.Error("Uint64")
	}
	if n, err := ps.Int64("neg"); n != -5 || err != nil {
		t.Error("Int64")
	}
	if b, err := ps.Bool("b"); !b || err != nil {
		t.Error("Bool")
	}
	if _, err := ps.Int("missing"); err == nil {
		t.Error("Int of missing param")
	}
	if _, ok := ps.Lookup("missing"); ok {
		t.Error("Lookup")
	}
}

func TestReadBodyLimit(t *testing.T) {
	app := quietApp(WithBodyLimit(10))
	app.Post("/", func(c Context) {
		b, err := c.ReadBody()
		if err != nil {
			c.StopWithError(err)
			return
		}
		c.Write(b)
	})
	if w := do(app, "POST", "/", strings.NewReader("0123456789")); w.Body.String() != "0123456789" {
		t.Fatalf("within limit: %d %q", w.Code, w.Body)
	}
	w := do(app, "POST", "/", strings.NewReader("0123456789+"))
	if w.Code != 413 {
		t.Fatalf("over limit: %d", w.Code)
	}
	var he *HTTPError
	if !errors.As(NewHTTPError(413, "x"), &he) || StatusOf(io.EOF) != 500 {
		t.Fatal("StatusOf")
	}
}

func TestReadXML(t *testing.T) {
	type item struct {
		Name string `xml:"name"`
	}
	app := quietApp(WithBodyLimit(64))
	app.Post("/x", func(c Context) {
		var it item
		if err := c.ReadXML(&it); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text(it.Name)
	})
	tests := []struct {
		name, body string
		code       int
		want       string
		ct         string // "" means application/xml, "-" none
	}{
		{"valid", `<item><name>ann</name></item>`, 200, "ann", ""},
		{"text/xml", `<item><name>ann</name></item>`, 200, "ann", "text/xml; charset=utf-8"},
		{"+xml type", `<item><name>ann</name></item>`, 200, "ann", "application/atom+xml"},
		{"empty", ``, 400, "Bad Request: empty request body, XML expected", ""},
		{"malformed", `<item><name>`, 400, "Bad Request: malformed XML", ""},
		{"too large", `<item><name>` + strings.Repeat("x", 100) + `</name></item>`, 413, "Request Entity Too Large", ""},
		// A cross-site page can post text/plain, or a Blob with no type
		// (no Content-Type at all), without a CORS preflight.
		{"text/plain (cross-site form)", `<item><name>ann</name></item>`, 415, "Unsupported Media Type", "text/plain"},
		{"no content type (cross-site blob)", `<item><name>ann</name></item>`, 415, "Unsupported Media Type", "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := postTyped(app, "/x", tt.body, tt.ct, "application/xml")
			if w.Code != tt.code || !strings.HasPrefix(w.Body.String(), tt.want) {
				t.Fatalf("got %d %q; want %d %q", w.Code, w.Body, tt.code, tt.want)
			}
		})
	}
}

// TestWritersReportThroughErr checks the one error path: a writer that
// fails returns nothing but stops the chain with the error, which StopError and
// the error page report.
func TestWritersReportThroughErr(t *testing.T) {
	var got error
	app := quietApp()
	app.Use(func(c Context) { c.Next(); got = c.StopError() })
	app.Get("/json", func(c Context) { c.JSON(func() {}) })
	app.Get("/xml", func(c Context) { c.XML(func() {}) })
	app.Get("/view", func(c Context) { c.View("page.html", nil) })
	tests := []struct {
		target string
		want   error
	}{
		{"/json", nil},
		{"/xml", nil},
		{"/view", ErrNoViewEngine},
	}
	for _, tt := range tests {
		got = nil
		w := do(app, "GET", tt.target, nil)
		if w.Code != 500 || got == nil || StatusOf(got) != 500 {
			t.Errorf("%s: status %d, Err() = %v; want 500 and an error", tt.target, w.Code, got)
		}
		if tt.want != nil && !errors.Is(got, tt.want) {
			t.Errorf("%s: Err() = %v, want %v", tt.target, got, tt.want)
		}
	}
}

// TestInvalidStatusCode checks that a status net/http would panic on (below
// 100 or above 999) becomes a 500 whose error names the code, instead of a
// panic that aborts the connection or escapes ServeHTTP. A handler that
// writes after it gets the 500 with its body, as after StopWithError.
func TestInvalidStatusCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Handler
		body string
	}{
		{"SetStatus 0 then write", func(c Context) { c.SetStatus(0); c.WriteString("x") }, "x"},
		{"SetStatus 42 then write", func(c Context) { c.SetStatus(42); c.WriteString("x") }, "x"},
		{"SetStatus 1000 then write", func(c Context) { c.SetStatus(1000); c.WriteString("x") }, "x"},
		{"SetStatus 1000", func(c Context) { c.SetStatus(1000) }, "error page"},
		{"StopWithStatus 0", func(c Context) { c.StopWithStatus(0) }, "error page"},
		{"StopWithStatus 99", func(c Context) { c.StopWithStatus(99) }, "error page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := quietApp()
			var gotErr error
			app.Get("/", tc.h)
			app.OnErrorCode(http.StatusInternalServerError, func(c Context) {
				gotErr = c.StopError()
				c.WriteString("error page")
			})
			w := httptest.NewRecorder()
			app.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
			if w.Code != http.StatusInternalServerError || w.Body.String() != tc.body {
				t.Errorf("got %d %q, want 500 %q", w.Code, w.Body.String(), tc.body)
			}
			if tc.body == "error page" && (gotErr == nil || !strings.Contains(gotErr.Error(), "invalid status code")) {
				t.Errorf("Err() = %v, want an invalid status code error", gotErr)
			}
		})
	}
}

// TestReadJSONBadTarget checks that a nil or non-pointer target, a bug in
// the handler, is a 500 and not a 400 blaming the client's JSON.
func TestReadJSONBadTarget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target func() any
	}{
		{"nil", func() any { return nil }},
		{"non-pointer", func() any { return payload{} }},
		{"nil pointer", func() any { return (*payload)(nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := quietApp()
			app.Post("/p", func(c Context) {
				if err := c.ReadJSON(tc.target()); err != nil {
					c.StopWithError(err)
					return
				}
				c.Text("ok")
			})
			r := httptest.NewRequest("POST", "/p", strings.NewReader(`{"name":"ann"}`))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			app.ServeHTTP(w, r)
			if w.Code != http.StatusInternalServerError {
				t.Errorf("got %d %q, want 500", w.Code, w.Body)
			}
		})
	}
}

// TestReadersHandlerBugs checks that a form field of a type ReadForm cannot
// fill, or a nil XML target, is a 500 (the handler's bug) and not a 400.
func TestReadersHandlerBugs(t *testing.T) {
	app := quietApp()
	app.Post("/form", func(c Context) {
		var v struct {
			When *int `form:"when"`
		}
		if err := c.ReadForm(&v); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("ok")
	})
	app.Post("/xml", func(c Context) {
		if err := c.ReadXML(nil); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("ok")
	})
	for _, tc := range []struct{ path, ct, body string }{
		{"/form", "application/x-www-form-urlencoded", "when=1"},
		{"/xml", "application/xml", "<a/>"},
	} {
		r := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body))
		r.Header.Set("Content-Type", tc.ct)
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Code != http.StatusInternalServerError {
			t.Errorf("%s: got %d %q, want 500", tc.path, w.Code, w.Body)
		}
	}
}

// paramsOf returns the Params of a live request state holding pl.
func paramsOf(pl paramList) Params {
	s := &state{params: pl}
	return s.handle().Params()
}

// TestParamsAfterRequest checks that a Params kept past its request reads
// nothing, while the state serves another request.
func TestParamsAfterRequest(t *testing.T) {
	app := quietApp()
	var kept Params
	app.Get("/a/{id}", func(c Context) { kept = c.Params() })
	var during string
	var n int
	app.Get("/b/{id}", func(c Context) {
		during, n = kept.Get("id"), kept.Len()
		c.WriteString(c.Params().Get("id"))
	})
	do(app, "GET", "/a/1", nil)
	if w := do(app, "GET", "/b/2", nil); w.Body.String() != "2" {
		t.Fatalf("/b/2 answered %q", w.Body)
	}
	if during != "" || n != 0 || kept.At(0) != (Param{}) {
		t.Fatalf("a kept Params read %q (%d parameters) during another request", during, n)
	}
	for k, v := range kept.All() {
		t.Fatalf("a kept Params iterated %s=%s", k, v)
	}
}

// postTyped posts body to path with Content-Type ct: def when ct is "",
// none when ct is "-".
func postTyped(app *Application, path, body, ct, def string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	switch ct {
	case "":
		r.Header.Set("Content-Type", def)
	case "-":
	default:
		r.Header.Set("Content-Type", ct)
	}
	w := httptest.NewRecorder()
	app.ServeHTTP(w, r)
	return w
}
