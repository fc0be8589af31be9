// Session injection.
//
// A *sessions.Session parameter or field gets the session the sessions
// middleware (Manager.Handler) started for the request, found with
// sessions.Get. When the middleware did not run, a *sessions.Manager
// registered as a dependency starts the session (Manager.Start; its store
// errors stop the request with 503). With neither,
// the request fails with 500 and a logged reason: the application is
// misconfigured, and an empty session would silently lose the user's data.

package mvc

import (
	"errors"
	"reflect"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

var (
	typeSession = reflect.TypeOf((*sessions.Session)(nil))
	typeManager = reflect.TypeOf((*sessions.Manager)(nil))
)

// errNoSession is the error of a session input without a session.
var errNoSession = errors.New("mvc: a *sessions.Session is injected but the sessions middleware did not run and no *sessions.Manager is registered")

// sessionInput returns the binder of t when t is *sessions.Session.
func sessionInput(t reflect.Type, deps *Dependencies) (func(core.Context) (*sessions.Session, error), bool) {
	if t != typeSession {
		return nil, false
	}
	var manager *sessions.Manager
	if d := deps.lookup(typeManager); d != nil && d.static() {
		manager, _ = d.value.Interface().(*sessions.Manager)
	}
	return func(ctx core.Context) (*sessions.Session, error) {
		if s := sessions.Get(ctx); s != nil {
			return s, nil
		}
		if manager == nil {
			return nil, errNoSession
		}
		return manager.Start(ctx)
	}, true
}
