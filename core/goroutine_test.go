package core

import (
	"net/http/httptest"
	"runtime"
	"testing"
)

// TestOwnerFastPath checks which path the handle gate takes for the
// request's own goroutine: the unpinned one where curg is assembly
// (amd64, arm64 without the purego tag), the pinned one everywhere else,
// and the pinned one for any other goroutine always. test.sh runs it
// with and without -tags purego.
func TestOwnerFastPath(t *testing.T) {
	wantOwned := runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"
	if purego {
		wantOwned = false
	}
	if ownerFastPath != wantOwned {
		t.Fatalf("ownerFastPath = %v on %s (purego %v), want %v", ownerFastPath, runtime.GOARCH, purego, wantOwned)
	}
	app := New(WithStartupOutput(nil))
	var owned, elsewhere bool
	app.Get("/", func(ctx Context) {
		owned = ctx.s.owned()
		done := make(chan struct{})
		go func() {
			defer close(done)
			elsewhere = ctx.s.owned()
		}()
		<-done
		ctx.WriteString("ok")
	})
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.String() != "ok" {
		t.Fatalf("body %q", rec.Body.String())
	}
	if owned != wantOwned || elsewhere {
		t.Errorf("owned by the serving goroutine %v (want %v), by another %v (want false)", owned, wantOwned, elsewhere)
	}
}
