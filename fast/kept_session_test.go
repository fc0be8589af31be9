package fast_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// TestKeptSessionWritesNoOtherResponse keeps new sessions past their
// requests and writes each for the first time, which gives it its cookie,
// while a later request runs on the same connection: that request's
// response must not carry the kept session's cookie. (A session held its
// request's response header map, which the fast engine clears and reuses
// for the next request of its pooled exchange.)
func TestKeptSessionWritesNoOtherResponse(t *testing.T) {
	m := sessions.MustNew()
	t.Cleanup(func() { m.Close() })
	var mu sync.Mutex
	var kept []*sessions.Session
	app := newApp()
	app.Use(m.Handler())
	app.Get("/keep", func(ctx core.Context) {
		mu.Lock()
		kept = append(kept, sessions.Get(ctx))
		mu.Unlock()
		ctx.WriteString("kept")
	})
	app.Get("/next/{i:int}", func(ctx core.Context) {
		i, _ := ctx.Params().Int("i")
		mu.Lock()
		s := kept[i]
		mu.Unlock()
		s.Set("late", i)
		ctx.WriteString("next")
	})
	base := serve(t, app)
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	const n = 20
	for range n {
		if resp, _ := get(t, c, base+"/keep"); len(resp.Header.Values("Set-Cookie")) != 0 {
			t.Fatalf("a session nothing wrote to sent a cookie: %q", resp.Header.Values("Set-Cookie"))
		}
	}
	for i := range n {
		resp, body := get(t, c, base+fmt.Sprintf("/next/%d", i))
		if ck := resp.Header.Values("Set-Cookie"); len(ck) != 0 || body != "next" {
			t.Fatalf("request %d: %q with the cookie of a session kept from another request: %q", i, body, ck)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, s := range kept {
		if s.GetInt("late", -1) != i {
			t.Errorf("kept session %d lost its late write", i)
		}
	}
}
