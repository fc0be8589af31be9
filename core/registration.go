// Registration errors.
//
// Everything Build refuses, from a malformed pattern to a controller the
// mvc package cannot bind, is recorded as a *RegistrationError on the
// Application when it is found. Build joins them; an application with
// errors refuses to serve, and when served anyway as an http.Handler it
// answers 500 and logs the errors once.
//
// Packages of this module above core (mvc) record their errors through
// internal/registry, whose hook core installs here, so that no exported
// method invites applications to record errors by hand.

package core

import (
	"errors"
	"strconv"

	"github.com/vireo-go/vireo/internal/registry"
)

// RegistrationError is an error found while registering a route, an option,
// a view engine or a controller. Method and Pattern name the route when the
// error is about one ("" otherwise); Err says what is wrong.
type RegistrationError struct {
	Method  string
	Pattern string
	Err     error
}

// Error returns "vireo: METHOD "/pattern": reason", leaving out what is
// empty.
func (e *RegistrationError) Error() string {
	var msg string
	switch {
	case e.Method != "" && e.Pattern != "":
		msg = "vireo: " + e.Method + " " + strconv.Quote(e.Pattern) + ": "
	case e.Pattern != "":
		msg = "vireo: pattern " + strconv.Quote(e.Pattern) + ": "
	case e.Method != "":
		msg = "vireo: " + e.Method + ": "
	}
	if e.Err == nil {
		return msg + "registration error"
	}
	return msg + e.Err.Error()
}

// Unwrap returns Err.
func (e *RegistrationError) Unwrap() error { return e.Err }

func init() {
	registry.SetRecorder(func(app any, method, pattern string, err error) error {
		a, ok := app.(*Application)
		if !ok || a == nil {
			return err
		}
		return a.recordError(method, pattern, err)
	})
}

// recordError records err for method and pattern and returns the recorded
// *RegistrationError. An error that already is one is recorded as is.
func (app *Application) recordError(method, pattern string, err error) error {
	var re *RegistrationError
	if !errors.As(err, &re) {
		re = &RegistrationError{Method: method, Pattern: pattern, Err: err}
	}
	app.errs = append(app.errs, re)
	return re
}

// refuse records a registration error and returns a Route carrying it, for
// registration methods that return a *Route.
func (app *Application) refuse(method, pattern string, err error) *Route {
	return &Route{Method: method, Pattern: pattern, err: app.recordError(method, pattern, err)}
}
