package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// send sends method target with the given headers and body to app.
func send(app *Application, method, target, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body == "" {
		req.Body = http.NoBody
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	w := httptest.NewRecorder()
	app.ServeHTTP(w, req)
	return w
}

// TestProblemBodyPerAccept checks the negotiated default error page: RFC
// 9457 Problem Details for clients that prefer JSON (the router's own 404
// included, which used to stay text), with the request ID and the fields
// of a ValidationError; text for browsers, curl and clients without Accept.
func TestProblemBodyPerAccept(t *testing.T) {
	app := quietApp()
	app.Get("/invalid", func(c Context) {
		c.StopWithError(&ValidationError{Fields: map[string]string{"name": "required"}})
	})
	app.Post("/json", func(c Context) {
		var v struct{ A int }
		c.StopWithError(c.ReadJSON(&v))
	})
	tests := []struct {
		name, method, target, body, accept string
		code                               int
		problem                            bool
		detail                             string
	}{
		{"404 json", "GET", "/missing", "", "application/json", 404, true, ""},
		{"404 problem+json", "GET", "/missing", "", "application/problem+json", 404, true, ""},
		{"404 browser", "GET", "/missing", "", "text/html,application/xhtml+xml,*/*;q=0.8", 404, false, ""},
		{"404 curl", "GET", "/missing", "", "*/*", 404, false, ""},
		{"404 no accept", "GET", "/missing", "", "", 404, false, ""},
		{"405 json", "POST", "/invalid", "", "application/json", 405, true, ""},
		{"validation json", "GET", "/invalid", "", "application/json", 400, true, "invalid fields"},
		{"malformed json", "POST", "/json", "{", "application/json", 400, true, "malformed JSON: unexpected end of body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := []string{"Content-Type", "application/json"}
			if tt.accept != "" {
				h = append(h, "Accept", tt.accept)
			}
			w := send(app, tt.method, tt.target, tt.body, h...)
			if w.Code != tt.code {
				t.Fatalf("status %d, want %d", w.Code, tt.code)
			}
			ct := w.Header().Get("Content-Type")
			if !tt.problem {
				if !strings.HasPrefix(ct, "text/plain") || !strings.HasPrefix(w.Body.String(), http.StatusText(tt.code)) {
					t.Errorf("Content-Type %q body %q, want the text page", ct, w.Body)
				}
				return
			}
			if ct != "application/problem+json; charset=utf-8" {
				t.Fatalf("Content-Type %q, want application/problem+json", ct)
			}
			var p map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			if p["type"] != "about:blank" || p["title"] != http.StatusText(tt.code) || p["status"] != float64(tt.code) || p["instance"] != tt.target {
				t.Errorf("problem %v", p)
			}
			if id, _ := p["requestId"].(string); id == "" || w.Header().Get("X-Request-Id") != id {
				t.Errorf("requestId %q, X-Request-Id %q", id, w.Header().Get("X-Request-Id"))
			}
			if d, _ := p["detail"].(string); d != tt.detail {
				t.Errorf("detail %q, want %q", d, tt.detail)
			}
			if tt.name == "validation json" {
				if errs, _ := p["errors"].(map[string]any); errs["name"] != "required" {
					t.Errorf("errors %v", p["errors"])
				}
			}
		})
	}
}

