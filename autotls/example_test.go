package autotls_test

import (
	"log"

	"github.com/vireo-go/vireo/autotls"
	"github.com/vireo-go/vireo/core"
	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// An application served on :443 with Let's Encrypt certificates (here
// its staging directory), kept in a cache directory; port 80 answers
// http-01 challenges and redirects everything else to https.
func ExampleListen() {
	app := core.New()
	app.Get("/", func(ctx core.Context) { ctx.Text("hello over HTTPS") })

	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist("example.com"),
		Cache:      autocert.DirCache("/var/lib/example/acme"),
		Email:      "ops@example.com",
		Client:     &acme.Client{DirectoryURL: autotls.LetsEncryptStagingURL}, // omit for production
	}
	redirect := core.New()
	redirect.Mount("/", m.HTTPHandler(core.RedirectHTTPS("example.com")))
	go func() { log.Fatal(redirect.Listen(":80")) }()
	log.Fatal(autotls.Listen(app, ":443", m))
}
