// Package core is Vireo's routing core: the Application, its Routers
// (groups), the radix tree, the request Context (a handle to pooled
// request state), middleware chains, error handlers, static files and the
// HTTP server.
//
// # Patterns
//
// A pattern is a path made of segments separated by '/'. A segment is either
// static text or, as a whole, a parameter in braces:
//
//	pattern   = "/" [ segment { "/" segment } ] [ "/" ]
//	segment   = static | "{" name [ ":" type ] "}" | "{" name "..." "}"
//	name      = letter-or-underscore { letter | digit | "_" }
//	type      = "string" | "int" | "int64" | "uint" | "uint64" | "bool"
//	          | "alpha" | "uuid" | "path"
//
// {name} and {name:string} match one non-empty segment. Typed parameters
// match a segment their type accepts: int, int64, uint and uint64 a decimal
// in range, bool "true" or "false", alpha ASCII letters, uuid the 8-4-4-4-12
// hexadecimal form. {name:path} and {name...} are wildcards: they match the
// rest of the path, slashes included, possibly empty, and must be the last
// segment.
//
// Registration refuses, with an error naming the pattern: a pattern without
// a leading '/', an unclosed or stray brace, a parameter that is only part of
// a segment, an unknown type, a repeated name, a wildcard before the last
// segment, empty "." or ".." segments, a segment in another router's
// parameter syntax (":id" or "*rest", as Gin, Echo, httprouter and Fiber
// write them: the error names {id} or {rest...}; a literal leading ':' or
// '*' is escaped, `\:id`), the same method and pattern twice,
// and two parameters of the same kind at one position with different names
// (/users/{id} and /users/{name}/posts). Errors are returned by Route.Err and,
// in the application's one RegistrationErrors list with every other
// registration error, by Application.Build; Listen refuses to start with
// them.
//
// # Precedence
//
// At each position the most specific match wins, whatever the registration
// order: static text, then typed parameters (bool, int, uint, int64, uint64,
// uuid, alpha, in that order), then the plain parameter, then the wildcard.
// Lookup backtracks: /users/new/edit reaches /users/{id}/edit when the static
// /users/new has no /edit below it.
//
// # Request paths
//
// A path with empty, "." or ".." segments (//, /./, /../) is never matched as
// is: the client is redirected to the cleaned path (301 for GET and HEAD, 308
// otherwise, the query kept). Paths are matched percent-decoded, so escaped
// dots count: /files/%2e%2e/x (or %2E, or %2e.) is redirected like
// /files/../x. When the request escaped a slash (%2F), the escaped path is
// matched instead, so /users/a%2Fb is one segment, and the parameter value
// is decoded ("a/b"); a decoded value with a "." or ".." segment
// (a%2F..%2Fb) is refused with 400. No route parameter ever holds a "." or
// ".." segment.
//
// A path that matches a route only with or without a trailing slash is
// redirected to the registered form by default; WithTrailingSlash selects
// StrictSlash (404) or IgnoreSlash (serve both).
//
// # Unmatched requests
//
// A GET route also answers HEAD unless a HEAD route exists. A path that
// matches routes of other methods answers 405 with an Allow header, and
// OPTIONS answers 204 with Allow. Anything else is 404. Error statuses go
// through the error handlers registered with OnErrorCode.
//
// # Middleware
//
// Application.UseBeforeRouting middleware runs before routing, for every request,
// unmatched ones included. Router.Use and Group middleware run after a route
// matched, outermost group first, then the route's own handlers. Chains are
// assembled once, by Build. A handler continues the chain with ctx.Next;
// not calling it, or calling Stop, ends it.
//
// # Server defaults
//
// Listen and Serve run a net/http Server with ReadHeaderTimeout 10s,
// IdleTimeout 120s and MaxHeaderBytes 1 MiB (the Default* constants); a
// configure func passed to Listen changes any of them. On HTTP/1 over a
// TCP or Unix listener the header and idle timeouts are kept on one
// heartbeat a tick, as Kestrel keeps its timeouts, instead of by
// net/http's read deadlines moved on every request (about 4% of a small
// request): the server's two fields are read after the configure funcs,
// then set to zero, and its connections, as ConnState hooks and Hijack
// see them, are wrappers whose NetConn method returns the *net.TCPConn.
// The request body
// and the response are bounded by data rate, not by one deadline each
// (http.Server's ReadTimeout and WriteTimeout stay zero): a body must
// arrive, and a response that can block (a body past 64 KiB, a flushed
// stream, a file) must be taken, at 240 bytes/s or more after a grace
// period of 5 s, Kestrel's defaults (DefaultMinBytesPerSecond,
// DefaultDataRateGrace; WithMinRequestBodyRate, WithMinResponseRate, and
// per route the MinRequestBodyRate and MinResponseRate middleware). One
// deadline for the whole request cut a 100 MB upload over a 1 MB/s link
// and a large download read steadily, yet let a client trickling a byte a
// second hold its connection for a minute and a stalled reader of a stream
// hold its handler for ever; a rate cuts the latter within seconds and
// never the former. A body below the rate fails with 408.
//
// TLS: ListenTLS offers HTTP/2 and HTTP/1.1 through ALPN and refuses TLS
// below 1.2 (1.0 and 1.1 are deprecated by RFC 8996); its certificate
// comes from files, or from the server's TLSConfig that a configure func
// sets (Certificates or GetCertificate: the autotls module's ACME manager
// does that). HTTP/2 without TLS (h2c) is off, as in net/http, since only
// proxies and service meshes speak it; WithH2C turns it on beside HTTP/1.1
// (prior knowledge only: net/http has no Upgrade: h2c). A plain-HTTP port
// of an HTTPS site serves RedirectHTTPS, which answers 308 (the method
// and body kept) to the same URL over HTTPS for the hosts it is given and
// 421 for any other Host, since the client writes Host and a redirect
// taken from it would be an open redirect. The autotls module (ACME)
// refuses a manager without a HostPolicy, which would ask the CA for any
// name a client sends, or without a Cache, which would ask again at every
// start and meet the CA's rate limits. WebSocket handshakes, as
// documented below, are accepted from the page's own origin only.
//
// The Context's body readers accept at most DefaultBodyLimit bytes, 4 MiB
// (WithBodyLimit), and ReadJSON only a body sent as JSON (Content-Type
// application/json or +json), which a cross-site HTML form cannot send;
// the BodyLimit middleware sets a route's limit. A request whose
// Content-Length is over the limit gets 413 with Connection: close at the
// first read of its body, before a byte of it is read and without 100
// Continue, so the client does not upload a body that would be refused; a
// handler that ignores a body is answered at once, as on plain net/http. ReadBody and ReadJSON grow their buffer as the body arrives
// instead of allocating the announced length, so announcing 4 MiB and
// sending a byte costs kilobytes.
//
// Uploads (MultipartForm, FormFile, SaveFile) keep the body limit as their
// total, hold at most 8 MiB of file data in memory (DefaultUploadMemory;
// the rest goes to temporary files, removed when the request ends), accept
// files up to the body limit and at most 100 parts (DefaultUploadParts):
// WithUploadLimits changes them, BodyLimit raises a route's total. The
// limits are checked while the body is parsed: a file is refused at its
// first byte past the file size, a form at its first part past the count
// (a part's headers may take 16 KiB, ASP.NET Core's limit), after reading
// at most 4 KiB more than that, and the connection is closed after the
// 413 without reading the rest (net/http lingers half a second first, so
// a client still sending reads the answer). An upload route names its
// files itself; the client's file name is data.
//
// # Engines
//
// net/http is the default engine and the one to pick unless the number of
// requests per CPU matters most: it serves HTTP/2 and h2c, streams
// (Flush, server-sent events), hijacks (websockets), full duplex, and
// enforces the data rates above. WithEngine(fast.Engine()), from the
// module github.com/vireo-go/vireo/fast, serves the same Application,
// Context, middleware, sessions, views and mvc on fasthttp, HTTP/1.1
// only: it refuses HTTP/2, h2c and ConnState/ConnContext/BaseContext at
// Listen, buffers each request body and response in memory (the body
// limit bounds the first), and answers Flush, Hijack, deadlines and full
// duplex with ErrNotSupported. Values handed to handlers are copies on
// both engines, and Request and ResponseWriter work on both (built on
// first use on fasthttp). internal/conformance is the suite both pass.
//
// # Errors
//
// A handler reports failure in one way: ctx.StopWithError(err). The status
// comes from err (StatusOf: an HTTPError's Code, else 500) and the error
// handler for that status writes the page; ctx.StopError returns err to it. The
// response writers (Text, HTML, JSON, JSONIndent, XML, View) return nothing:
// when encoding or writing fails they call StopWithError themselves. The
// request readers (ReadBody, ReadJSON, ReadForm) return an error, an
// HTTPError with 400, 413 or 415 and the reason, that the handler passes
// on:
//
//	var in Album
//	if err := ctx.ReadJSON(&in); err != nil {
//		ctx.StopWithError(err)
//		return
//	}
//	ctx.JSON(store.Add(in))
//
// The page of an error status is written by the OnErrorCode handlers of
// the most specific group, else by the one application-wide handler set
// with Application.OnError (func(ctx, err)), else by the default page: RFC
// 9457 Problem Details (application/problem+json, with the request ID and,
// for a ValidationError, the invalid fields) for clients whose Accept
// prefers JSON, "Status Text: message" as text for the others. An error
// carries a public message and an internal cause apart: an HTTPError's
// Message reaches the client, its Err only the log; other errors show their
// text below 500 only. ctx.ErrorMessage is that public text, what custom
// handlers should show; WithErrorDetails (for debugging) shows everything.
//
// Everything Application.Build refuses (patterns, conflicts, nil handlers,
// options, view engines, mvc controllers) is a *RegistrationError naming the
// method and pattern when there is one. An application with registration
// errors does not serve: Listen returns them, and ServeHTTP answers 500 and
// logs them once.
//
// # Typed handlers and the OpenAPI document
//
// Get, Post, Put, Patch, Delete and HandleTyped register a
// func(Context, In) (Out, error): In is bound from the request by struct
// tags (path, query, header, cookie; the other fields from the JSON or form
// body) and checked by the Validator, Out written as JSON with the route's
// status (201 for POST, 204 for NoContent). The binding is planned at
// registration; a request pays no reflection beyond encoding/json's.
// WithOpenAPI serves, and OpenAPI returns, the OpenAPI 3.1 document of
// every route, generated once at Build; RouteOptions (Summary, Errors,
// Returns...) on the typed functions or Route.Describe add to it.
//
// # Configuration
//
// The whole framework is configured one way: functional options, WithX
// values passed to the constructor (core.New, sessions.New, view.NewHTML,
// view.NewDjango, redis.New, every middleware). Options keep the zero
// configuration a plain call, let a package add a setting without breaking
// callers, and leave the configured value immutable once built, so nothing
// needs a lock at request time; a Config struct would expose fields that
// are only read once, and chained setters would allow changes while
// serving. A constructor that can fail returns (T, error) and has a MustX
// twin that panics, for package-level setup. New of this package cannot
// fail by itself: an invalid option is a registration error, reported by
// Build and Listen with the others.
//
// # The Context rule
//
// A Context is a handle to its request, valid until the handler chain has
// returned and the response is finished. The request state behind it is
// pooled and serves other requests afterwards, but the handle carries the
// generation it was made for: kept past its request (by a goroutine, a
// closure, a net/http middleware that returned early such as
// http.TimeoutHandler), it reads zero values, its StopError and error-returning
// methods give ErrContextReleased and its writes do nothing, whatever the
// state serves by then, without a data race and without a panic. The same
// holds for what a Context hands out that points into the pooled state:
// Values, Params, ResponseWriter's writer, an SSE EventStream. A call in
// progress from a kept handle when the request ends is waited for (up to a
// second, after which the state is abandoned rather than reused), so it
// completes on its own request. The checks allocate nothing. A call from
// the goroutine serving the request costs two loads and a compare on amd64
// and arm64; a call from any other goroutine, and every call on other
// architectures or with the purego build tag, two uncontended atomic adds.
// A goroutine that needs request data after the handler returns takes
// ctx.Clone().
//
// # Informational statuses, upgrades and Hijack
//
// Every writer of Vireo's (the Context's, WrapHandler's, Mount's, the inner
// writer of WrapMiddleware, and those of Compress, Timeout, CSRF and
// sessions) passes informational statuses on as net/http sends them:
// WriteHeader with 100 or 103 goes out at once, with the headers set so
// far, may repeat, and is not the final status. 101 Switching Protocols is
// final: it is sent at once, and a Hijack that follows finds it on the
// connection, as a WebSocket library written against net/http expects
// (coder/websocket writes the 101 and hijacks, gorilla/websocket hijacks
// and writes its own). http.ResponseController (Flush, Hijack, the
// deadlines, EnableFullDuplex) reaches the server's connection through
// each of them, by their methods or Unwrap; under a request timeout only
// Flush is refused, the response being sent whole.
//
// A hijacked connection is the handler's: Vireo writes nothing more on
// it, runs no error page and logs the request with the status it had
// (101 after WriteHeader(101)); under a request timeout a connection
// hijacked before the deadline gets no timeout answer. The Context rule
// still holds: the Context is released when the handler returns, so a
// connection served after that (by a goroutine the handler started) uses
// what it was handed: the net.Conn or the library's connection, and a
// Clone for the request data. Serve the connection in the handler when it
// can, as net/http does; the request's context.Context is cancelled when
// the handler returns (and at a Timeout's deadline), so a connection that
// lives longer reads with context.WithoutCancel(ctx.Request().Context())
// or a context of its own.
//
// # WebSockets
//
// The documented way is github.com/coder/websocket (maintained, context
// based, net/http's upgrade path), tested through every writer of
// Vireo's (internal/wstest) and by _examples/chat in a real browser:
// Accept on ctx.ResponseWriter() and ctx.Request(), then serve the
// connection in the handler until it ends:
//
//	app.Get("/ws", func(ctx vireo.Context) {
//		conn, err := websocket.Accept(ctx.ResponseWriter(), ctx.Request(), nil)
//		if err != nil {
//			return // Accept answered (403 for another origin)
//		}
//		defer conn.CloseNow()
//		rctx := ctx.Request().Context() // ends when the handler returns
//		for {
//			typ, msg, err := conn.Read(rctx)
//			if err != nil {
//				return
//			}
//			conn.Write(rctx, typ, msg)
//		}
//	})
//
// Accept refuses, with 403, a handshake whose Origin is not the request's
// host: a WebSocket is not bound by CORS, so without the check any site
// could talk to the endpoint with its visitors' cookies. Keep it; list the
// other origins a page may come from in AcceptOptions.OriginPatterns
// ("app.example.com", "*.example.com"), never InsecureSkipVerify. A
// goroutine that writes while the handler reads uses the connection and
// a context.Context, not the Context, and the handler waits for it before
// it returns (the Context rule). http.Server.Shutdown neither closes nor
// waits for hijacked connections: an OnShutdown hook tells them (close
// code 1001) and waits, as the chat example's room does.
package core
