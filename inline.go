// Inline bodies for applications.
//
// An application that names core's types only through this package's
// aliases (vireo.Context, vireo.Params) is compiled against this
// package's export data. With Go 1.26 that carries the inline body of one
// of core's methods only when this package itself inlined a call of it
// (golang/go#74783 reports a case like it): so c.Params(), c.Param and
// Params.Len, which core's own code inlines, were calls in every
// application that imports the facade alone. inlineBodies calls, once
// each, every method of core's exported types that the compiler can
// inline, which puts their bodies into this package's export data. It
// never runs. TestFacadeInlines compares the list with what
// `go build -gcflags=-m` reports for core, so that a method that becomes
// inlinable cannot be forgotten here.

package vireo

import (
	"net/http"
	"time"
)

// A reference, so that inlineBodies counts as used.
var _ = inlineBodies

func inlineBodies(app *Application, r *Router, rt *Route, c Context, ps Params, vs Values,
	he *HTTPError, re *RegistrationError, res RegistrationErrors, ve *ValidationError,
	vf ValidatorFunc, hf HeaderField) {
	// Application and Router
	app.Logger()
	app.Routes()
	app.UseBeforeRouting()
	app.OnError(nil)
	app.OnShutdown(nil)
	app.Serve(nil)
	app.ViewEngine()
	r.Get("")
	r.Post("")
	r.Put("")
	r.Patch("")
	r.Delete("")
	r.Head("")
	r.Options("")
	r.Use()
	r.Refuse("", "", nil)
	r.Prefix()
	r.App()
	rt.Doc()
	rt.Params()
	rt.Err()
	_ = rt.String()

	// Context: request, body, response, chain, errors, lifetime
	c.App()
	c.Clone()
	c.ClientIP()
	c.Param("")
	c.Params()
	c.FormValue("")
	c.PostValue("")
	c.RequestID()
	c.ReadJSON(nil)
	c.ReadXML(nil)
	c.ReadForm(nil)
	c.Validate(nil)
	c.JSONIndent(nil, "")
	c.XML(nil)
	c.Negotiate(nil)
	c.NegotiateFormat()
	c.View("", nil)
	c.SetViewData("", nil)
	c.SetViewLayout("")
	c.ViewData()
	c.Redirect("", http.StatusFound)
	c.ServeFile("")
	c.Download("", "")
	c.Attachment("")
	c.SetCookie(nil)
	c.SetResponseWriter(nil)
	c.OnBeforeWrite(nil)
	c.OnDone(nil)
	c.NextWithTimeout(time.Second, nil)
	c.StopWithStatus(http.StatusOK)
	c.StopWithError(nil)
	c.ErrorMessage()
	c.WriteErrorPage()
	c.Values()

	// What a Context hands out, and the error types
	ps.All()
	ps.At(0)
	ps.Get("")
	ps.Len()
	vs.GetString("")
	vs.Range(nil)
	he.StatusCode()
	_ = he.Unwrap()
	_ = re.Unwrap()
	_ = res.Unwrap()
	ve.StatusCode()
	_ = vf.Validate(nil)
	hf.WithValues()
}
