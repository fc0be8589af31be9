// CORS: cross-origin resource sharing.
//
// The configuration is compiled once by CORS: exact origins go into a map
// from origin to a ready-made header value, wildcard origins
// ("https://*.example.com") into prefix/suffix pairs, and the preflight
// answers (methods, headers, max age) into header values. A request then
// costs a header lookup and, for an allowed exact origin or "*", a few map
// assignments of shared slices: no allocation.
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
	anyOrigin   bool
	exact       map[string][]string // origin -> header value {origin}
	wildcards   []wildcardOrigin
	originFunc  func(string) bool
	methods     []string
	methodsVal  []string
	anyHeader   bool
	headers     []string
	headersVal  []string
	exposedVal  []string
	maxAgeVal   []string
	credentials bool
}

// Header values shared by every response; net/http only reads them, and
// Header.Add appends to a copy because their capacity equals their length.
var (
	corsStar      = []string{"*"}
	corsTrue      = []string{"true"}
	varyOrigin    = []string{"Origin"}
	varyPreflight = []string{"Origin, Access-Control-Request-Method, Access-Control-Request-Headers"}
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
		exact:       make(map[string][]string),
		originFunc:  cfg.originFunc,
		methods:     cfg.methods,
		methodsVal:  []string{strings.Join(cfg.methods, ", ")},
		credentials: cfg.credentials,
	}
	for _, o := range cfg.origins {
		if o == "*" {
			m.anyOrigin = true
		} else if prefix, suffix, ok := strings.Cut(o, "*"); ok {
			m.wildcards = append(m.wildcards, wildcardOrigin{prefix, suffix})
		} else {
			m.exact[o] = []string{o}
		}
	}
	for _, h := range cfg.headers {
		if h == "*" {
			m.anyHeader = true
		}
	}
	m.headers = cfg.headers
	m.headersVal = []string{strings.Join(cfg.headers, ", ")}
	if len(cfg.exposed) > 0 {
		m.exposedVal = []string{strings.Join(cfg.exposed, ", ")}
	}
	if s := int64(cfg.maxAge / time.Second); s > 0 {
		m.maxAgeVal = []string{strconv.FormatInt(s, 10)}
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

// allowOrigin returns the Access-Control-Allow-Origin value for origin, or
// nil when the origin is not allowed.
func (m *cors) allowOrigin(origin string) []string {
	if m.anyOrigin {
		return corsStar // never with credentials: refused by CORS
	}
	if v, ok := m.exact[origin]; ok {
		return v
	}
	if origin == "null" {
		return nil // only an exact listing allows the opaque origin
	}
	for _, w := range m.wildcards {
		if len(origin) > len(w.prefix)+len(w.suffix) && strings.HasPrefix(origin, w.prefix) && strings.HasSuffix(origin, w.suffix) &&
			!strings.ContainsAny(origin[len(w.prefix):len(origin)-len(w.suffix)], "/:@") {
			return []string{origin}
		}
	}
	if m.originFunc != nil && m.originFunc(origin) {
		return []string{origin}
	}
	return nil
}

// serve answers a preflight or adds the CORS headers of a simple request.
// The request is read and the headers are set through the Context, never
// through ctx.Request() or the ResponseHeader map: the fast engine builds
// no *http.Request for it and keeps reusing its header map, and the
// shared values allocate nothing.
func (m *cors) serve(ctx core.Context) {
	origin := ctx.RequestHeader("Origin")
	if ctx.Method() == http.MethodOptions && origin != "" {
		if method := ctx.RequestHeader("Access-Control-Request-Method"); method != "" {
			m.preflight(ctx, origin, method)
			return
		}
	}
	if m.anyOrigin {
		ctx.SetResponseHeaderValues("Access-Control-Allow-Origin", corsStar)
		if m.exposedVal != nil {
			ctx.SetResponseHeaderValues("Access-Control-Expose-Headers", m.exposedVal)
		}
		ctx.Next()
		return
	}
	addVary(ctx, varyOrigin)
	if origin != "" {
		if v := m.allowOrigin(origin); v != nil {
			ctx.SetResponseHeaderValues("Access-Control-Allow-Origin", v)
			if m.credentials {
				ctx.SetResponseHeaderValues("Access-Control-Allow-Credentials", corsTrue)
			}
			if m.exposedVal != nil {
				ctx.SetResponseHeaderValues("Access-Control-Expose-Headers", m.exposedVal)
			}
		}
	}
	ctx.Next()
}

// preflight answers an OPTIONS preflight with 204 and stops the chain.
func (m *cors) preflight(ctx core.Context, origin, method string) {
	addVary(ctx, varyPreflight)
	ctx.StopWithStatus(http.StatusNoContent)
	allow := m.allowOrigin(origin)
	if allow == nil {
		return
	}
	if !m.allowedMethod(method) {
		return
	}
	reqHeaders := ctx.RequestHeaderValues("Access-Control-Request-Headers")
	if !m.allowedHeaders(reqHeaders) {
		return
	}
	ctx.SetResponseHeaderValues("Access-Control-Allow-Origin", allow)
	if m.credentials {
		ctx.SetResponseHeaderValues("Access-Control-Allow-Credentials", corsTrue)
	}
	ctx.SetResponseHeaderValues("Access-Control-Allow-Methods", m.methodsVal)
	if len(reqHeaders) > 0 {
		if m.anyHeader {
			ctx.SetResponseHeaderValues("Access-Control-Allow-Headers", []string{strings.Join(reqHeaders, ", ")})
		} else {
			ctx.SetResponseHeaderValues("Access-Control-Allow-Headers", m.headersVal)
		}
	}
	if m.maxAgeVal != nil {
		ctx.SetResponseHeaderValues("Access-Control-Max-Age", m.maxAgeVal)
	}
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

// addVary adds v to the Vary header, sharing v when Vary was empty (and a
// ready-made pair for CORS followed by Compress) so as not to allocate. It
// reads and sets the header through the Context (ResponseHeaderValues,
// SetResponseHeaderValues), which hands the header map to no one, so an
// engine that reuses its map (fasthttp) keeps that reuse.
func addVary(ctx core.Context, v []string) {
	if old := ctx.ResponseHeaderValues("Vary"); len(old) > 0 {
		if len(old) == 1 && old[0] == "Origin" && v[0] == "Accept-Encoding" {
			ctx.SetResponseHeaderValues("Vary", varyOriginEncoding)
			return
		}
		ctx.SetResponseHeaderValues("Vary", append(old, v[0]))
		return
	}
	ctx.SetResponseHeaderValues("Vary", v)
}
