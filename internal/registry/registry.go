// Package registry lets the packages of this module record registration
// errors into a core.Application without core exporting a method for it.
//
// core installs its recorder once, from its init function, before any
// application exists; packages such as mvc call RecordError with the
// application their router belongs to. Build then reports the error like
// one core found itself, wrapped in a *core.RegistrationError, and the
// application refuses to serve.
package registry

import "errors"

// recorder is set once by core's init and only read afterwards.
var recorder func(app any, method, pattern string, err error) error

// SetRecorder installs the function RecordError calls. core calls it from
// its init; a second call panics, so the hook cannot be replaced later.
func SetRecorder(fn func(app any, method, pattern string, err error) error) {
	if recorder != nil {
		panic("registry: SetRecorder called twice")
	}
	recorder = fn
}

// RecordError records err as a registration error of app, which must be a
// *core.Application, for the route method and pattern ("" when the error
// is not about one route). It returns the recorded error, or err itself
// when app is not a core application.
func RecordError(app any, method, pattern string, err error) error {
	if err == nil {
		return nil
	}
	if recorder == nil {
		return errors.Join(errors.New("registry: core is not linked"), err)
	}
	return recorder(app, method, pattern, err)
}
