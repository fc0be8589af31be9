// Package mvc turns controllers - structs whose methods are named after
// HTTP methods - into routes of a core Router, with dependency injection
// into their parameters and fields and responses written from their
// results. All reflection happens at registration: a request only runs
// precomputed closures.
//
//	type ValuesController struct{}
//
//	func (c *ValuesController) GetByID(id int) string { return "value" }
//
//	app := vireo.New()
//	m := mvc.New(app.Group("/api/values"))
//	m.Provide(db, func(ctx vireo.Context) (*User, error) { return auth(ctx) })
//	if err := mvc.Register(m, new(ValuesController)); err != nil {
//		log.Fatal(err)
//	}
//
// # Routes from method names
//
// An exported method whose name starts with an HTTP method (Get, Post, Put,
// Patch, Delete, Head, Options, Connect, Trace) or Any is a route, relative
// to the router's prefix. The rest of the name is split at upper-case
// letters (an acronym such as API or ID stays one word; digits stay with
// the word before them). The words before the first By are lower-case
// path segments. Each By is a path parameter, and the words after it, up
// to the next By, name it, in lowerCamelCase: GetByID(id int) is
// GET /{id:int}, as an ASP.NET Core template "{id:int}" would be (Iris
// made those words path segments after the parameter, /{param1}/id, which
// surprises most readers). ByWildcard is a parameter taking the rest of
// the path:
//
//	Get()                                GET /
//	GetByID(id int)                      GET /{id:int}
//	GetProfileByName(name string)        GET /profile/{name}
//	PostLogin()                          POST /login
//	GetUserFollowersByUserID(id int64)   GET /user/followers/{userID:int64}
//	GetByIDByCommentID(p int, c uint64)  GET /{id:int}/{commentID:uint64}
//	GetFilesByWildcard(path string)      GET /files/{path:path}
//	DeleteByID(id int)                   DELETE /{id:int}
//	GetBy(isbn ISBN)                     GET /{isbn}, for a type ISBN of the program
//	GetBy(id int)                        GET /{param1:int}
//	GetAPIKeys()                         GET /api/keys
//	AnyPing()                            /ping for every method of core.AnyMethods
//
// A bare By is named after the parameter's type when that is a named type
// of the program, else param1, param2... in route order; a bare wildcard
// is path. A name the group's prefix or an earlier parameter of the route
// uses gets a number (GetByIDByID: {id}, {id2}). ctx.Param reads them by
// these names in middleware. A route with static segments after a
// parameter, /{id:int}/toggle, is declared with BeforeRegister's Handle.
// Each method's route is logged at Debug level when it is registered
// ("mvc: route", method Controller.Method, route "GET /books/{id:int}"),
// listed by app.Routes() and AfterRegister's Routes, and named by every
// registration error about it.
//
// The pattern type of a parameter follows the Go type of the method
// parameter: int, int8-int32 -> {:int}; int64 -> {:int64}; uint,
// uint8-uint32 -> {:uint}; uint64 -> {:uint64}; bool -> {:bool}; string and
// floats -> a plain {name}. A path that does not fit the type, such as
// /api/values/abc for GetByID(id int), matches no route and is a 404; so is a
// value the Go type cannot hold (an int8 given 300, a float64 given "x").
//
// Other methods (Helper, Getter, Gettext...) are not routes. A name whose
// By segments do not match the method's path parameters, a method with an
// input nothing provides, a result that cannot be written, a route
// conflicting with another: each is an error returned by Register naming the
// controller and the method, for example
//
//	mvc: app.UsersController.GetBy: parameter 2: no dependency of type *app.Store registered
//
// # Explicit routes and activation hooks
//
// A controller may implement
//
//	BeforeRegister(b mvc.Registrar)
//	AfterRegister(a mvc.Registration)
//
// BeforeRegister runs first: b.Router() is the controller's router (add
// middleware or plain routes), b.Dependencies() its own dependency
// container, and b.Handle("GET", "/something/{id:int}", "MethodName", mw...)
// routes any exported method with an explicit pattern, after the given
// middleware; that method is then not also routed by its name.
// AfterRegister runs last and can inspect a.Routes(), a.RoutesOf(name)
// and a.Singleton().
//
// # Inputs
//
// Method parameters are bound by type:
//
//	core.Context (vireo.Context)   the request's context
//	*http.Request                   ctx.Request()
//	http.ResponseWriter             ctx.ResponseWriter()
//	context.Context                 ctx.Request().Context()
//	a registered dependency         by exact type, else by interface it implements
//	bool, string, ints, uints, floats   path parameters
//	a struct or *struct             the request body, on POST, PUT, PATCH and Any routes
//
// Path parameters bind by position counted from the end of the route: the
// last path parameter of the method takes the route's last parameter. A
// method's By parameters therefore bind to its own segments, and extra
// leading parameters bind to the parameters of the group's prefix:
// on mvc.New(app.Group("/users/{uid:int}")), GetPostsByPostID(uid, post int)
// serves /users/{uid:int}/posts/{postID:int}.
//
// A request body is decoded by its Content-Type: JSON for
// application/json and any +json type; the core's form reader (form tags)
// for application/x-www-form-urlencoded and multipart/form-data; anything
// else, a missing Content-Type included, is 415 Unsupported Media Type (a
// cross-site page can post text/plain or an untyped body, never JSON).
// Malformed input is a 400 with the reason and a body over the
// application's limit (core.WithBodyLimit) a 413, and the method does not
// run. On an Any route, a request whose method has no body (GET...) gets the
// zero value.
//
// # Dependencies
//
// Provide(values...) adds values, injected as they are under their
// dynamic type, and providers, funcs of the form
//
//	func(core.Context) T
//	func(core.Context) (T, error)
//
// (or with a parameter of a non-empty interface type core.Context
// implements), called per request (a non-nil error stops the request with
// it, its status from its StatusCode method or 500). A wanted type is
// looked up by exact type first, then as a non-empty interface implemented
// by a registered type; the newest registration wins, and a group's or
// controller's own registrations come before its parents'. Group("/sub",
// mw...) returns a child group on a child router that sees the parent's
// dependencies, including ones registered later, while its own stay its
// own.
//
// # Sessions
//
// The request's *sessions.Session is a dependency like any other, which
// mvc does not know about (an MVC application without sessions does not
// link them): provide the Manager's Start,
//
//	mgr := sessions.MustNew()
//	m.Provide(mgr.Start)
//
// and a *sessions.Session parameter or field gets the session the sessions
// middleware (mgr.Handler) started for the request, or one Start starts
// (its store errors answer 503). A *sessions.Session parameter or field
// that nothing provides is a registration error, not a nil session that
// would drop what the controller stores.
//
// # Controller fields and lifetime
//
// Exported fields, promoted fields of embedded structs included, are
// injected too (path parameters and bodies excepted). A field that already
// holds a value in the registered controller keeps it; a zero field whose
// type is a registered value is set once, at registration; a zero field of
// a per-request type (core.Context, *http.Request, http.ResponseWriter,
// context.Context, a provider's type such as *sessions.Session) is set for
// each request. A zero field of a non-empty interface type that nothing provides
// is a registration error; other fields are left alone.
//
// A controller without per-request fields is a singleton: the registered
// value serves every request, concurrently, and costs no allocation, so it
// must not keep request state in its fields. Any other controller is copied
// from the registered value for each request (one allocation) and its
// per-request fields set, so its fields are private to the request.
//
// A controller may also implement BeginRequest(core.Context), called
// before the method (when it stops the chain, with ctx.StopWithStatus for
// example, neither the method nor EndRequest runs), and
// EndRequest(core.Context), called after the method and its result.
//
// # Results
//
// Results are written by type:
//
//	(none)               nothing (the method may have written through the Context)
//	string kinds         text/plain; charset=utf-8, unless a Content-Type was set
//	[]byte               the body as is
//	int                  the status (0 leaves it alone; outside 100-999 is a 500)
//	error                nil: nothing; else ctx.StopWithError(err)
//	mvc.View             ctx.View(Name, Data) with Layout and status Code
//	mvc.Response         Code, ContentType and a body from Object (JSON, or XML
//	                     when ContentType says xml), Text or Content; Path redirects;
//	                     Err is an error result
//	an interface (any)   by its dynamic type, with these rules
//	anything else        JSON
//
// and pairs: (T, error) writes T unless the error is non-nil; (T, int)
// writes T with that status; (T, bool) writes T, or answers 404 Not Found
// when false.
//
// An error result's status is its StatusCode() (core.HTTPError has one) or
// 500. The client sees the message of a core.HTTPError and the text of a
// 4xx error; the text of any other 5xx error is logged and replaced by the
// status text, unless the application opted in with core.WithErrorDetails.
//
// # Performance
//
// Register is generic in the controller's type C. That lets it assert the
// method expression of a method of *C to its exact func type, such as
// func(*C, int) string, and call it as compiled Go code: no reflect and no
// unsafe at request time. Methods with no parameter or one path parameter
// (int, int64, uint, uint64, string, bool), core.Context or
// *sessions.Session, and no result or one string, []byte, int, error, View
// or Response, are called that way: GET /api/values/5 on a singleton
// GetBy(id int) string costs about what a plain handler costs (within 3% in
// instructions per request, `bench instructions mvc simple`), with no
// allocation, and a per-request controller adds one allocation (the
// controller). Other signatures go through reflect.Value.Call, which
// allocates its arguments and results.
//
// # Errors and app.Build
//
// Register and Provide return their registration errors. Each is a
// *core.RegistrationError naming the controller and the method, and the
// same error is in the core application's one list: app.Build returns it
// (a core.RegistrationErrors) and the application refuses to serve.
package mvc
