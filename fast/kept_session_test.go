package fast_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

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

// TestSessionCookiesOnFast checks the cookies a new session sends on the
// fast engine, where they go out through the Context from the session's
// before-write hook rather than through the response header map: one
// Set-Cookie, whatever the session went through in its request.
func TestSessionCookiesOnFast(t *testing.T) {
	m := sessions.MustNew()
	t.Cleanup(func() { m.Close() })
	app := newApp()
	app.Use(m.Handler())
	app.Get("/read", func(ctx core.Context) { ctx.WriteString(sessions.Get(ctx).GetString("k", "none")) })
	app.Get("/new", func(ctx core.Context) { sessions.Get(ctx).Set("k", "v") })
	app.Get("/regenerate", func(ctx core.Context) {
		sessions.Get(ctx).Set("k", "v")
		if _, err := m.Regenerate(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	app.Get("/destroy", func(ctx core.Context) {
		sessions.Get(ctx).Set("k", "v")
		if err := m.Destroy(ctx); err != nil {
			ctx.StopWithError(err)
		}
	})
	app.Get("/remember", func(ctx core.Context) {
		if err := m.UpdateExpiration(ctx, time.Hour); err != nil {
			ctx.StopWithError(err)
		}
	})
	base := serve(t, app)
	tests := []struct {
		path   string
		cookie string // what the one Set-Cookie must contain, "" for none
	}{
		{"/read", ""},
		{"/new", "; Path=/"},
		{"/regenerate", "; Path=/"},
		{"/destroy", "Max-Age=0"},
		{"/remember", "Max-Age=3600"},
	}
	for _, tt := range tests {
		resp, _ := get(t, http.DefaultClient, base+tt.path)
		sc := resp.Header.Values("Set-Cookie")
		if tt.cookie == "" {
			if len(sc) != 0 {
				t.Errorf("%s: Set-Cookie %q, want none", tt.path, sc)
			}
			continue
		}
		if len(sc) != 1 || !strings.HasPrefix(sc[0], m.CookieName()+"=") || !strings.Contains(sc[0], tt.cookie) {
			t.Errorf("%s: Set-Cookie %q, want one with %q", tt.path, sc, tt.cookie)
			continue
		}
		if tt.path == "/new" {
			req, _ := http.NewRequest("GET", base+"/read", nil)
			req.Header.Set("Cookie", strings.SplitN(sc[0], ";", 2)[0])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != "v" {
				t.Errorf("the new session read back %q", b)
			}
		}
	}
}
