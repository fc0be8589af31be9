package core

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFormWithTooManyFieldsRefused: a form of 100,000 fields, in the body
// or in the query, is refused with 400 before it is decoded, by net/url's
// limit of 10,000 parameters, the default (urlmaxqueryparams) for a module
// that says go 1.25 (a go line before 1.24 turns it off).
func TestFormWithTooManyFieldsRefused(t *testing.T) {
	fields := strings.Repeat("f=1&", 100_000)
	app := New()
	app.Post("/form", func(ctx Context) {
		var v struct {
			F []string `form:"f"`
		}
		if err := ctx.ReadForm(&v); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.Text("decoded")
	})
	for _, tc := range []struct{ name, target, body string }{
		{"body", "/form", fields},
		{"query", "/form?" + fields, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, tc.target, strings.NewReader(tc.body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			w := httptest.NewRecorder()
			app.ServeHTTP(w, r)
			if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "malformed form") {
				t.Errorf("100,000 fields: %d %.200q, want 400 naming the malformed form", w.Code, w.Body.String())
			}
		})
	}
}
