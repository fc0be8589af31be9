// CORS: cross-origin resource sharing.
//
// The configuration is compiled once by CORS: exact origins go into a map
// from origin to a ready-made header value, wildcard origins
// ("https://*.example.com") into prefix/suffix pairs, and the preflight
// answers (methods, headers, max age) into core.HeaderFields, names
// canonical and values shared. A request then costs its header lookups
// and one SetResponseHeaders call for all its response headers, Vary
// included: for an allowed exact origin or "*", no allocation.
//
// A request with an Origin header and a method of OPTIONS carrying
// Access-Control-Request-Method is a preflight: it is answered here with 204
// and never reaches the route's handlers. A disallowed origin, method or
// header gets the 204 without any Access-Control-Allow-* header, which the
// browser treats as a refusal. Other requests continue down the chain with
// Access-Control-Allow-Origin (and -Credentials, -Expose-Headers) set when
// their origin is allowed.
//
// Safe defaults, refused configurations:
//
//   - "*" with WithCredentials is an error from CORS (a panic from
//     MustCORS), as ASP.NET Core refuses it at startup: answering every
//     origin with itself and Access-Control-Allow-Credentials: true lets any
//     site read the responses meant for a logged-in user. List the origins,
//     or decide per origin with WithOriginFunc.
//   - "*" alone answers Access-Control-Allow-Origin: * on every response,
//     with or without an Origin header, and no Vary (the Fetch standard's
//     advice for a static value); exact and wildcard origins listed beside
//     it change nothing.
//   - The origin "null" (sandboxed frames, file: pages, some redirects,
//     which any site can produce) is allowed only when listed exactly: no
//     wildcard and no WithOriginFunc sees it.
//   - Vary: Origin is set on every answer that depends on the request's
//     origin, allowed or not, so a cache never hands one origin's answer
//     to another.
//
// Install CORS with Application.UseBeforeRouting so that preflights to routes
// without an OPTIONS handler are answered too; on a group (Use), it answers
// preflights only for routes that have an OPTIONS handler.

package middleware

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/core"
)

// CORSOption configures CORS.
type CORSOption func(*corsConfig) error

type corsConfig struct {
	origins     []string
	originFunc  func(origin string) bool
	methods     []string
	headers     []string
	exposed     []string
	credentials bool
	maxAge      time.Duration
}

// WithAllowedOrigins sets the allowed origins: exact ones
// ("https://app.example.com"), wildcard subdomains
// ("https://*.example.com", which does not match the bare domain), "null"
// (the opaque origin, only this way), or "*" for any origin.
func WithAllowedOrigins(origins ...string) CORSOption {
	return func(c *corsConfig) error {
		for _, o := range origins {
			if o == "" {
				return errors.New("middleware: CORS: empty origin")
			}
			if o != "*" && o != "null" && !strings.Contains(o, "://") {
				return fmt.Errorf("middleware: CORS: origin %q has no scheme", o)
			}
			if strings.Count(o, "*") > 1 || (o != "*" && strings.Contains(o, "*") && !strings.Contains(o, "://*.")) {
				return fmt.Errorf("middleware: CORS: origin %q: a wildcard must be the first label, as in https://*.example.com", o)
			}
			c.origins = append(c.origins, strings.ToLower(strings.TrimSuffix(o, "/")))
		}
		return nil
	}
}

// WithOriginFunc allows, in addition to WithAllowedOrigins, every origin
// for which fn returns true.
func WithOriginFunc(fn func(origin string) bool) CORSOption {
	return func(c *corsConfig) error {
		if fn == nil {
			return errors.New("middleware: CORS: nil origin func")
		}
		c.originFunc = fn
		return nil
	}
}

// WithAllowedMethods sets the methods a preflight may ask for (default GET,
// HEAD, POST, PUT, PATCH, DELETE).
func WithAllowedMethods(methods ...string) CORSOption {
	return func(c *corsConfig) error {
		for _, m := range methods {
			if m == "" || strings.ContainsAny(m, " ,\t") {
				return fmt.Errorf("middleware: CORS: invalid method %q", m)
			}
			c.methods = append(c.methods, strings.ToUpper(m))
		}
		return nil
	}
}

// WithAllowedHeaders sets the request headers a preflight may ask for
// (default Accept, Authorization, Content-Type, X-Requested-With). "*"
// allows any header the preflight names.
func WithAllowedHeaders(headers ...string) CORSOption {
	return func(c *corsConfig) error {
		for _, h := range headers {
			if h == "" || strings.ContainsAny(h, " ,\t") {
				return fmt.Errorf("middleware: CORS: invalid header %q", h)
			}
			if h != "*" {
				h = http.CanonicalHeaderKey(h)
			}
			c.headers = append(c.headers, h)
		}
		return nil
	}
}

