// Registration errors: one list per application.
//
// Everything Build refuses, from a malformed pattern to a controller the
// mvc package cannot bind, is a *RegistrationError appended to the
// Application's list when it is found, and the function that found it
// returns the same error: Handle and the verbs through Route.Err,
// RegisterView and mvc.Register as their result. Packages that register on
// a Router from something else than handlers (mvc's controllers) report
// what they cannot register with Router.Refuse, so there is no other way
// in. Build returns the list as RegistrationErrors (nil when empty); an
// application with errors refuses to serve, and when served anyway as an
// http.Handler it answers 500 and logs the errors once.

package core

import (
	"errors"
	"slices"
	"strconv"
	"strings"
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

// RegistrationErrors is the error Build returns: every registration error
// of the application, in the order they were found. errors.As(err,
// &list) gives the list; errors.As(err, &re) with a *RegistrationError
// target the first; errors.Is looks through every one.
type RegistrationErrors []*RegistrationError

// Error returns the errors' messages, one a line.
func (l RegistrationErrors) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l RegistrationErrors) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Refuse records err as a registration error of r's application and
// returns it as a *RegistrationError (err itself when it is one already),
// so that Build reports it with the others and the application refuses to
// serve. It is how a package that registers on a Router from something
// else than handlers (mvc's controllers) reports what it cannot register;
// method and pattern name the route as Route.Method and Route.Pattern do,
// "" when the error is not about one route. A nil err records nothing and
// returns nil.
func (r *Router) Refuse(method, pattern string, err error) error {
	if err == nil {
		return nil
	}
	return r.app.recordError(method, pattern, err)
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

// registrationErrors returns the errors so far, or nil when there are none.
func (app *Application) registrationErrors() error {
	if len(app.errs) == 0 {
		return nil
	}
	return slices.Clone(app.errs) // later registrations leave it as it is
}

// refuse records a registration error and returns a Route carrying it, for
// registration methods that return a *Route.
func (app *Application) refuse(method, pattern string, err error) *Route {
	return &Route{Method: method, Pattern: pattern, err: app.recordError(method, pattern, err)}
}
