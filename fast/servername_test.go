package fast_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/fast"
)

// TestServerName: the engine's Server header goes with every response, a
// handler's own replaces it, and a name that is no header value makes
// Serve fail with the reason.
func TestServerName(t *testing.T) {
	app := core.New(core.WithEngine(fast.Engine(fast.ServerName("Vireo"))), core.WithStartupOutput(nil))
	app.Get("/", func(ctx core.Context) { ctx.Text("hi") })
	app.Get("/own", func(ctx core.Context) {
		ctx.SetResponseHeader("Server", "own")
		ctx.Text("hi")
	})
	base := serve(t, app)
	for _, c := range []struct{ path, want string }{
		{"/", "Vireo"},
		{"/own", "own"},
		{"/missing", "Vireo"}, // the 404 page
	} {
		resp, _ := get(t, http.DefaultClient, base+c.path)
		if got := resp.Header.Values("Server"); len(got) != 1 || got[0] != c.want {
			t.Errorf("GET %s: Server %q, want [%q]", c.path, got, c.want)
		}
	}

	for _, name := range []string{"", "a\r\nX-Injected: 1", "a\x00b"} {
		bad := core.New(core.WithEngine(fast.Engine(fast.ServerName(name))), core.WithStartupOutput(nil))
		bad.Get("/", func(ctx core.Context) {})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		err = bad.Serve(ln)
		ln.Close()
		if err == nil || !strings.Contains(err.Error(), "ServerName") {
			t.Errorf("ServerName(%q): Serve returned %v, want the ServerName error", name, err)
		}
	}
}

// TestDefaultContentType: text/plain; charset=utf-8 is fasthttp's default
// type, which the engine leaves to fasthttp for a response with a body;
// one without a body (empty, 204, 304, a HEAD) still says the type it was
// given, as on net/http.
func TestDefaultContentType(t *testing.T) {
	const plain = "text/plain; charset=utf-8"
	app := newApp()
	app.Get("/text", func(ctx core.Context) { ctx.Text("hi") })
	app.Get("/empty", func(ctx core.Context) { ctx.Text("") })
	app.Get("/nocontent", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", plain)
		ctx.SetStatus(http.StatusNoContent)
	})
	app.Get("/html", func(ctx core.Context) { ctx.HTML("<p>hi</p>") })
	base := serve(t, app)
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/text", plain},
		{"GET", "/empty", plain},
		{"GET", "/nocontent", plain},
		{"HEAD", "/text", plain},
		{"GET", "/html", "text/html; charset=utf-8"},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Values("Content-Type"); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s %s: Content-Type %q, want [%q]", c.method, c.path, got, c.want)
		}
	}
}
