package core

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/vireo-go/vireo/internal/engine"
)

// TestWriterHandleIsAHeaderStore: the writer ResponseWriter returns sets
// and reads the response headers through the store of the writer it
// wraps (what Compress's writer uses), and a stale one reaches nothing.
func TestWriterHandleIsAHeaderStore(t *testing.T) {
	app := New(WithStartupOutput(nil))
	kept := make(chan engine.HeaderStore, 1)
	app.Get("/", func(c Context) {
		hs, ok := c.ResponseWriter().(engine.HeaderStore)
		if !ok {
			t.Fatal("the writer handle is no engine.HeaderStore")
		}
		hs.SetHeader("X-A", "1")
		hs.AddHeader("X-A", "2")
		hs.SetHeaderIfUnset("X-B", []string{"b"})
		hs.SetHeaderIfUnset("X-B", []string{"not this"})
		hs.SetHeaderValues("X-C", []string{"c"})
		hs.SetHeaderValues("X-C", nil)
		if got := hs.HeaderValues("X-A"); !slices.Equal(got, []string{"1", "2"}) {
			t.Errorf("HeaderValues(X-A) = %q", got)
		}
		if got := c.ResponseHeaderValues("X-B"); !slices.Equal(got, []string{"b"}) {
			t.Errorf("the Context sees X-B %q", got)
		}
		select {
		case kept <- hs:
		default:
		}
		c.WriteString("ok")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	h := rec.Result().Header
	if !slices.Equal(h.Values("X-A"), []string{"1", "2"}) || h.Get("X-B") != "b" || h.Values("X-C") != nil {
		t.Fatalf("response headers %v", h)
	}

	stale := <-kept
	stale.SetHeader("X-Leak", "1")
	stale.AddHeader("X-Leak", "2")
	stale.SetHeaderValues("X-Leak", []string{"3"})
	stale.SetHeaderIfUnset("X-Leak", []string{"4"})
	if got := stale.HeaderValues("X-A"); got != nil {
		t.Errorf("stale HeaderValues(X-A) = %q", got)
	}
	rec = httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if v := rec.Result().Header.Values("X-Leak"); v != nil {
		t.Errorf("a stale writer handle reached the next response: X-Leak %q", v)
	}
}
