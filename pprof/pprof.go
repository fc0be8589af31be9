// Package pprof mounts the runtime profiles of net/http/pprof on a Vireo
// router behind a guard, the one way to expose them: Register refuses to
// mount them without one.
//
//	admin := middleware.MustBasicAuth(middleware.WithUsers(map[string]string{"ops": secret}))
//	if err := pprof.Register(app, admin); err != nil { ... }
//	// go tool pprof -http=: http://ops:secret@host/debug/pprof/profile?seconds=10
//
// The guard is middleware that calls Next only for a request it admits: an
// auth middleware (middleware.BasicAuth, BearerAuth), an IP allow-list. To
// keep the profiles off the public port altogether, Register them on a
// second Application, with a guard too, served on a loopback listener
// (app.Serve on net.Listen("tcp", "127.0.0.1:6060")), as the example in
// _examples/observability does.
//
// Importing net/http/pprof, as this package does, also registers its
// handlers on http.DefaultServeMux: an application that serves
// DefaultServeMux (http.ListenAndServe(addr, nil)) exposes them there,
// unguarded. A Vireo application never serves it.
//
// The routes, under the router's prefix: GET Prefix (the index page, with
// links relative to it), GET Prefix+"{name}" for cmdline, profile, symbol,
// trace and every runtime/pprof profile (heap, goroutine, allocs, block,
// mutex, threadcreate), and POST Prefix+"symbol".
package pprof

import (
	"errors"
	"net/http"
	"net/http/pprof"

	"github.com/vireo-go/vireo/core"
)

// Prefix is the path the profiles are mounted under, the one `go tool
// pprof` users expect.
const Prefix = "/debug/pprof/"

// Registrar is what Register mounts the routes on: an Application or a
// Router.
type Registrar interface {
	Get(pattern string, handlers ...core.Handler) *core.Route
	Post(pattern string, handlers ...core.Handler) *core.Route
}

// Register mounts the profiles at Prefix on r, each route behind guard
// (and the further middleware given, in order). It returns an error, and
// mounts nothing, when guard is nil.
func Register(r Registrar, guard core.Handler, middleware ...core.Handler) error {
	if guard == nil {
		return errors.New("pprof: Register needs a guard (an auth middleware): the profiles reveal the program's memory and code")
	}
	chain := func(h http.HandlerFunc) []core.Handler {
		return append(append([]core.Handler{guard}, middleware...), core.WrapHandler(h))
	}
	r.Get(Prefix, chain(pprof.Index)...)
	r.Get(Prefix+"{name}", chain(profile)...)
	r.Post(Prefix+"symbol", chain(pprof.Symbol)...)
	return nil
}

// profile serves the profile the last path segment names.
func profile(w http.ResponseWriter, r *http.Request) {
	switch name := lastSegment(r.URL.Path); name {
	case "cmdline":
		pprof.Cmdline(w, r)
	case "profile":
		pprof.Profile(w, r)
	case "symbol":
		pprof.Symbol(w, r)
	case "trace":
		pprof.Trace(w, r)
	default:
		pprof.Handler(name).ServeHTTP(w, r) // an unknown name is a 404
	}
}

func lastSegment(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