// TestErrorCauseHidden checks that the internal cause of an error never
// reaches the client: a 4xx HTTPError{Err: cause} without a Message (issue
// 22 item 9: it showed the cause, a file path) and a 5xx through the
// default page and through custom handlers that use ErrorMessage (which
// showed "panic: boom" when they printed Err().Error()).
func TestErrorCauseHidden(t *testing.T) {
	secret := errors.New("open /srv/secret/key.pem: permission denied")
	handlers := map[string]func(app *Application){
		"default": func(app *Application) {},
		"OnError": func(app *Application) {
			app.OnError(func(c Context, err error) { c.Text("custom: " + c.ErrorMessage()) })
		},
		"OnErrorCode": func(app *Application) {
			for _, code := range []int{403, 500} {
				app.OnErrorCode(code, func(c Context) { c.JSON(map[string]string{"error": c.ErrorMessage()}) })
			}
		},
	}
	for name, install := range handlers {
		for _, accept := range []string{"application/json", "text/plain"} {
			app := quietApp()
			install(app)
			app.Get("/4xx", func(c Context) { c.StopWithError(&HTTPError{Code: 403, Err: secret}) })
			app.Get("/5xx", func(c Context) { c.StopWithError(secret) })
			app.Get("/wrapped", func(c Context) { c.StopWithError(&HTTPError{Code: 500, Message: "try later", Err: secret}) })
			app.Get("/panic", func(c Context) { panic("boom " + secret.Error()) })
			for path, code := range map[string]int{"/4xx": 403, "/5xx": 500, "/wrapped": 500, "/panic": 500} {
				w := send(app, "GET", path, "", "Accept", accept)
				if w.Code != code || strings.Contains(w.Body.String(), "secret") || strings.Contains(w.Body.String(), "boom") {
					t.Errorf("%s, Accept %s: GET %s = %d %q, want %d without the cause", name, accept, path, w.Code, w.Body, code)
				}
				if path == "/wrapped" && !strings.Contains(w.Body.String(), "try later") {
					t.Errorf("%s: GET /wrapped = %q, want the public message", name, w.Body)
				}
			}
		}
	}
	// WithErrorDetails is the debug switch that shows it.
	app := quietApp(WithErrorDetails())
	app.Get("/5xx", func(c Context) { c.StopWithError(secret) })
	if w := send(app, "GET", "/5xx", ""); !strings.Contains(w.Body.String(), "secret") {
		t.Errorf("WithErrorDetails: %q, want the cause", w.Body)
	}
}

// TestOnError checks the application-wide error handler: it gets the
// error (or an HTTPError of the status), per-status handlers win where
// set, and a nil handler is a registration error.
func TestOnError(t *testing.T) {
	app := quietApp()
	var got []error
	app.OnError(func(c Context, err error) {
		got = append(got, err)
		c.Text("app-wide " + c.ErrorMessage())
	})
	app.OnErrorCode(http.StatusTeapot, func(c Context) { c.Text("teapot page") })
	mine := NewHTTPError(http.StatusConflict, "taken")
	app.Get("/conflict", func(c Context) { c.StopWithError(mine) })
	app.Get("/teapot", func(c Context) { c.StopWithStatus(http.StatusTeapot) })
	for path, want := range map[string]string{"/conflict": "app-wide taken", "/teapot": "teapot page", "/missing": "app-wide Not Found"} {
		if w := send(app, "GET", path, ""); w.Body.String() != want {
			t.Errorf("GET %s = %q, want %q", path, w.Body, want)
		}
	}
	if len(got) != 2 || !(got[0] == mine && StatusOf(got[1]) == 404 || got[1] == mine && StatusOf(got[0]) == 404) {
		t.Errorf("OnError got %v", got)
	}
	bad := quietApp()
	bad.OnError(nil)
	if err := bad.Build(); err == nil || !strings.Contains(err.Error(), "OnError: nil handler") {
		t.Errorf("OnError(nil): Build() = %v", err)
	}
}