// WithExposedHeaders names the response headers a script may read beyond
// the CORS-safelisted ones (Access-Control-Expose-Headers).
func WithExposedHeaders(headers ...string) CORSOption {
	return func(c *corsConfig) error {
		for _, h := range headers {
			if h == "" || strings.ContainsAny(h, " ,\t") {
				return fmt.Errorf("middleware: CORS: invalid header %q", h)
			}
			c.exposed = append(c.exposed, http.CanonicalHeaderKey(h))
		}
		return nil
	}
}

// WithCredentials allows credentialed requests (cookies, HTTP
// authentication): Access-Control-Allow-Credentials: true. It cannot be
// combined with the "*" origin: CORS returns an error for that pair.
func WithCredentials() CORSOption {
	return func(c *corsConfig) error { c.credentials = true; return nil }
}

// WithMaxAge sets how long a browser may cache a preflight answer
// (Access-Control-Max-Age, in whole seconds; 0, the default, omits it).
func WithMaxAge(d time.Duration) CORSOption {
	return func(c *corsConfig) error {
		if d < 0 {
			return errors.New("middleware: CORS: negative max age")
		}
		c.maxAge = d
		return nil
	}
}

type wildcardOrigin struct{ prefix, suffix string }

type cors struct {
	anyOrigin    bool
	exact        map[string]core.HeaderField // origin -> Access-Control-Allow-Origin: origin
	wildcards    []wildcardOrigin
	originFunc   func(string) bool
	methods      []string
	anyHeader    bool
	headers      []string
	allowMethods core.HeaderField
	allowHeaders core.HeaderField
	// Optional headers, the zero HeaderField (which sets nothing) when the
	// configuration has none.
	credentials core.HeaderField
	exposed     core.HeaderField
	maxAge      core.HeaderField
}

// Header fields shared by every response.
var (
	allowOriginAny   = core.NewHeaderField("Access-Control-Allow-Origin", "*")
	allowOriginName  = core.NewHeaderField("Access-Control-Allow-Origin") // WithValues(origin)
	allowCredentials = core.NewHeaderField("Access-Control-Allow-Credentials", "true")
	allowHeadersName = core.NewHeaderField("Access-Control-Allow-Headers") // WithValues(the headers asked for)
	varyOrigin       = addVary("Origin")
	varyPreflight    = addVary("Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
)

// CORS returns middleware answering CORS preflights and setting the CORS
// headers of other requests, or an error for an invalid option. Without
// WithAllowedOrigins or WithOriginFunc no origin is allowed.
func CORS(opts ...CORSOption) (core.Handler, error) {
	cfg := corsConfig{
		methods: []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"},
		headers: []string{"Accept", "Authorization", "Content-Type", "X-Requested-With"},
	}
	var methodsSet, headersSet bool
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("middleware: CORS: nil option")
		}
		before := [2]int{len(cfg.methods), len(cfg.headers)}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
		// The first WithAllowedMethods/WithAllowedHeaders replaces the defaults.
		if len(cfg.methods) != before[0] && !methodsSet {
			cfg.methods, methodsSet = cfg.methods[before[0]:], true
		}
		if len(cfg.headers) != before[1] && !headersSet {
			cfg.headers, headersSet = cfg.headers[before[1]:], true
		}
	}
	for _, o := range cfg.origins {
		if o == "*" && cfg.credentials {
			return nil, errors.New(`middleware: CORS: the "*" origin with credentials would let any site read authenticated responses; list the allowed origins or use WithOriginFunc`)
		}
	}
	m := &cors{
		exact:        make(map[string]core.HeaderField),
		originFunc:   cfg.originFunc,
		methods:      cfg.methods,
		allowMethods: core.NewHeaderField("Access-Control-Allow-Methods", strings.Join(cfg.methods, ", ")),
	}
	if cfg.credentials {
		m.credentials = allowCredentials
	}
	for _, o := range cfg.origins {
		if o == "*" {
			m.anyOrigin = true
		} else if prefix, suffix, ok := strings.Cut(o, "*"); ok {
			m.wildcards = append(m.wildcards, wildcardOrigin{prefix, suffix})
		} else {
			m.exact[o] = allowOriginName.WithValues(o)
		}
	}
	for _, h := range cfg.headers {
		if h == "*" {
			m.anyHeader = true
		}
	}
	m.headers = cfg.headers
	m.allowHeaders = allowHeadersName.WithValues(strings.Join(cfg.headers, ", "))
	if len(cfg.exposed) > 0 {
		m.exposed = core.NewHeaderField("Access-Control-Expose-Headers", strings.Join(cfg.exposed, ", "))
	}
	if s := int64(cfg.maxAge / time.Second); s > 0 {
		m.maxAge = core.NewHeaderField("Access-Control-Max-Age", strconv.FormatInt(s, 10))
	}
	return m.serve, nil
}

