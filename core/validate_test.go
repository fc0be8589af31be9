package core

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

type item struct {
	Name  string  `json:"name" xml:"name" form:"name"`
	Price float64 `json:"price" xml:"price" form:"price"`
}

func itemValidator(v any) error {
	it, ok := v.(*item)
	if !ok {
		return nil
	}
	fields := map[string]string{}
	if it.Name == "" {
		fields["name"] = "required"
	}
	if it.Price <= 0 {
		fields["price"] = "must be greater than 0"
	}
	if len(fields) > 0 {
		return &ValidationError{Fields: fields}
	}
	return nil
}

func TestReadersValidate(t *testing.T) {
	app := New(WithStartupOutput(nil), WithValidator(ValidatorFunc(itemValidator)), WithBodyLimit(64))
	read := func(kind string) Handler {
		return func(c Context) {
			var it item
			var err error
			switch kind {
			case "json":
				err = c.ReadJSON(&it)
			case "xml":
				err = c.ReadXML(&it)
			case "form":
				err = c.ReadForm(&it)
			}
			if err != nil {
				c.StopWithError(err)
				return
			}
			c.Text(it.Name)
		}
	}
	for _, k := range []string{"json", "xml", "form"} {
		app.Post("/"+k, read(k))
	}
	app.Post("/raw", func(c Context) {
		_, err := io.ReadAll(c.Request().Body)
		if err != nil {
			c.StopWithError(bodyError(err, "reading"))
			return
		}
		c.Text("read")
	})
	tests := []struct {
		name, path, ctype, body string
		status                  int
		want                    string // body, or for 400s the JSON errors
	}{
		{"json ok", "/json", "application/json", `{"name":"pen","price":2}`, 200, "pen"},
		{"json invalid", "/json", "application/json", `{"name":"","price":0}`, 400, `{"errors":{"name":"required","price":"must be greater than 0"}}`},
		{"xml ok", "/xml", "application/xml", `<item><name>pen</name><price>2</price></item>`, 200, "pen"},
		{"xml invalid", "/xml", "text/xml", `<item><price>2</price></item>`, 400, `{"errors":{"name":"required"}}`},
		{"xml malformed", "/xml", "application/xml", `<item><name>pen</item>`, 400, ""},
		{"xml trailing", "/xml", "application/xml", `<item><name>a</name><price>1</price></item><x/>`, 400, ""},
		{"xml wrong type", "/xml", "application/json", `{}`, 415, ""},
		{"xml too large", "/xml", "application/xml", "<item><name>" + strings.Repeat("a", 100) + "</name></item>", 413, ""},
		{"form ok", "/form", "application/x-www-form-urlencoded", "name=pen&price=3", 200, "pen"},
		{"form invalid", "/form", "application/x-www-form-urlencoded", "price=-1", 400, `{"errors":{"name":"required","price":"must be greater than 0"}}`},
		{"raw body bounded", "/raw", "text/plain", strings.Repeat("a", 100), 413, ""},
		{"raw body within", "/raw", "text/plain", "abc", 200, "read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.ctype)
			req.Header.Set("Accept", "application/json")
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tt.status, rec.Body)
			}
			switch {
			case tt.status == 400 && tt.want != "":
				if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, ProblemJSON) {
					t.Errorf("Content-Type %q", ct)
				}
				var got struct {
					Errors map[string]string `json:"errors"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
					t.Fatalf("body %q: %v", rec.Body, err)
				}
				if gb, _ := json.Marshal(got); string(gb) != tt.want {
					t.Errorf("body %s, want %s", gb, tt.want)
				}
			case tt.want != "" && rec.Body.String() != tt.want:
				t.Errorf("body %q, want %q", rec.Body, tt.want)
			}
		})
	}
}

func TestValidateOtherErrors(t *testing.T) {
	app := New(WithStartupOutput(nil), WithValidator(ValidatorFunc(func(any) error { return io.ErrUnexpectedEOF })))
	app.Post("/", func(c Context) {
		var v map[string]any
		if err := c.ReadJSON(&v); err != nil {
			c.StopWithError(err)
		}
	})
	req := httptest.NewRequest("POST", "/", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "unexpected EOF") {
		t.Errorf("%d %q", rec.Code, rec.Body)
	}
	if msg := (&ValidationError{Fields: map[string]string{"b": "x", "a": "y"}}).Error(); msg != "invalid input: a: y; b: x" {
		t.Errorf("Error() = %q", msg)
	}
}