// TestOverLimitIs413 checks every path that reads a body over the limit:
// ReadForm (urlencoded and multipart), FormValue and PostValue (which gave
// ""), and net/http's own Request().FormFile passed to StopWithError (which
// gave 500).
func TestOverLimitIs413(t *testing.T) {
	app := quietApp(WithBodyLimit(64))
	app.Post("/formvalue", func(c Context) { c.Text("got " + c.FormValue("a")) })
	app.Post("/postvalue", func(c Context) { c.Text("got " + c.PostValue("a")) })
	app.Post("/readform", func(c Context) {
		var v struct{ A string }
		if err := c.ReadForm(&v); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("got " + v.A)
	})
	app.Post("/formfile", func(c Context) {
		if _, _, err := c.Request().FormFile("f"); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("got file")
	})
	big := "a=" + strings.Repeat("x", 200)
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	fw, _ := mw.CreateFormFile("f", "f.txt")
	fw.Write(bytes.Repeat([]byte("y"), 200))
	mw.WriteField("a", "v")
	mw.Close()
	for _, path := range []string{"/formvalue", "/postvalue", "/readform", "/formfile"} {
		for _, tt := range []struct{ ct, body string }{
			{"application/x-www-form-urlencoded", big},
			{mw.FormDataContentType(), mp.String()},
		} {
			if path == "/formfile" && !strings.HasPrefix(tt.ct, "multipart/") {
				continue
			}
			w := send(app, "POST", path, tt.body, "Content-Type", tt.ct)
			if w.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("POST %s (%s): %d %q, want 413", path, tt.ct, w.Code, w.Body)
			}
		}
		if path == "/formfile" {
			continue
		}
		if w := send(app, "POST", path, "a=small", "Content-Type", "application/x-www-form-urlencoded"); w.Code != 200 || w.Body.String() != "got small" {
			t.Errorf("POST %s within the limit: %d %q", path, w.Code, w.Body)
		}
	}
}

// TestReadFormMediaType checks that ReadForm refuses a body that is not a
// form with 415, as ReadJSON refuses one that is not JSON (it returned nil
// and a zero struct), and still reads the query of a request without body.
func TestReadFormMediaType(t *testing.T) {
	app := quietApp()
	handler := func(c Context) {
		var v struct{ A string }
		if err := c.ReadForm(&v); err != nil {
			c.StopWithError(err)
			return
		}
		c.Text("a=" + v.A)
	}
	app.Post("/f", handler)
	app.Get("/f", handler)
	for _, ct := range []string{"application/json", "text/plain", ""} {
		w := send(app, "POST", "/f", `{"a":"x"}`, "Content-Type", ct)
		if w.Code != http.StatusUnsupportedMediaType {
			t.Errorf("ReadForm with Content-Type %q: %d %q, want 415", ct, w.Code, w.Body)
		}
	}
	if w := send(app, "GET", "/f?a=q", ""); w.Code != 200 || w.Body.String() != "a=q" {
		t.Errorf("GET with query: %d %q", w.Code, w.Body)
	}
	if w := send(app, "POST", "/f", "a=b", "Content-Type", "application/x-www-form-urlencoded"); w.Body.String() != "a=b" {
		t.Errorf("form: %d %q", w.Code, w.Body)
	}
}

// TestNegotiateNeverFails checks that Negotiate passes over an offer that
// cannot encode the value (XML and a map) or that it has no encoder for,
// and answers 406 when nothing is left, never 500.
func TestNegotiateNeverFails(t *testing.T) {
	app := quietApp()
	m := map[string]int{"a": 1}
	app.Get("/map", func(c Context) { c.Negotiate(m, MIMEXML, MIMEJSON) })
	app.Get("/xml-only", func(c Context) { c.Negotiate(m, MIMEXML) })
	app.Get("/yaml", func(c Context) { c.Negotiate(m, "application/yaml", MIMEJSON) })
	tests := []struct {
		path, accept string
		code         int
		ct           string
	}{
		{"/map", "application/xml", 406, ""},
		{"/map", "application/xml, application/json;q=0.5", 200, "application/json"},
		{"/map", "", 200, "application/json"},
		{"/xml-only", "", 406, ""},
		{"/yaml", "application/yaml, application/json;q=0.1", 200, "application/json"},
	}
	for _, tt := range tests {
		w := send(app, "GET", tt.path, "", "Accept", tt.accept)
		if w.Code != tt.code || !strings.HasPrefix(w.Header().Get("Content-Type"), tt.ct) {
			t.Errorf("GET %s Accept %q: %d %q %q, want %d %s", tt.path, tt.accept, w.Code, w.Header().Get("Content-Type"), w.Body, tt.code, tt.ct)
		}
	}
}