// MustCORS is CORS that panics on an invalid option.
func MustCORS(opts ...CORSOption) core.Handler {
	h, err := CORS(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// allowOrigin returns the Access-Control-Allow-Origin field for origin,
// and false when the origin is not allowed.
func (m *cors) allowOrigin(origin string) (core.HeaderField, bool) {
	if m.anyOrigin {
		return allowOriginAny, true // never with credentials: refused by CORS
	}
	if f, ok := m.exact[origin]; ok {
		return f, true
	}
	if origin == "null" {
		return core.HeaderField{}, false // only an exact listing allows the opaque origin
	}
	for _, w := range m.wildcards {
		if len(origin) > len(w.prefix)+len(w.suffix) && strings.HasPrefix(origin, w.prefix) && strings.HasSuffix(origin, w.suffix) &&
			!strings.ContainsAny(origin[len(w.prefix):len(origin)-len(w.suffix)], "/:@") {
			return allowOriginName.WithValues(origin), true
		}
	}
	if m.originFunc != nil && m.originFunc(origin) {
		return allowOriginName.WithValues(origin), true
	}
	return core.HeaderField{}, false
}

// serve answers a preflight or adds the CORS headers of a simple request.
// The request is read through the Context, never through ctx.Request(),
// so the fast engine builds no *http.Request for it, and the response
// headers, Vary included, are set in one SetResponseHeaders call of
// fields built by CORS, which hands the header map to no one: the fast
// engine keeps reusing it, and the shared values allocate nothing.
func (m *cors) serve(ctx core.Context) {
	origin := ctx.RequestHeader("Origin")
	if origin != "" && ctx.Method() == http.MethodOptions {
		if method := ctx.RequestHeader("Access-Control-Request-Method"); method != "" {
			m.preflight(ctx, origin, method)
			return
		}
	}
	if m.anyOrigin {
		ctx.SetResponseHeaders(allowOriginAny, m.exposed)
		ctx.Next()
		return
	}
	if origin == "" {
		ctx.SetResponseHeaders(varyOrigin)
	} else if allow, ok := m.allowOrigin(origin); ok {
		ctx.SetResponseHeaders(varyOrigin, allow, m.credentials, m.exposed)
	} else {
		ctx.SetResponseHeaders(varyOrigin)
	}
	ctx.Next()
}

// preflight answers an OPTIONS preflight with 204 and stops the chain. Its
// headers are all set before the status, in one call.
func (m *cors) preflight(ctx core.Context, origin, method string) {
	allow, ok := m.allowOrigin(origin)
	var reqHeaders []string
	if ok && m.allowedMethod(method) {
		reqHeaders = ctx.RequestHeaderValues("Access-Control-Request-Headers")
		ok = m.allowedHeaders(reqHeaders)
	} else {
		ok = false
	}
	if !ok {
		ctx.SetResponseHeaders(varyPreflight)
		ctx.StopWithStatus(http.StatusNoContent)
		return
	}
	var allowHeaders core.HeaderField
	if len(reqHeaders) > 0 {
		if m.anyHeader {
			allowHeaders = allowHeadersName.WithValues(strings.Join(reqHeaders, ", "))
		} else {
			allowHeaders = m.allowHeaders
		}
	}
	ctx.SetResponseHeaders(varyPreflight, allow, m.credentials, m.allowMethods, allowHeaders, m.maxAge)
	ctx.StopWithStatus(http.StatusNoContent)
}

func (m *cors) allowedMethod(method string) bool {
	for _, x := range m.methods {
		if x == method {
			return true
		}
	}
	// Simple methods need no permission (Fetch standard, CORS-safelisted methods).
	return method == "GET" || method == "HEAD" || method == "POST"
}

// allowedHeaders reports whether every header named in the comma-separated
// Access-Control-Request-Headers values is allowed.
func (m *cors) allowedHeaders(values []string) bool {
	if m.anyHeader {
		return true
	}
	for _, v := range values {
		for v != "" {
			var name string
			name, v, _ = strings.Cut(v, ",")
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			ok := false
			for _, x := range m.headers {
				if strings.EqualFold(x, name) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// varyOriginEncoding is Vary after CORS and Compress, the usual stack.
var varyOriginEncoding = []string{"Origin", "Accept-Encoding"}

// addVary returns the field that adds token to the Vary header, as
// http.Header's Add does, within the SetResponseHeaders call that sets it.
// It shares a ready-made slice when Vary was empty (and a ready-made pair
// for CORS followed by Compress) so as not to allocate.
func addVary(token string) core.HeaderField {
	alone := []string{token}
	return core.NewHeaderFieldFunc("Vary", func(old []string) []string {
		switch {
		case len(old) == 0:
			return alone
		case len(old) == 1 && old[0] == "Origin" && token == "Accept-Encoding":
			return varyOriginEncoding
		}
		return append(old, token)
	})
}
