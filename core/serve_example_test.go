package core_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
)

// The plain-HTTP port of an HTTPS site redirects its own hosts, and only
// those, to HTTPS: 308 keeps the method and the body. In production the
// handler is served by a second Application on :80:
//
//	redirect := core.New()
//	redirect.Mount("/", core.RedirectHTTPS("example.com", "www.example.com"))
//	go redirect.Listen(":80")
func ExampleRedirectHTTPS() {
	h := core.RedirectHTTPS("example.com", "www.example.com")
	for _, host := range []string{"example.com", "WWW.example.com:80", "evil.example"} {
		r := httptest.NewRequest("POST", "/orders?page=2", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(host, w.Code, w.Header().Get("Location"))
	}
	// Output:
	// example.com 308 https://example.com/orders?page=2
	// WWW.example.com:80 308 https://www.example.com/orders?page=2
	// evil.example 421
}

// WithH2C serves HTTP/2 without TLS to clients with prior knowledge (a
// proxy, a service mesh, or net/http's Transport with UnencryptedHTTP2),
// and HTTP/1.1 to the others, on one port.
func ExampleWithH2C() {
	app := core.New(core.WithH2C(), core.WithStartupOutput(nil))
	app.Get("/", func(ctx core.Context) { ctx.Text(ctx.Request().Proto) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go app.Serve(ln)
	defer app.Shutdown(context.Background())

	var h2c http.Protocols
	h2c.SetUnencryptedHTTP2(true)
	for _, client := range []*http.Client{
		{Transport: &http.Transport{Protocols: &h2c}},
		{Transport: &http.Transport{}},
	} {
		res, err := client.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Println(string(body))
	}
	// Output:
	// HTTP/2.0
	// HTTP/1.1
}
